// CPU kernels for gelu and its gradient gelu_backward: oneDNN's vectorised, multi-threaded eltwise
// primitives for large dense float32/bfloat16 tensors, PyTorch's scalar formulas for everything else.
#include <cmath>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_eltwise.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

using dnnl_cpu::GeluForm;

// Below this many elements the scalar loop wins: a call of a cached oneDNN primitive costs ~1.4 µs (binding,
// execute, wait), the scalar erf form ~16 ns per element (measured, 2 OpenMP threads: 128 elements take
// 1.6 µs in oneDNN, 2.1 µs scalar; 64 take 1.5 and 1.0).
constexpr int64_t kDnnlMinNumel = 128;

GeluForm form_arg(const ArgReader& a, size_t i) {
  const std::string mode = a.str(i);
  AMPS_CHECK(mode == "none" || mode == "tanh", "approximate argument must be either none or tanh.");
  return mode == "none" ? GeluForm::erf : GeluForm::tanh;
}

// PyTorch's formulas (ATen's GeluKernelImpl / GeluBackwardKernelImpl) in the compute type C.
template <typename C> C gelu_erf(C x) { return x * C(0.5) * (C(1) + std::erf(x * C(M_SQRT1_2))); }
template <typename C> C gelu_tanh(C x) {
  const C k = C(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = C(0.044715);
  return C(0.5) * x * (C(1) + std::tanh(k * (x + kappa * x * x * x)));
}
template <typename C> C gelu_erf_grad(C g, C x) {
  const C cdf = C(0.5) * (C(1) + std::erf(x * C(M_SQRT1_2)));
  const C pdf = C(M_2_SQRTPI * M_SQRT1_2 * 0.5) * std::exp(C(-0.5) * x * x);
  return g * (cdf + x * pdf);
}
template <typename C> C gelu_tanh_grad(C g, C x) {
  const C k = C(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = C(0.044715);
  const C t = std::tanh(k * (x + kappa * x * x * x));
  const C inner_grad = k * (C(1) + C(3) * kappa * x * x);
  return g * (C(0.5) * (C(1) + t) + C(0.5) * x * (C(1) - t * t) * inner_grad);
}

dnnl_cpu::DnnlType dnnl_type(DType t) { return t == DType::float32 ? dnnl_cpu::DnnlType::f32 : dnnl_cpu::DnnlType::bf16; }

// Whether oneDNN takes these operands: one supported dtype, row-major, [out]'s shape, large enough.
bool dnnl_ok(const Tensor& out, std::initializer_list<const Tensor*> ins) {
  const DType dt = out.dtype();
  if (out.numel() < kDnnlMinNumel || (dt != DType::float32 && dt != DType::bfloat16)) return false;
  if (!dnnl_cpu::gelu_supported(dnnl_type(dt))) return false;
  for (const Tensor* t : ins)
    if (t->dtype() != dt || !t->is_contiguous() || t->sizes() != out.sizes()) return false;
  return true;
}

// Runs [fn] (a oneDNN call over [n] elements) on the calling thread alone when [n] is below the grain the other
// elementwise kernels parallelise at (parallel_for): oneDNN would start its OpenMP team for any size, and the
// team's start and join cost more than such a tensor's work; on a busy machine the join waits for a descheduled
// thread (1000 elements took 1.9 ms instead of 2 µs with another job on the second core).
template <typename F> void with_threads_for(int64_t n, F&& fn) {
  const int saved = omp_get_max_threads();
  if (n >= kParallelGrain || saved == 1) return fn();
  omp_set_num_threads(1);  // this thread's setting only; oneDNN reads it per execution
  try {
    fn();
  } catch (...) {
    omp_set_num_threads(saved);
    throw;
  }
  omp_set_num_threads(saved);
}

Tensors k_gelu(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  const GeluForm f = form_arg(a, 1);
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  if (dnnl_ok(out, {&x})) {
    with_threads_for(x.numel(), [&] {
      dnnl_cpu::gelu_forward(f, dnnl_type(x.dtype()), x.raw_data(), out.raw_data(), x.numel());
    });
    return one_tensor(out);
  }
  AMPS_DISPATCH_FLOAT(x.dtype(), "gelu", T, [&] {
    using C = compute_t<T>;
    if (f == GeluForm::erf) map1<T, T>(out, x, [](C v) { return gelu_erf(v); });
    else map1<T, T>(out, x, [](C v) { return gelu_tanh(v); });
  });
  return one_tensor(out);
}

// gelu_backward(grad_output, self, approximate): grad_output * gelu'(self), the operands promoted and
// broadcast as a binary op's.
Tensors k_gelu_backward(const ArgReader& a, const KernelContext& kc) {
  const Tensor g = a.tensor(0), x = a.tensor(1);
  const GeluForm f = form_arg(a, 2);
  const DType dt = result_type({&g, &x});
  Tensor out = Tensor::empty(broadcast_pair(g, x, "gelu_backward"), dt, kc.device);
  if (dnnl_ok(out, {&g, &x})) {
    with_threads_for(out.numel(), [&] {
      dnnl_cpu::gelu_backward(f, dnnl_type(dt), g.raw_data(), x.raw_data(), out.raw_data(), out.numel());
    });
    return one_tensor(out);
  }
  const Tensor gc = cast(g, dt), xc = cast(x, dt);
  AMPS_DISPATCH_FLOAT(dt, "gelu_backward", T, [&] {
    using C = compute_t<T>;
    if (f == GeluForm::erf) map2<T, T>(out, gc, xc, [](C gv, C xv) { return gelu_erf_grad(gv, xv); });
    else map2<T, T>(out, gc, xc, [](C gv, C xv) { return gelu_tanh_grad(gv, xv); });
  });
  return one_tensor(out);
}

}  // namespace

void register_gelu_kernels(KernelTable& t) {
#define AMPS_GELU_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_GELU_OP
}

}  // namespace amps::rt::cpu
