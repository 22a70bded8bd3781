// CPU kernels of the softmax/log_softmax gradients (oneDNN's softmax backward for float32/bfloat16/float16, a
// double loop for float64, as the forward in norm_kernels.cpp) and of nll_loss's gradient (zeros with one value
// per target row, computed in double and rounded once).
#include <cmath>
#include <cstring>

#include "runtime/backend/common/softmax_grad_args.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_softmax.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// Row gradients over contiguous [rows, n] doubles: g - exp(y) * sum(g) (log) or y * (g - sum(g * y)).
void softmax_grad_rows(const double* g, const double* y, double* out, int64_t rows, int64_t n, bool log) {
  for (int64_t r = 0; r < rows; ++r) {
    const double *gr = g + r * n, *yr = y + r * n;
    double* o = out + r * n;
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += log ? gr[i] : gr[i] * yr[i];
    for (int64_t i = 0; i < n; ++i) o[i] = log ? gr[i] - std::exp(yr[i]) * s : yr[i] * (gr[i] - s);
  }
}

// The float64 path: [dim] moved last, rows in double, moved back into [out].
void softmax_grad_f64(const common::SoftmaxGradArgs& p, const Tensor& out, bool log, Device dev) {
  Tensor g = contiguous(native::transpose(p.grad, p.dim, -1)), y = contiguous(native::transpose(p.out, p.dim, -1));
  Tensor res = Tensor::empty(y.sizes(), DType::float64, dev);
  const int64_t n = y.size(-1);
  softmax_grad_rows(g.data<double>(), y.data<double>(), res.data<double>(), y.numel() / n, n, log);
  copy_into(out, native::transpose(res, p.dim, -1));
}

Tensor softmax_grad(const ArgReader& a, const KernelContext& kc, bool log) {
  common::SoftmaxGradArgs p = common::softmax_grad_args(a, log);
  if (p.grad.dtype() != p.out.dtype()) p.grad = cast(p.grad, p.out.dtype());
  Tensor out = Tensor::empty(p.out.sizes(), p.out.dtype(), kc.device);
  if (out.numel() > 0 && dnnl_dtype_ok(out.dtype()))
    dnnl_cpu::softmax_backward(dnnl_arg(p.out), dnnl_arg(p.grad), dnnl_arg(out), int(p.dim), log);
  else if (out.numel() > 0)
    softmax_grad_f64(p, out, log, kc.device);
  return cast(p.squeezed(out), p.input_dtype);
}

Tensors k_softmax_backward(const ArgReader& a, const KernelContext& kc) { return one_tensor(softmax_grad(a, kc, false)); }
Tensors k_log_softmax_backward(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(softmax_grad(a, kc, true));
}

// Per row: the value written at its target class, -w[k] * grad (divided by the total weight under 'mean'), and
// that class (-1 for an ignored row: nothing written). An out-of-range class is the forward's IndexError.
struct NllGradValues {
  std::vector<double> value;
  std::vector<int64_t> cls;  // -1: nothing written
};

NllGradValues nll_grad_values(const common::NllGradArgs& p) {
  const int64_t rows = p.rows();
  const Tensor t = contiguous(cast(p.target, DType::int64));
  const int64_t* tgt = t.data<int64_t>();
  std::vector<double> w = p.weight.defined() ? p.weight.to_doubles() : std::vector<double>();
  std::vector<double> g = p.grad.to_doubles();
  NllGradValues v{std::vector<double>(size_t(rows), 0.0), std::vector<int64_t>(size_t(rows), -1)};
  double total = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t k = tgt[r];
    if (k == p.ignore_index) continue;
    AMPS_CHECK_INDEX(k >= 0 && k < p.classes, "Target {} is out of bounds.", k);
    const double wk = w.empty() ? 1.0 : w[size_t(k)];
    v.value[size_t(r)] = -wk * g[p.red == common::Reduction::none ? size_t(r) : 0];
    v.cls[size_t(r)] = k;
    total += wk;
  }
  if (p.red == common::Reduction::mean)
    for (double& x : v.value) x /= total;
  return v;
}

Tensors k_nll_loss_backward(const ArgReader& a, const KernelContext& kc) {
  const common::NllGradArgs p = common::nll_grad_args(a);
  const NllGradValues v = nll_grad_values(p);
  Tensor out = Tensor::empty(p.input_sizes, p.grad.dtype(), kc.device);
  char* base = static_cast<char*>(out.raw_data());
  const int64_t bytes = out.numel() * int64_t(dtype_size(out.dtype()));
  parallel_for(bytes, int64_t(1) << 20, [&](int64_t b, int64_t e) { std::memset(base + b, 0, size_t(e - b)); });
  AMPS_DISPATCH_FLOAT(out.dtype(), "nll_loss_backward", T, [&] {
    T* o = out.data<T>();
    for (int64_t r = 0; r < p.rows(); ++r) {
      const int64_t k = v.cls[size_t(r)];
      if (k < 0) continue;
      const int64_t b = r / p.inner, s = r % p.inner;
      o[(b * p.classes + k) * p.inner + s] = T(v.value[size_t(r)]);
    }
  });
  return one_tensor(out);
}

}  // namespace

void register_softmax_grad_kernels(KernelTable& t) {
  t.add(OpId::_softmax_backward_data, k_softmax_backward, kFloatDTypes);
  t.add(OpId::_log_softmax_backward_data, k_log_softmax_backward, kFloatDTypes);
  t.add(OpId::nll_loss_backward, k_nll_loss_backward, kFloatDTypes);
}

}  // namespace amps::rt::cpu
