// CUDA kernels for layer_norm, var/std (which the norms' gradient rules run), batch_norm and dropout/native_dropout,
// with the CPU backend's checks and arithmetic (common/nn_args.hpp, common/reduce_layout.hpp,
// common/conv_pool_args.hpp): statistics in float (double for float64) for layer_norm, in double for var/std and
// batch_norm; dropout's keep-mask is drawn on the host.
#include <cstdint>
#include <limits>

#include "runtime/backend/common/norm_backward.hpp"
#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/common/reduce_layout.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

DType acc_dtype(DType t) { return t == DType::float64 ? DType::float64 : DType::float32; }

// [p] (weight or bias, may be undefined; its shape checked by layer_norm_width) as contiguous [acc] on the device.
const void* affine_param(const Tensor& p, DType acc, Tensor& keep) {
  if (!p.defined()) return nullptr;
  keep = contiguous(cast(p, acc));
  return device_data(keep);
}

Tensors k_layer_norm(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  const int64_t n = common::layer_norm_width(x, a.ints(1), a.opt_tensor(2), a.opt_tensor(3));
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (out.numel() == 0) return one_tensor(out);
  const DType acc = acc_dtype(x.dtype());
  Tensor xc = contiguous(x), wc, bc;
  const void* w = affine_param(a.opt_tensor(2), acc, wc);
  const void* b = affine_param(a.opt_tensor(3), acc, bc);
  check(launch_layer_norm(stream(kc.device), elem(x.dtype()), device_data(xc), w, b, device_data(out), x.numel() / n,
                          n, a.f64(4)), "layer_norm");
  return one_tensor(out);
}

// var/std over the reduced dims permuted innermost (one row-major copy unless already so).
Tensor var_like(const ArgReader& a, Device dev, bool take_sqrt) {
  Tensor x = a.tensor(0);
  const double correction = a.opt_scalar(2).value_or(Scalar(int64_t(1))).to_double();
  const common::ReducedLayout l = common::reduced_layout(x, a.opt_ints(1), a.boolean(3));
  Tensor rows = contiguous(native::permute(x, l.perm)), out = Tensor::empty(l.out_shape, x.dtype(), dev);
  check(launch_var_rows(stream(dev), elem(x.dtype()), device_data(rows), device_data(out), l.outer, l.inner,
                        correction, take_sqrt), take_sqrt ? "std" : "var");
  return out;
}
Tensors k_var(const ArgReader& a, const KernelContext& kc) { return one_tensor(var_like(a, kc.device, false)); }
Tensors k_std(const ArgReader& a, const KernelContext& kc) { return one_tensor(var_like(a, kc.device, true)); }

// A per-channel tensor of batch_norm ([C] elements: running stats, weight, bias) as C contiguous doubles.
Tensor channel_doubles(const Tensor& t, int64_t C, const char* what) {
  AMPS_CHECK(t.numel() == C, "batch_norm: {} has {} elements, expected {} (the input's channels)", what, t.numel(), C);
  return contiguous(cast(t, DType::float64));
}

const double* opt_doubles(const Tensor& t, int64_t C, const char* what, Tensor& keep) {
  if (!t.defined()) return nullptr;
  keep = channel_doubles(t, C, what);
  return static_cast<const double*>(device_data(keep));
}

// Training's in-place running-stat update from the batch statistic [stat] (C doubles) times [factor].
void update_running(const Tensor& running, const Tensor& stat, double momentum, double factor, const char* what) {
  if (!running.defined()) return;
  AMPS_CHECK(running.numel() == stat.numel(), "batch_norm: {} has {} elements, expected {} (the input's channels)",
             what, running.numel(), stat.numel());
  Tensor r = contiguous(running);
  check(launch_running_stat_update(stream(r.device()), elem(r.dtype()), device_data(r),
                                   static_cast<const double*>(device_data(stat)), r.numel(), momentum, factor),
        "batch_norm");
  if (!r.is_same(running)) copy_into(running, r);
}

// batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps): batch statistics in training
// (then the running stats move towards them, the variance unbiased), the running stats in evaluation.
Tensors k_batch_norm(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0), rm = a.opt_tensor(1), rv = a.opt_tensor(2), wk, bk;
  const bool training = a.boolean(5);
  const common::BatchNormLayout l = common::batch_norm_layout(x, rm, rv, a.opt_tensor(3), a.opt_tensor(4), training);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (out.numel() == 0) return one_tensor(out);
  const int64_t C = l.channels, N = x.size(0), S = l.per_channel / N;
  Tensor xc = contiguous(x), mean, var;
  if (training) {
    mean = Tensor::empty({C}, DType::float64, kc.device), var = Tensor::empty({C}, DType::float64, kc.device);
    check(launch_batch_norm_stats(stream(kc.device), elem(x.dtype()), device_data(xc), N, C, S,
                                  static_cast<double*>(device_data(mean)), static_cast<double*>(device_data(var))),
          "batch_norm");
  } else {
    mean = channel_doubles(rm, C, "running_mean"), var = channel_doubles(rv, C, "running_var");
  }
  const double* w = opt_doubles(a.opt_tensor(3), C, "weight", wk);
  const double* b = opt_doubles(a.opt_tensor(4), C, "bias", bk);
  check(launch_batch_norm_apply(stream(kc.device), elem(x.dtype()), device_data(xc),
                                static_cast<const double*>(device_data(mean)), static_cast<const double*>(device_data(var)),
                                w, b, device_data(out), N, C, S, a.f64(7)), "batch_norm");
  if (training) {
    update_running(rm, mean, a.f64(6), 1.0, "running_mean");
    update_running(rv, var, a.f64(6), double(l.per_channel) / double(l.per_channel - 1), "running_var");
  }
  return one_tensor(out);
}

// (output, keep-mask) as the CPU's: the mask is drawn on the host from the context's generator (the CPU's draws,
// so a seed gives the same mask on both devices) and uploaded; the scaling runs on the device.
Tensors dropout_impl(const Tensor& x, double p, bool training, const KernelContext& kc) {
  const double scale = common::dropout_scale(p);
  Tensor mask = Tensor::empty(x.sizes(), DType::bool_, kc.device);
  if (!training || p == 0) {
    fill(mask, Scalar(true));
    return {x, mask};
  }
  Tensor host = Tensor::empty(x.sizes(), DType::bool_, Device::cpu());
  common::draw_dropout_mask(host, p, kc.ctx.generator());
  transfer(mask, host);
  Tensor xc = contiguous(x), out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  check(launch_dropout(stream(kc.device), elem(x.dtype()), device_data(xc), static_cast<const bool*>(device_data(mask)),
                       device_data(out), x.numel(), scale), "dropout");
  return {out, mask};
}

Tensors k_dropout(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(dropout_impl(a.tensor(0), a.f64(1), a.boolean(2), kc)[0]);
}
Tensors k_native_dropout(const ArgReader& a, const KernelContext& kc) {
  return dropout_impl(a.tensor(0), a.f64(1), a.boolean(2), kc);
}

// layer_norm_backward, batch_norm_backward and group_norm_backward: the shared definitions, made of the kernels
// above (mean, var, elementwise, sum).
template <Tensors (*kMath)(Args&)> Tensors k_norm_backward(const ArgReader& a, const KernelContext&) {
  Args args = a.args();
  return kMath(args);
}

// Whether layer_norm_backward's fused kernel takes these operands: one float dtype for the gradient, the input and
// the weight (so every result has it, as on the CPU and in the shared definition), a gradient of the input's shape,
// a non-empty input. Anything else (mixed dtypes, a gradient of another shape) runs the shared definition, with its
// rules and errors.
bool fused_layer_norm_backward(const Tensor& g, const Tensor& x, const Tensor& w) {
  return g.dtype() == x.dtype() && g.sizes() == x.sizes() && x.numel() > 0 &&
         (!w.defined() || w.dtype() == x.dtype());
}

// layer_norm_backward(grad_output, input, normalized_shape, weight, eps, bias_grad): (dx, dw when a weight is given,
// db when bias_grad) in one row pass and one column pass (launch_layer_norm_backward), the statistics recomputed.
Tensors k_layer_norm_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor g = a.tensor(0), x = a.tensor(1), w = a.opt_tensor(3);
  const int64_t n = common::layer_norm_width(x, a.ints(2), w, Tensor());
  if (!fused_layer_norm_backward(g, x, w)) return k_norm_backward<common::layer_norm_backward_math>(a, kc);
  const bool bias_grad = a.boolean(5);
  const int64_t rows = x.numel() / n;
  if (rows > std::numeric_limits<int32_t>::max()) return k_norm_backward<common::layer_norm_backward_math>(a, kc);
  const DType acc = acc_dtype(x.dtype());
  Tensor xc = contiguous(x), gc = contiguous(g), wc, work;
  Tensor dx = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  Tensor dw = w.defined() ? Tensor::empty(a.ints(2), x.dtype(), kc.device) : Tensor();
  Tensor db = bias_grad ? Tensor::empty(a.ints(2), x.dtype(), kc.device) : Tensor();
  const int pieces = column_pieces(rows, n);
  if (dw.defined() || db.defined()) work = Tensor::empty({2 * rows + 2 * int64_t(pieces) * n}, acc, kc.device);
  check(launch_layer_norm_backward(stream(kc.device), elem(x.dtype()), device_data(gc), device_data(xc),
                                   affine_param(w, acc, wc), device_data(dx), dw.defined() ? device_data(dw) : nullptr,
                                   db.defined() ? device_data(db) : nullptr,
                                   work.defined() ? device_data(work) : nullptr, pieces, rows, n, a.f64(4)),
        "layer_norm_backward");
  return {dx, dw, db};
}

}  // namespace

void register_norm_kernels(KernelTable& t) {
  t.add(OpId::layer_norm, k_layer_norm, kFloatDTypes);
  t.add(OpId::layer_norm_backward, k_layer_norm_backward, kFloatDTypes);
  t.add(OpId::batch_norm_backward, k_norm_backward<common::batch_norm_backward_math>, kFloatDTypes);
  t.add(OpId::group_norm_backward, k_norm_backward<common::group_norm_backward_math>, kFloatDTypes);
  t.add(OpId::batch_norm, k_batch_norm, kFloatDTypes);
  t.add(OpId::var, k_var, kFloatDTypes);
  t.add(OpId::std, k_std, kFloatDTypes);
  t.add(OpId::dropout, k_dropout, kFloatDTypes);
  t.add(OpId::native_dropout, k_native_dropout, kFloatDTypes);
}

}  // namespace amps::rt::cuda
