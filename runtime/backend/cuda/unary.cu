// Unary elementwise kernels (math, activations, rounding, clamp, nan_to_num, predicates), one per type, and
// gelu's gradient.
#include <cfloat>

#include "runtime/backend/common/special_math.hpp"
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename C> __device__ __forceinline__ C keep_op(UnOp op, C v) {
  switch (op) {
    case UnOp::neg: return C(-v);
    case UnOp::abs: return v <= C(0) ? C(C(0) - v) : v;  // abs(-0.0) is 0.0
    case UnOp::square: return C(v * v);
    case UnOp::sign:
      if constexpr (std::is_unsigned_v<C>) return C(v != C(0));  // uint8: 0 or 1
      else return C((C(0) < v) - (v < C(0)));
    case UnOp::relu: return v <= C(0) ? C(0) : v;  // NaN stays NaN, as in PyTorch
    default: break;
  }
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case UnOp::floor: return floor(v);
      case UnOp::ceil: return ceil(v);
      case UnOp::round: return nearbyint(v);
      case UnOp::trunc: return trunc(v);
      default: break;
    }
  }
  return v;  // rounding integers is the identity
}

template <typename C> __device__ __forceinline__ C float_op(UnOp op, C v, const UnaryParams& p) {
  switch (op) {
    case UnOp::sqrt: return sqrt(v);
    case UnOp::rsqrt: return C(1) / sqrt(v);
    case UnOp::exp: return exp(v);
    case UnOp::log: return log(v);
    case UnOp::log2: return log2(v);
    case UnOp::log1p: return log1p(v);
    case UnOp::expm1: return expm1(v);
    case UnOp::sin: return sin(v);
    case UnOp::cos: return cos(v);
    case UnOp::tanh: return tanh(v);
    case UnOp::sigmoid: return C(1) / (C(1) + exp(-v));
    case UnOp::erf: return erf(v);
    case UnOp::reciprocal: return C(1) / v;
    case UnOp::tan: return tan(v);
    case UnOp::sinh: return sinh(v);
    case UnOp::cosh: return cosh(v);
    case UnOp::asin: return asin(v);
    case UnOp::acos: return acos(v);
    case UnOp::atan: return atan(v);
    case UnOp::log10: return log10(v);
    case UnOp::erfinv: return erfinv(v);
    case UnOp::asinh: return asinh(v);
    case UnOp::acosh: return acosh(v);
    case UnOp::atanh: return atanh(v);
    case UnOp::erfc: return erfc(v);
    case UnOp::exp2: return exp2(v);
    case UnOp::lgamma: return lgamma(v);
    case UnOp::digamma: return C(special::digamma(double(v)));
    case UnOp::polygamma: return C(special::polygamma(int64_t(p.p0), double(v)));
    case UnOp::gelu: return C(0.5) * v * (C(1) + erf(v * C(0.7071067811865476)));
    case UnOp::gelu_tanh: {
      const C k = C(0.7978845608028654);  // sqrt(2 / pi)
      return C(0.5) * v * (C(1) + tanh(k * (v + C(0.044715) * v * v * v)));
    }
    case UnOp::silu: return v / (C(1) + exp(-v));
    case UnOp::leaky_relu: return v > C(0) ? v : C(v * C(p.p0));
    case UnOp::softplus: return v * C(p.p0) > C(p.p1) ? v : C(log1p(exp(v * C(p.p0))) / C(p.p0));
    default: return v;
  }
}

template <typename C> __device__ __forceinline__ C clamp_op(UnOp op, C v, const UnaryParams& p) {
  if (op == UnOp::clamp) {
    if (v != v) return v;
    const C lo = convert<C>(p.p0), hi = convert<C>(p.p1);  // small integers through int64, as the CPU kernel
    if (p.has_lo && v < lo) v = lo;
    if (p.has_hi && v > hi) v = hi;
    return v;
  }
  if constexpr (std::is_floating_point_v<C>) {  // nan_to_num
    if (v != v) return C(p.p0);
    if (isinf(v)) return v > C(0) ? C(p.p1) : C(p.p2);
  }
  return v;
}

template <typename C> __device__ __forceinline__ bool bool_op(UnOp op, C v) {
  switch (op) {
    case UnOp::isnan: return v != v;
    case UnOp::isinf: return v - v != v - v && v == v;
    case UnOp::isfinite: return v - v == v - v;
    case UnOp::logical_not: return v == C(0);
    default: return false;
  }
}

template <typename T> __global__ void unary_kernel(UnOp op, Shape sh, Ops<2> ops, UnaryParams p) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < sh.numel; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    offsets(sh, ops, i, off);
    const C v = C(widen(load<T>(ops.o[1], off[1])));
    if (op >= UnOp::isfinite) {
      static_cast<bool*>(ops.o[0].data)[off[0]] = bool_op(op, v);
      continue;
    }
    C r;
    if (op <= UnOp::relu) r = keep_op(op, v);
    else if (op >= UnOp::clamp) r = clamp_op(op, v, p);
    else if constexpr (std::is_floating_point_v<C>) r = float_op(op, v, p);
    else r = v;  // the host casts integers to float32 before float math
    static_cast<T*>(ops.o[0].data)[off[0]] = convert<T>(r);
  }
}

// gelu'(x), PyTorch's formulas: cdf + x pdf (erf form); with t = tanh(k (x + kappa x^3)):
// (1 + t) / 2 + x / 2 (1 - t^2) k (1 + 3 kappa x^2) (tanh form).
template <typename C> __device__ __forceinline__ C gelu_grad(C x, bool tanh_form) {
  if (!tanh_form) {
    const C cdf = C(0.5) * (C(1) + erf(x * C(0.7071067811865476)));
    return cdf + x * C(0.3989422804014327) * exp(C(-0.5) * x * x);  // 1 / sqrt(2 pi)
  }
  const C k = C(0.7978845608028654), kappa = C(0.044715);  // sqrt(2 / pi)
  const C t = tanh(k * (x + kappa * x * x * x));
  return C(0.5) * (C(1) + t) + C(0.5) * x * (C(1) - t * t) * k * (C(1) + C(3) * kappa * x * x);
}

template <typename T> __global__ void gelu_backward_kernel(Shape sh, Ops<3> ops, bool tanh_form) {
  using C = compute_t<T>;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < sh.numel; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    offsets(sh, ops, i, off);
    const C g = C(widen(load<T>(ops.o[1], off[1]))), x = C(widen(load<T>(ops.o[2], off[2])));
    static_cast<T*>(ops.o[0].data)[off[0]] = convert<T>(C(g * gelu_grad(x, tanh_form)));
  }
}

}  // namespace

cudaError_t launch_gelu_backward(cudaStream_t s, Elem t, const Shape& shape, const Operand& out, const Operand& grad,
                                 const Operand& self, bool tanh_form) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<3> ops{{out, grad, self}};
  return with_float_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    gelu_backward_kernel<T><<<grid_for(shape.numel), kThreads, 0, s>>>(shape, ops, tanh_form);
    return cudaGetLastError();
  });
}

cudaError_t launch_unary(cudaStream_t s, UnOp op, Elem t, const Shape& shape, const Operand& out,
                         const Operand& x, const UnaryParams& p) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<2> ops{{out, x}};
  return with_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    unary_kernel<T><<<grid_for(shape.numel), kThreads, 0, s>>>(op, shape, ops, p);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
