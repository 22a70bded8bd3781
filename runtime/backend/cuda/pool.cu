// 2-D pooling kernels with the CPU backend's window rules and arithmetic: max pooling's row-major argmax scan
// (NaN propagates), average and adaptive pooling in double. Backward passes gather: one thread per input element
// sums, in row-major output order, what the windows holding it send, so no atomics and the CPU's sums exactly.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

// The window of output [o] along one dim for average pooling: [lo, hi) clipped to the input and its size clipped
// to the padded input (the CPU's avg_window).
struct Span {
  int64_t lo, hi, padded;
};

__device__ __forceinline__ Span avg_span(int64_t o, int64_t in, int64_t k, int64_t s, int64_t p) {
  const int64_t lo = o * s - p, hi = min(lo + k, in + p);
  return {max(lo, int64_t(0)), min(hi, in), hi - lo};
}

__device__ __forceinline__ Span adaptive_span(int64_t o, int64_t in, int64_t out) {
  const int64_t lo = o * in / out, hi = ((o + 1) * in + out - 1) / out;
  return {lo, hi, hi - lo};
}

__device__ __forceinline__ double avg_divisor(const Span& h, const Span& w, bool include_pad, int64_t divisor) {
  if (divisor != 0) return double(divisor);  // 0: none (read_pool refuses a zero override); negative allowed
  return include_pad ? double(h.padded * w.padded) : double((h.hi - h.lo) * (w.hi - w.lo));
}

template <typename T> __global__ void max_pool(PoolGeo g, const T* in, T* out, int64_t* idx) {
  using C = compute_t<T>;
  const int64_t n = g.planes * g.OH * g.OW;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t ow = i % g.OW, oh = i / g.OW % g.OH, p = i / (g.OW * g.OH);
    const T* x = in + p * g.H * g.W;
    int64_t at = -1;
    C best = C(0);
    for (int64_t a = 0, h = oh * g.sh - g.ph; a < g.kh; ++a, h += g.dh) {
      if (h < 0 || h >= g.H) continue;
      for (int64_t b = 0, w = ow * g.sw - g.pw; b < g.kw; ++b, w += g.dw) {
        if (w < 0 || w >= g.W) continue;
        const C v = widen(x[h * g.W + w]);
        if (at < 0 || v > best || v != v) best = v, at = h * g.W + w;
      }
    }
    if (out) out[i] = at < 0 ? convert<T>(0.0f) : x[at];
    if (idx) idx[i] = at;
  }
}

// Input (h, w) can be tap (a, b) of output (oh, ow) only where h + ph - a * dh = oh * sh (and alike for w): each
// such output whose argmax is (h, w) sends it its gradient.
template <typename T> __global__ void max_pool_backward(PoolGeo g, const T* grad_out, const int64_t* idx, T* grad_in) {
  const int64_t n = g.planes * g.H * g.W;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t w = i % g.W, h = i / g.W % g.H, p = i / (g.W * g.H), at = h * g.W + w;
    const int64_t* ix = idx + p * g.OH * g.OW;
    const T* go = grad_out + p * g.OH * g.OW;
    double acc = 0;
    for (int64_t a = g.kh - 1; a >= 0; --a) {  // taps from the last: outputs in increasing order
      const int64_t th = h + g.ph - a * g.dh;
      if (th < 0 || th % g.sh != 0 || th / g.sh >= g.OH) continue;
      for (int64_t b = g.kw - 1; b >= 0; --b) {
        const int64_t tw = w + g.pw - b * g.dw;
        if (tw < 0 || tw % g.sw != 0 || tw / g.sw >= g.OW) continue;
        const int64_t o = th / g.sh * g.OW + tw / g.sw;
        if (ix[o] == at) acc += double(widen(go[o]));
      }
    }
    grad_in[i] = convert<T>(acc);
  }
}

template <typename T> __global__ void avg_pool(PoolGeo g, bool include_pad, int64_t divisor, const T* in, T* out) {
  const int64_t n = g.planes * g.OH * g.OW;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t ow = i % g.OW, oh = i / g.OW % g.OH, p = i / (g.OW * g.OH);
    const Span sh = avg_span(oh, g.H, g.kh, g.sh, g.ph), sw = avg_span(ow, g.W, g.kw, g.sw, g.pw);
    const T* x = in + p * g.H * g.W;
    double s = 0;
    for (int64_t h = sh.lo; h < sh.hi; ++h)
      for (int64_t w = sw.lo; w < sw.hi; ++w) s += double(widen(x[h * g.W + w]));
    const bool empty = sh.lo >= sh.hi || sw.lo >= sw.hi;
    out[i] = convert<T>(empty ? 0.0 : s / avg_divisor(sh, sw, include_pad, divisor));
  }
}

// The outputs whose average-pooling window holds input [x] along one dim: [first, last].
__device__ __forceinline__ void avg_outputs(int64_t x, int64_t k, int64_t s, int64_t p, int64_t out, int64_t& first,
                                            int64_t& last) {
  const int64_t t = x + p - k;  // window o holds x when o * s - p <= x < o * s - p + k
  first = t < 0 ? 0 : t / s + 1;
  last = min((x + p) / s, out - 1);
}

template <typename T>
__global__ void avg_pool_backward(PoolGeo g, bool include_pad, int64_t divisor, const T* grad_out, T* grad_in) {
  const int64_t n = g.planes * g.H * g.W;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t w = i % g.W, h = i / g.W % g.H, p = i / (g.W * g.H);
    const T* go = grad_out + p * g.OH * g.OW;
    int64_t h0, h1, w0, w1;
    avg_outputs(h, g.kh, g.sh, g.ph, g.OH, h0, h1);
    avg_outputs(w, g.kw, g.sw, g.pw, g.OW, w0, w1);
    double acc = 0;
    for (int64_t oh = h0; oh <= h1; ++oh) {
      const Span sh = avg_span(oh, g.H, g.kh, g.sh, g.ph);
      for (int64_t ow = w0; ow <= w1; ++ow) {
        const Span sw = avg_span(ow, g.W, g.kw, g.sw, g.pw);
        acc += double(widen(go[oh * g.OW + ow])) / avg_divisor(sh, sw, include_pad, divisor);
      }
    }
    grad_in[i] = convert<T>(acc);
  }
}

template <typename T> __global__ void adaptive_avg_pool(PoolGeo g, const T* in, T* out) {
  const int64_t n = g.planes * g.OH * g.OW;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t ow = i % g.OW, oh = i / g.OW % g.OH, p = i / (g.OW * g.OH);
    const Span sh = adaptive_span(oh, g.H, g.OH), sw = adaptive_span(ow, g.W, g.OW);
    const T* x = in + p * g.H * g.W;
    double s = 0;
    for (int64_t h = sh.lo; h < sh.hi; ++h)
      for (int64_t w = sw.lo; w < sw.hi; ++w) s += double(widen(x[h * g.W + w]));
    out[i] = convert<T>(s / double(sh.padded * sw.padded));
  }
}

// The outputs of an adaptive pooling to [out] whose windows may hold input [x] of [in]: a range one wider on each
// side than the exact one (the callers test each window).
__device__ __forceinline__ void adaptive_outputs(int64_t x, int64_t in, int64_t out, int64_t& first, int64_t& end) {
  first = max(x * out / in - 1, int64_t(0));
  end = min(((x + 1) * out + in - 1) / in + 1, out);
}

template <typename T> __global__ void adaptive_avg_pool_backward(PoolGeo g, const T* grad_out, T* grad_in) {
  const int64_t n = g.planes * g.H * g.W;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t w = i % g.W, h = i / g.W % g.H, p = i / (g.W * g.H);
    const T* go = grad_out + p * g.OH * g.OW;
    int64_t h0, h1, w0, w1;
    adaptive_outputs(h, g.H, g.OH, h0, h1);
    adaptive_outputs(w, g.W, g.OW, w0, w1);
    double acc = 0;
    for (int64_t oh = h0; oh < h1; ++oh) {
      const Span sh = adaptive_span(oh, g.H, g.OH);
      if (h < sh.lo || h >= sh.hi) continue;
      for (int64_t ow = w0; ow < w1; ++ow) {
        const Span sw = adaptive_span(ow, g.W, g.OW);
        if (w >= sw.lo && w < sw.hi) acc += double(widen(go[oh * g.OW + ow])) / double(sh.padded * sw.padded);
      }
    }
    grad_in[i] = convert<T>(acc);
  }
}

int64_t outputs(const PoolGeo& g) { return g.planes * g.OH * g.OW; }
int64_t inputs(const PoolGeo& g) { return g.planes * g.H * g.W; }

}  // namespace

cudaError_t launch_max_pool(cudaStream_t s, Elem t, const PoolGeo& g, const void* in, void* out, int64_t* idx) {
  if (outputs(g) == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    max_pool<T><<<grid_for(outputs(g)), kThreads, 0, s>>>(g, static_cast<const T*>(in), static_cast<T*>(out), idx);
    return cudaGetLastError();
  });
}

cudaError_t launch_max_pool_backward(cudaStream_t s, Elem t, const PoolGeo& g, const void* grad_out,
                                     const int64_t* idx, void* grad_in) {
  if (inputs(g) == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    max_pool_backward<T><<<grid_for(inputs(g)), kThreads, 0, s>>>(g, static_cast<const T*>(grad_out), idx,
                                                                   static_cast<T*>(grad_in));
    return cudaGetLastError();
  });
}

cudaError_t launch_avg_pool(cudaStream_t s, Elem t, const PoolGeo& g, bool include_pad, int64_t divisor,
                            const void* in, void* out) {
  if (outputs(g) == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    avg_pool<T><<<grid_for(outputs(g)), kThreads, 0, s>>>(g, include_pad, divisor, static_cast<const T*>(in),
                                                          static_cast<T*>(out));
    return cudaGetLastError();
  });
}

cudaError_t launch_avg_pool_backward(cudaStream_t s, Elem t, const PoolGeo& g, bool include_pad, int64_t divisor,
                                     const void* grad_out, void* grad_in) {
  if (inputs(g) == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    avg_pool_backward<T><<<grid_for(inputs(g)), kThreads, 0, s>>>(g, include_pad, divisor,
                                                                   static_cast<const T*>(grad_out),
                                                                   static_cast<T*>(grad_in));
    return cudaGetLastError();
  });
}

cudaError_t launch_adaptive_avg_pool(cudaStream_t s, Elem t, const PoolGeo& g, const void* in, void* out) {
  if (outputs(g) == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    adaptive_avg_pool<T><<<grid_for(outputs(g)), kThreads, 0, s>>>(g, static_cast<const T*>(in), static_cast<T*>(out));
    return cudaGetLastError();
  });
}

cudaError_t launch_adaptive_avg_pool_backward(cudaStream_t s, Elem t, const PoolGeo& g, const void* grad_out,
                                              void* grad_in) {
  if (inputs(g) == 0) return cudaSuccess;
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    adaptive_avg_pool_backward<T><<<grid_for(inputs(g)), kThreads, 0, s>>>(g, static_cast<const T*>(grad_out),
                                                                            static_cast<T*>(grad_in));
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
