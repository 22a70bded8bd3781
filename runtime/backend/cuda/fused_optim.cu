// Fused optimizer steps: one launch per list of parameters (FusedList), each block taking kUnscaleChunk
// elements of one parameter, the per-element formula shared with the CPU (common/fused_optim_math.hpp).
// found_inf, grad_scale and the step counts are read on the device, so a step never waits for the host.
#include <type_traits>

#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

using fused::Decay;

// Calls f(std::bool_constant<b>{}) so a flag that is uniform over the launch becomes a template argument.
template <typename F> __device__ __forceinline__ void with_flag(bool b, F&& f) {
  if (b) f(std::true_type{});
  else f(std::false_type{});
}

// This block's element range [lo, hi) of parameter [k].
struct Chunk {
  int k;
  int64_t lo, hi;
};
__device__ __forceinline__ Chunk chunk_of(const FusedList& l) {
  const int k = block_owner(l, blockIdx.x);
  const int64_t lo = (int64_t(blockIdx.x) - l.first_block[k]) * kUnscaleChunk;
  return {k, lo, min(l.numel[k], lo + kUnscaleChunk)};
}

// The gradient element; when grad_scale is given, divided by it (fused::unscaled_grad) and written back rounded, the
// step using the unrounded value (as PyTorch's fused kernels).
template <typename T> __device__ __forceinline__ compute_t<T> grad_at(T* g, int64_t i, const float* grad_scale) {
  using C = compute_t<T>;
  if (!grad_scale) return widen(g[i]);
  const C unscaled = fused::unscaled_grad(widen(g[i]), *grad_scale);
  g[i] = convert<T>(unscaled);
  return unscaled;
}

// kOps: the default Adam step's per-op formula (fused::adam_ops_element) instead of the fused kernels'.
template <typename T, bool kOps> __global__ void adam_kernel(FusedList l, fused::AdamHyper h, FusedFlags f) {
  using C = compute_t<T>;
  if (f.found_inf && *f.found_inf != 0.0f) return;
  const Chunk c = chunk_of(l);
  T *p = static_cast<T*>(l.p[c.k]), *g = static_cast<T*>(l.g[c.k]), *m = static_cast<T*>(l.m[c.k]);
  T *v = static_cast<T*>(l.v[c.k]), *vmax = static_cast<T*>(l.vmax[c.k]);
  const double step = double(*l.step[c.k]);
  std::conditional_t<kOps, fused::AdamOpsCoef<C>, fused::AdamCoef<C>> k;
  if constexpr (kOps) k = fused::adam_ops_coef<C>(h, step);
  else k = fused::adam_coef<C>(h, step);
  const Decay decay = h.weight_decay == 0 ? Decay::none : h.decoupled ? Decay::decoupled : Decay::l2;
  auto run = [&](auto kind, auto ams) {
    constexpr bool kAms = decltype(ams)::value;
    for (int64_t i = c.lo + threadIdx.x; i < c.hi; i += blockDim.x) {
      C pi = widen(p[i]), mi = widen(m[i]), vi = widen(v[i]), xi = kAms ? widen(vmax[i]) : C(0);
      const C gi = grad_at(g, i, f.grad_scale);
      if constexpr (kOps) fused::adam_ops_element<C, decltype(kind)::value, kAms>(k, gi, pi, mi, vi, xi);
      else fused::adam_element<C, decltype(kind)::value, kAms>(k, gi, pi, mi, vi, xi);
      p[i] = convert<T>(pi);
      m[i] = convert<T>(mi);
      v[i] = convert<T>(vi);
      if constexpr (kAms) vmax[i] = convert<T>(xi);
    }
  };
  with_flag(h.amsgrad, [&](auto ams) {
    if (decay == Decay::none) run(std::integral_constant<Decay, Decay::none>{}, ams);
    if (decay == Decay::l2) run(std::integral_constant<Decay, Decay::l2>{}, ams);
    if (decay == Decay::decoupled) run(std::integral_constant<Decay, Decay::decoupled>{}, ams);
  });
}

template <typename T> __global__ void sgd_kernel(FusedList l, fused::SgdHyper h, FusedFlags f) {
  using C = compute_t<T>;
  if (f.found_inf && *f.found_inf != 0.0f) return;
  const Chunk c = chunk_of(l);
  T *p = static_cast<T*>(l.p[c.k]), *g = static_cast<T*>(l.g[c.k]), *buf = static_cast<T*>(l.m[c.k]);
  const fused::SgdCoef<C> k = fused::sgd_coef<C>(h);
  with_flag(h.weight_decay != 0, [&](auto decay) {
    with_flag(h.has_momentum, [&](auto mom) {
      with_flag(h.is_first_step, [&](auto first) {
        with_flag(h.nesterov, [&](auto nesterov) {
          constexpr bool kMom = decltype(mom)::value, kFirst = decltype(first)::value;
          for (int64_t i = c.lo + threadIdx.x; i < c.hi; i += blockDim.x) {
            C pi = widen(p[i]), bi = kMom && !kFirst ? widen(buf[i]) : C(0);
            fused::sgd_element<C, decltype(decay)::value, kMom, kFirst, decltype(nesterov)::value>(
                k, grad_at(g, i, f.grad_scale), pi, bi);
            p[i] = convert<T>(pi);
            if constexpr (kMom) buf[i] = convert<T>(bi);
          }
        });
      });
    });
  });
}

}  // namespace

cudaError_t launch_fused_adam(cudaStream_t s, Elem t, const FusedList& list, const fused::AdamHyper& hyper,
                              FusedFlags flags, bool per_op_formula) {
  const int64_t blocks = list.first_block[list.count];
  if (list.count == 0 || blocks == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (per_op_formula) adam_kernel<T, true><<<unsigned(blocks), kThreads, 0, s>>>(list, hyper, flags);
    else adam_kernel<T, false><<<unsigned(blocks), kThreads, 0, s>>>(list, hyper, flags);
    return cudaGetLastError();
  });
}

cudaError_t launch_fused_sgd(cudaStream_t s, Elem t, const FusedList& list, const fused::SgdHyper& hyper,
                             FusedFlags flags) {
  const int64_t blocks = list.first_block[list.count];
  if (list.count == 0 || blocks == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    sgd_kernel<typename decltype(tag)::type><<<unsigned(blocks), kThreads, 0, s>>>(list, hyper, flags);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
