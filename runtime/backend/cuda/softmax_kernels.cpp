// CUDA kernels for softmax/log_softmax, nll_loss, cross_entropy and one_hot, with the CPU backend's
// dtype rules and checks (runtime/backend/cpu/norm_kernels.cpp, loss_kernels.cpp, index_kernels.cpp). Losses
// compute log-probabilities and totals in float (double for float64 input) and round once at the end.
#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

// Softmax of [x] (any float dtype, contiguous or not) along [dim] into a new tensor of x's dtype.
Tensor softmax_along(const Tensor& x, int64_t dim, bool log) {
  Tensor xc = contiguous(x);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), x.device());
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
  check(launch_softmax(stream(x.device()), elem(x.dtype()), device_data(xc), device_data(out), outer, x.size(dim),
                       inner, log), log ? "log_softmax" : "softmax");
  return out;
}

// softmax(x, dtype=float32) of a float16/bfloat16 [x1] along its innermost dim of up to kWarpRowMax: the kernel
// reads the half type and writes float32 (the values of casting first, without the cast's pass over x).
bool reads_half_into_f32(const Tensor& x1, std::optional<DType> dt, int64_t dim) {
  const bool half = x1.dtype() == DType::float16 || x1.dtype() == DType::bfloat16;
  return half && dt == DType::float32 && dim == x1.dim() - 1 && x1.size(dim) <= kWarpRowMax;
}

Tensor softmax_half_into_f32(const Tensor& x1, bool log) {
  Tensor xc = contiguous(x1), out = Tensor::empty(x1.sizes(), DType::float32, x1.device());
  const int64_t n = x1.size(-1), rows = n ? x1.numel() / n : 0;
  check(launch_softmax_to_f32(stream(x1.device()), elem(x1.dtype()), device_data(xc),
                              static_cast<float*>(device_data(out)), rows, n, log), log ? "log_softmax" : "softmax");
  return out;
}

Tensor softmax_impl(const ArgReader& a, bool log) {
  Tensor x = a.tensor(0);
  const std::optional<DType> dt = a.opt_dtype(2);
  Tensor x1 = x.dim() == 0 ? native::unsqueeze(x, 0) : x;
  const int64_t dim = wrap_dim(a.i64(1), x1.dim());
  common::check_softmax_dtype(dt.value_or(x.dtype()), dim, x1.dim(), log);  // the CPU kernel's refusal of integers
  Tensor out = reads_half_into_f32(x1, dt, dim) ? softmax_half_into_f32(x1, log)
                                                : softmax_along(dt ? cast(x1, *dt) : x1, dim, log);
  return x.dim() == 0 ? native::squeeze(out, {0}) : out;
}

Tensors k_softmax(const ArgReader& a, const KernelContext&) { return one_tensor(softmax_impl(a, false)); }
Tensors k_log_softmax(const ArgReader& a, const KernelContext&) { return one_tensor(softmax_impl(a, true)); }

using common::Reduction;
using common::parse_reduction;

DType acc_dtype(DType t) { return t == DType::float64 ? DType::float64 : DType::float32; }

// [N, C, d...] -> contiguous [N*d..., C] in [dt] (class dim last); [C] -> [1, C].
Tensor class_rows(const Tensor& input, DType dt) {
  Tensor x = input.dim() == 1 ? native::unsqueeze(input, 0) : input;
  Dims perm{0};
  for (int64_t d = 2; d < x.dim(); ++d) perm.push_back(d);
  perm.push_back(1);
  Tensor rows = contiguous(cast(native::permute(x, perm), dt));
  return native::view(rows, {x.size(1) ? rows.numel() / x.size(1) : 0, x.size(1)});
}

Dims target_shape(const Tensor& input) {
  if (input.dim() == 1) return {};
  Dims s{input.size(0)};
  s.insert(s.end(), input.sizes().begin() + 2, input.sizes().end());
  return s;
}

struct LossArgs {
  Tensor target, weight;
  int64_t ignore_index = -100;
  Reduction red = Reduction::mean;
  double smoothing = 0;
};

// The class loss of log-probability rows [lp] ([rows, C], acc dtype), reduced and cast to [out_dt].
Tensor class_loss(const Tensor& lp, const LossArgs& a, bool probs, const Dims& out_shape, DType out_dt) {
  const Device dev = lp.device();
  const DType acc = lp.dtype();
  const int64_t rows = lp.size(0), C = lp.size(1);
  Tensor w = a.weight.defined() ? contiguous(cast(a.weight, acc)) : Tensor();
  AMPS_CHECK(!w.defined() || w.numel() == C, "weight tensor should be defined either for all {} classes or no "
             "classes but got weight tensor of shape: {}", C, format_shape(a.weight.sizes()));
  Tensor t = probs ? class_rows(a.target, acc) : contiguous(cast(a.target, DType::int64));
  AMPS_CHECK(t.numel() == (probs ? rows * C : rows), "Expected target size {}, got {}", format_shape(out_shape),
             format_shape(a.target.sizes()));
  ClassLoss cl{device_data(lp), probs ? nullptr : static_cast<const int64_t*>(device_data(t)),
               probs ? device_data(t) : nullptr, w.defined() ? device_data(w) : nullptr, rows, C, a.ignore_index,
               a.smoothing};
  Tensor loss = Tensor::empty({rows}, acc, dev), row_w = Tensor::empty({rows}, acc, dev);
  check(launch_class_loss(stream(dev), elem(acc), cl, device_data(loss), device_data(row_w)), "class loss");
  if (a.red == Reduction::none) return cast(native::view(loss, out_shape), out_dt);
  Tensor total = Tensor::empty({}, acc, dev);
  const bool by_weight = a.red == Reduction::mean && !probs;
  const double denominator = a.red == Reduction::sum ? 1.0 : double(rows);
  check(launch_loss_total(stream(dev), elem(acc), device_data(loss), by_weight ? device_data(row_w) : nullptr, rows,
                          denominator, device_data(total)), "loss total");
  return cast(total, out_dt);
}

Tensors k_cross_entropy(const ArgReader& a, const KernelContext&) {
  Tensor input = a.tensor(0);
  AMPS_CHECK(is_floating(input.dtype()), "cross_entropy: expected a floating point input, got {}",
             dtype_name(input.dtype()));
  LossArgs c{a.tensor(1), a.opt_tensor(2), a.i64(3), parse_reduction(a.str(4)), a.f64(5)};
  AMPS_CHECK_VALUE(c.smoothing >= 0 && c.smoothing <= 1, "label_smoothing must be between 0.0 and 1.0. Got: {}",
                   c.smoothing);
  const bool probs = is_floating(c.target.dtype());
  AMPS_CHECK(!probs || c.target.sizes() == input.sizes(), "cross_entropy: target of probabilities must have the "
             "input's shape {}, got {}", format_shape(input.sizes()), format_shape(c.target.sizes()));
  Tensor lp = softmax_along(class_rows(input, acc_dtype(input.dtype())), 1, true);
  return one_tensor(class_loss(lp, c, probs, target_shape(input), input.dtype()));
}

Tensors k_nll_loss(const ArgReader& a, const KernelContext&) {
  Tensor input = a.tensor(0);
  LossArgs c{a.tensor(1), a.opt_tensor(2), a.i64(3), parse_reduction(a.str(4)), 0.0};
  AMPS_CHECK(!is_floating(c.target.dtype()), "nll_loss: expected target of class indices (int64), got {}",
             dtype_name(c.target.dtype()));
  return one_tensor(
      class_loss(class_rows(input, acc_dtype(input.dtype())), c, false, target_shape(input), input.dtype()));
}

// num_classes = -1 reads the largest index on the host (a counted host sync, as PyTorch's on CUDA); indices
// out of range are skipped (the CPU raises, a kernel cannot without a sync).
Tensors k_one_hot(const ArgReader& a, const KernelContext& kc) {
  Tensor input = contiguous(a.tensor(0));
  AMPS_CHECK(input.dtype() == DType::int64, "one_hot is only applicable to index tensor of type LongTensor.");
  int64_t n = a.i64(1);
  if (n == -1) {
    AMPS_CHECK(input.numel() > 0, "Can not infer total number of classes from empty tensor.");
    Tensor top = Tensor::empty({}, DType::int64, kc.device), host = Tensor::empty({}, DType::int64, Device::cpu());
    check(launch_extreme_rows(stream(kc.device), Elem::i64, device_data(input), 1, input.numel(), true,
                              device_data(top), nullptr), "one_hot");
    kc.ctx.count_host_sync();
    transfer(host, top);
    n = *host.data<int64_t>() + 1;
  }
  Dims shape = input.sizes();
  shape.push_back(n);
  Tensor out = Tensor::empty(shape, DType::int64, kc.device);
  fill(out, Scalar(int64_t(0)));
  check(launch_one_hot(stream(kc.device), static_cast<const int64_t*>(device_data(input)), input.numel(), n,
                       static_cast<int64_t*>(device_data(out))), "one_hot");
  return one_tensor(out);
}

}  // namespace

void register_softmax_kernels(KernelTable& t) {
  t.add(OpId::softmax, k_softmax);
  t.add(OpId::log_softmax, k_log_softmax);
  t.add(OpId::cross_entropy, k_cross_entropy, kFloatDTypes);
  t.add(OpId::nll_loss, k_nll_loss, kFloatDTypes);
  t.add(OpId::one_hot, k_one_hot, dtype_bit(DType::int64));
}

}  // namespace amps::rt::cuda
