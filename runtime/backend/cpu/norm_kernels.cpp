// CPU kernels for softmax/log_softmax and layer/batch/group norm: oneDNN for float32/bfloat16/float16,
// float64 reference loops here (statistics always in double).
#include <cmath>

#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/common/norm_backward.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_norm.hpp"
#include "runtime/backend/cpu/dnnl_softmax.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// Row softmax over contiguous [rows, n] doubles.
void softmax_rows(const double* in, double* out, int64_t rows, int64_t n, bool log) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* x = in + r * n;
    double* y = out + r * n;
    double m = -INFINITY, s = 0;
    for (int64_t i = 0; i < n; ++i) m = std::max(m, x[i]);
    for (int64_t i = 0; i < n; ++i) s += std::exp(x[i] - m);
    for (int64_t i = 0; i < n; ++i) y[i] = log ? x[i] - m - std::log(s) : std::exp(x[i] - m) / s;
  }
}

// NaN tests on the stored bits of the oneDNN dtypes (float16: exponent 0x7C00, bfloat16: 0x7F80, both with a
// nonzero mantissa).
bool is_nan_at(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::float32: return std::isnan(t.data<float>()[i]);
    case DType::float16: return (t.data<uint16_t>()[i] & 0x7FFF) > 0x7C00;
    default: return (t.data<uint16_t>()[i] & 0x7FFF) > 0x7F80;
  }
}

void set_nan_at(Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::float32: t.data<float>()[i] = NAN; break;
    case DType::float16: t.data<uint16_t>()[i] = 0x7E00; break;
    default: t.data<uint16_t>()[i] = 0x7FC0; break;
  }
}

// PyTorch's softmax makes a row holding a NaN NaN throughout; oneDNN's max skips NaNs, so only the NaN's own place
// comes out NaN ([nan, 1, 2] gives [nan, 0.27, 0.73]). One scan of the (contiguous) output finds such places; the
// rows through them along [dim] are then filled with NaN.
void nan_rows_throughout(Tensor& out, int64_t dim) {
  const int64_t n = out.size(dim), inner = out.stride(dim), total = out.numel();
  bool any = false;
  if (out.dtype() == DType::float32) {
    const float* p = out.data<float>();
    for (int64_t i = 0; i < total; ++i) any |= std::isnan(p[i]);  // branch-free: vectorised
  } else {
    for (int64_t i = 0; i < total && !any; ++i) any = is_nan_at(out, i);
  }
  if (!any) return;
  for (int64_t o = 0; o < total; o += n * inner)
    for (int64_t j = 0; j < inner; ++j) {
      bool bad = false;
      for (int64_t i = 0; i < n && !bad; ++i) bad = is_nan_at(out, o + i * inner + j);
      for (int64_t i = 0; bad && i < n; ++i) set_nan_at(out, o + i * inner + j);
    }
}

Tensor softmax_impl(const ArgReader& a, const KernelContext& kc, bool log) {
  Tensor x = a.tensor(0);
  if (std::optional<DType> dt = a.opt_dtype(2)) x = cast(x, *dt);
  Tensor x1 = x.dim() == 0 ? native::unsqueeze(x, 0) : x;
  const int64_t dim = wrap_dim(a.i64(1), x1.dim());
  common::check_softmax_dtype(x.dtype(), dim, x1.dim(), log);
  Tensor out = Tensor::empty(x1.sizes(), x1.dtype(), kc.device);
  if (out.numel() > 0 && dnnl_dtype_ok(x1.dtype())) {
    dnnl_cpu::softmax_forward(dnnl_arg(x1), dnnl_arg(out), int(dim), log);
    nan_rows_throughout(out, dim);
  } else if (out.numel() > 0) {
    Tensor rows = contiguous(native::transpose(x1, dim, -1));
    Tensor res = Tensor::empty(rows.sizes(), DType::float64, kc.device);
    softmax_rows(rows.data<double>(), res.data<double>(), rows.numel() / rows.size(-1), rows.size(-1), log);
    copy_into(out, native::transpose(res, dim, -1));
  }
  return x.dim() == 0 ? native::squeeze(out, {0}) : out;
}

Tensors k_softmax(const ArgReader& a, const KernelContext& kc) { return one_tensor(softmax_impl(a, kc, false)); }
Tensors k_log_softmax(const ArgReader& a, const KernelContext& kc) { return one_tensor(softmax_impl(a, kc, true)); }

// Normalises each of [groups] contiguous runs of [n] doubles in place; returns nothing.
void normalize_runs(double* p, int64_t groups, int64_t n, double eps) {
  for (int64_t g = 0; g < groups; ++g) {
    double* x = p + g * n;
    double mean = 0, var = 0;
    for (int64_t i = 0; i < n; ++i) mean += x[i];
    mean /= double(n);
    for (int64_t i = 0; i < n; ++i) var += (x[i] - mean) * (x[i] - mean);
    double inv = 1.0 / std::sqrt(var / double(n) + eps);
    for (int64_t i = 0; i < n; ++i) x[i] = (x[i] - mean) * inv;
  }
}

std::optional<dnnl_cpu::DnnlArg> opt_arg(const Tensor& t) {
  if (!t.defined()) return std::nullopt;
  return dnnl_arg(dnnl_dtype_ok(t.dtype()) ? t : cast(t, DType::float32));
}

Tensors k_layer_norm(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0), w = a.opt_tensor(2), b = a.opt_tensor(3);
  Dims shape = a.ints(1);
  const double eps = a.f64(4);
  const int64_t n = common::layer_norm_width(x, shape, w, b);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (out.numel() == 0) return one_tensor(out);
  if (dnnl_dtype_ok(x.dtype())) {
    Tensor wc = w.defined() ? contiguous(w) : w, bc = b.defined() ? contiguous(b) : b;
    auto wa = opt_arg(wc), ba = opt_arg(bc);
    dnnl_cpu::layer_norm_forward(dnnl_arg(x), int(shape.size()), wa ? &*wa : nullptr, ba ? &*ba : nullptr,
                                 dnnl_arg(out), nullptr, nullptr, float(eps));
    return one_tensor(out);
  }
  Tensor y = contiguous(cast(x, DType::float64));
  y = y.is_same(x) ? cast_device(x, x.device()) : y;
  normalize_runs(y.data<double>(), y.numel() / n, n, eps);
  Tensor r = w.defined() ? cast(w, DType::float64) : Tensor::scalar(1.0, DType::float64);
  Tensor s = b.defined() ? cast(b, DType::float64) : Tensor::scalar(0.0, DType::float64);
  map3<double, double>(out, y, r, s, [](double v, double g, double c) { return v * g + c; });
  return one_tensor(out);
}

// layer_norm_backward: oneDNN's one-pass backward where it takes the operands (a float32/bfloat16/float16 gradient of
// the input's dtype and shape, such a weight; the statistics it needs come from a forward over the input, which the
// op does not keep), else the shared definition (float64).
Tensors k_layer_norm_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor g = a.tensor(0), x = a.tensor(1), w = a.opt_tensor(3);
  const Dims shape = a.ints(2);
  const bool bias_grad = a.boolean(5);
  const int64_t n = common::layer_norm_width(x, shape, w, Tensor());
  const bool fused = dnnl_dtype_ok(x.dtype()) && g.dtype() == x.dtype() && g.sizes() == x.sizes() && x.numel() > 0 &&
                     (!w.defined() || dnnl_dtype_ok(w.dtype()));
  if (!fused) {
    Args args = a.args();
    return common::layer_norm_backward_math(args);
  }
  const float eps = float(a.f64(4));
  const int64_t rows = x.numel() / n;
  std::vector<float> mean(static_cast<size_t>(rows)), var(static_cast<size_t>(rows));
  Tensor normalized = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  const dnnl_cpu::DnnlArg xa = dnnl_arg(x);
  dnnl_cpu::layer_norm_forward(xa, int(shape.size()), nullptr, nullptr, dnnl_arg(normalized), mean.data(), var.data(),
                               eps);
  Tensor dx = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  Tensor dw = w.defined() ? Tensor::empty(shape, w.dtype(), kc.device) : Tensor();
  Tensor db = bias_grad ? Tensor::empty(shape, w.defined() ? w.dtype() : x.dtype(), kc.device) : Tensor();
  const Tensor wc = w.defined() ? contiguous(w) : w;
  auto wa = opt_arg(wc), dwa = opt_arg(dw), dba = opt_arg(db);
  dnnl_cpu::layer_norm_backward(xa, dnnl_arg(g), mean.data(), var.data(), int(shape.size()), wa ? &*wa : nullptr,
                                dnnl_arg(dx), dwa ? &*dwa : nullptr, dba ? &*dba : nullptr, eps);
  return {dx, dw, db};
}

}  // namespace

void register_norm_kernels(KernelTable& t) {
  t.add(OpId::softmax, k_softmax);
  t.add(OpId::log_softmax, k_log_softmax);
  t.add(OpId::layer_norm, k_layer_norm, kFloatDTypes);
  t.add(OpId::layer_norm_backward, k_layer_norm_backward, kFloatDTypes);
}

}  // namespace amps::rt::cpu
