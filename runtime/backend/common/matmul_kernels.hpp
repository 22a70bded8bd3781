// The matrix-product family (mm, bmm, matmul, dot, mv, outer, addmm(_), baddbmm, addbmm, addmv, addr,
// linear): argument checks and shape logic written once over a backend's device primitives [D]:
//   D::gemm(a, w, dst, alpha, beta)   dst = alpha * (a @ w) + beta * dst, a [..., M, K] and w [..., K, N]
//                                     broadcast to dst's batch dims;
//   D::copy_into(dst, src), D::cast(t, dtype), D::reshape(t, shape).
// Kernels are plain function pointers, so they are static members of a class template over D.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {

// Argument checks, with PyTorch's messages.
inline void check_same_dtype(OpId op, const Tensor& a, const Tensor& b) {
  AMPS_CHECK(a.dtype() == b.dtype(), "{}: expected both inputs to have the same dtype, but got {} and {}",
             op_name(op), dtype_name(a.dtype()), dtype_name(b.dtype()));
}

inline void check_mm_shapes(OpId op, const Tensor& a, const Tensor& b) {
  AMPS_CHECK(a.size(-1) == b.size(-2), "{}: shapes {} and {} cannot be multiplied", op_name(op),
             format_shape(a.sizes()), format_shape(b.sizes()));
}

inline void check_dim(OpId op, const Tensor& t, int64_t want, const char* what) {
  AMPS_CHECK(t.dim() == want, "{}: {} must be a {}-D tensor, got {}-D with shape {}", op_name(op), what, want,
             t.dim(), format_shape(t.sizes()));
}

template <class D>
struct MatmulKernels {
  static Tensor mm_impl(OpId op, const Tensor& a, const Tensor& b, Device dev) {
    check_same_dtype(op, a, b);
    check_mm_shapes(op, a, b);
    Tensor out = Tensor::empty({a.size(0), b.size(1)}, a.dtype(), dev);
    D::gemm(a, b, out, 1.0, 0.0);
    return out;
  }

  static Tensors k_mm(const ArgReader& a, const KernelContext& kc) {
    Tensor x = a.tensor(0), y = a.tensor(1);
    check_dim(a.op(), x, 2, "input");
    check_dim(a.op(), y, 2, "mat2");
    return {mm_impl(a.op(), x, y, kc.device)};
  }

  static Tensors k_bmm(const ArgReader& a, const KernelContext& kc) {
    Tensor x = a.tensor(0), y = a.tensor(1);
    check_dim(a.op(), x, 3, "input");
    check_dim(a.op(), y, 3, "mat2");
    check_same_dtype(a.op(), x, y);
    AMPS_CHECK(x.size(0) == y.size(0), "bmm: batch sizes {} and {} differ", x.size(0), y.size(0));
    check_mm_shapes(a.op(), x, y);
    Tensor out = Tensor::empty({x.size(0), x.size(1), y.size(2)}, x.dtype(), kc.device);
    D::gemm(x, y, out, 1.0, 0.0);
    return {out};
  }

  // torch.matmul: 1-D operands get a dim added (and removed from the result); batch dims broadcast.
  static Tensor matmul_impl(OpId op, Tensor x, Tensor y, Device dev) {
    AMPS_CHECK(x.dim() > 0 && y.dim() > 0, "{}: both arguments need at least 1 dimension, got {}D and {}D",
               op_name(op), x.dim(), y.dim());
    check_same_dtype(op, x, y);
    const bool x1 = x.dim() == 1, y1 = y.dim() == 1;
    if (x1) x = native::unsqueeze(x, 0);
    if (y1) y = native::unsqueeze(y, 1);
    check_mm_shapes(op, x, y);
    Dims xb(x.sizes().begin(), x.sizes().end() - 2), yb(y.sizes().begin(), y.sizes().end() - 2);
    Dims shape = broadcast_shapes(xb, yb, op_name(op));
    shape.push_back(x.size(-2));
    shape.push_back(y.size(-1));
    Tensor out = Tensor::empty(shape, x.dtype(), dev);
    const int64_t x_rows = numel_of(Dims(x.sizes().begin(), x.sizes().end() - 1));
    if (std::optional<Tensor> x2 = x.dim() > 2 && y.dim() == 2 ? native::try_view(x, {x_rows, x.size(-1)}) : std::nullopt)
      D::gemm(*x2, y, native::view(out, {x2->size(0), y.size(-1)}), 1.0, 0.0);  // [*, K] @ [K, N]: one 2-D product
    else
      D::gemm(x, y, out, 1.0, 0.0);
    if (y1) out = native::squeeze(out, {-1});
    if (x1) out = native::squeeze(out, {-2 + (y1 ? 1 : 0)});
    return out;
  }

  static Tensors k_matmul(const ArgReader& a, const KernelContext& kc) { return {matmul_impl(a.op(), a.tensor(0), a.tensor(1), kc.device)}; }

  static Tensors k_dot(const ArgReader& a, const KernelContext& kc) {
    Tensor x = a.tensor(0), y = a.tensor(1);
    check_dim(a.op(), x, 1, "input");
    check_dim(a.op(), y, 1, "other");
    AMPS_CHECK(x.size(0) == y.size(0), "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same "
               "number of elements, but got {} and {} elements respectively", x.size(0), y.size(0), x.size(0), y.size(0));
    return {matmul_impl(a.op(), x, y, kc.device)};
  }

  static Tensors k_mv(const ArgReader& a, const KernelContext& kc) {
    check_dim(a.op(), a.tensor(0), 2, "input");
    check_dim(a.op(), a.tensor(1), 1, "vec");
    return {matmul_impl(a.op(), a.tensor(0), a.tensor(1), kc.device)};
  }

  static Tensors k_outer(const ArgReader& a, const KernelContext& kc) {
    check_dim(a.op(), a.tensor(0), 1, "input");
    check_dim(a.op(), a.tensor(1), 1, "vec2");
    return {matmul_impl(a.op(), native::unsqueeze(a.tensor(0), 1), native::unsqueeze(a.tensor(1), 0), kc.device)};
  }

  // beta * input + alpha * (x @ y) into a fresh tensor (or into [inplace_target]).
  static Tensor add_product(OpId op, const Tensor& input, const Tensor& x, const Tensor& y, Scalar beta, Scalar alpha,
                     Device dev, const Tensor& inplace_target = Tensor()) {
    check_same_dtype(op, x, y);
    check_mm_shapes(op, x, y);
    Dims shape(x.sizes().begin(), x.sizes().end() - 1);
    shape.push_back(y.size(-1));
    Tensor out = inplace_target.defined() ? inplace_target : Tensor::empty(shape, x.dtype(), dev);
    AMPS_CHECK(out.sizes() == shape, "{}: output shape {} does not match the product's shape {}", op_name(op),
               format_shape(out.sizes()), format_shape(shape));
    const double b = beta.to_double();
    if (b != 0 && !inplace_target.defined()) {
      Dims bs = broadcast_shapes(input.sizes(), shape, op_name(op));
      AMPS_CHECK(bs == shape, "{}: input of shape {} cannot be broadcast to {}", op_name(op), format_shape(input.sizes()),
                 format_shape(shape));
      D::copy_into(out, input);
    }
    D::gemm(x, y, out, alpha.to_double(), b);
    return out;
  }

  static Tensors k_addmm(const ArgReader& a, const KernelContext& kc) {
    check_dim(a.op(), a.tensor(1), 2, "mat1");
    check_dim(a.op(), a.tensor(2), 2, "mat2");
    return {add_product(a.op(), a.tensor(0), a.tensor(1), a.tensor(2), a.scalar(3), a.scalar(4), kc.device)};
  }

  static Tensors k_addmm_(const ArgReader& a, const KernelContext& kc) {
    Tensor self = a.tensor(0);
    return {add_product(a.op(), self, a.tensor(1), a.tensor(2), a.scalar(3), a.scalar(4), kc.device, self)};
  }

  static Tensors k_baddbmm(const ArgReader& a, const KernelContext& kc) {
    check_dim(a.op(), a.tensor(1), 3, "batch1");
    check_dim(a.op(), a.tensor(2), 3, "batch2");
    return {add_product(a.op(), a.tensor(0), a.tensor(1), a.tensor(2), a.scalar(3), a.scalar(4), kc.device)};
  }

  // addbmm sums the batch of products: [B, M, K] @ [B, K, N] == [M, B*K] @ [B*K, N].
  static Tensors k_addbmm(const ArgReader& a, const KernelContext& kc) {
    Tensor b1 = a.tensor(1), b2 = a.tensor(2);
    check_dim(a.op(), b1, 3, "batch1");
    check_dim(a.op(), b2, 3, "batch2");
    AMPS_CHECK(b1.size(0) == b2.size(0), "addbmm: batch sizes {} and {} differ", b1.size(0), b2.size(0));
    Tensor x = D::reshape(native::permute(b1, {1, 0, 2}), {b1.size(1), b1.size(0) * b1.size(2)});
    Tensor y = D::reshape(b2, {b2.size(0) * b2.size(1), b2.size(2)});
    return {add_product(a.op(), a.tensor(0), x, y, a.scalar(3), a.scalar(4), kc.device)};
  }

  static Tensors k_addmv(const ArgReader& a, const KernelContext& kc) {
    check_dim(a.op(), a.tensor(1), 2, "mat");
    check_dim(a.op(), a.tensor(2), 1, "vec");
    Tensor input = a.tensor(0);
    Tensor in2 = input.dim() == 1 ? native::unsqueeze(input, 1) : input;
    Tensor r = add_product(a.op(), in2, a.tensor(1), native::unsqueeze(a.tensor(2), 1), a.scalar(3), a.scalar(4), kc.device);
    return {native::squeeze(r, {1})};
  }

  static Tensors k_addr(const ArgReader& a, const KernelContext& kc) {
    check_dim(a.op(), a.tensor(1), 1, "vec1");
    check_dim(a.op(), a.tensor(2), 1, "vec2");
    return {add_product(a.op(), a.tensor(0), native::unsqueeze(a.tensor(1), 1), native::unsqueeze(a.tensor(2), 0),
                        a.scalar(3), a.scalar(4), kc.device)};
  }

  // linear: input [*, in] @ weight[out, in]^T + bias[out], flattened to 2-D for the product.
  static Tensors k_linear(const ArgReader& a, const KernelContext& kc) {
    Tensor x = a.tensor(0), w = a.tensor(1), bias = a.opt_tensor(2);
    check_dim(a.op(), w, 2, "weight");
    AMPS_CHECK(x.dim() >= 1 && x.size(-1) == w.size(1), "linear: shapes {} and {} cannot be multiplied (input's last "
               "dim must equal weight's in_features)", format_shape(x.sizes()), format_shape(native::t(w).sizes()));
    int64_t rows = 1;  // explicit: -1 is ambiguous for an empty input with in_features 0 (PyTorch gives zeros)
    for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.size(d);
    Tensor x2 = D::reshape(x, {rows, x.size(-1)});
    Tensor out = Tensor::empty({x2.size(0), w.size(0)}, x.dtype(), kc.device);
    check_same_dtype(a.op(), x, w);
    AMPS_CHECK(!bias.defined() || (bias.dim() <= 2 && broadcast_shapes(bias.sizes(), out.sizes(), "linear") == out.sizes()),
               "linear: a bias of shape {} does not broadcast to the output's {} (it needs out_features = {} values)",
               format_shape(bias.sizes()), format_shape(out.sizes()), w.size(0));
    if (!bias.defined()) {
      D::gemm(x2, native::t(w), out, 1.0, 0.0);
    } else if constexpr (requires { D::gemm_bias(x2, w, out, bias); }) {
      D::gemm_bias(x2, native::t(w), out, D::cast(bias, x.dtype()));  // the bias added in the product's epilogue
    } else {
      D::copy_into(out, D::cast(bias, x.dtype()));
      D::gemm(x2, native::t(w), out, 1.0, 1.0);
    }
    Dims shape(x.sizes().begin(), x.sizes().end() - 1);
    shape.push_back(w.size(0));
    return {native::view(out, shape)};
  }
};

// Registers the family for [types] (a backend passes the dtypes its gemm supports).
template <class D>
void register_matmul_kernels(cpu::KernelTable& t, uint32_t types) {
  using K = MatmulKernels<D>;
  t.add(OpId::mm, K::k_mm, types);
  t.add(OpId::bmm, K::k_bmm, types);
  t.add(OpId::matmul, K::k_matmul, types);
  t.add(OpId::dot, K::k_dot, types);
  t.add(OpId::mv, K::k_mv, types);
  t.add(OpId::outer, K::k_outer, types);
  t.add(OpId::addmm, K::k_addmm, types);
  t.add(OpId::addmm_, K::k_addmm_, types);
  t.add(OpId::baddbmm, K::k_baddbmm, types);
  t.add(OpId::addbmm, K::k_addbmm, types);
  t.add(OpId::addmv, K::k_addmv, types);
  t.add(OpId::addr, K::k_addr, types);
  t.add(OpId::linear, K::k_linear, types);
}

}  // namespace amps::rt::common
