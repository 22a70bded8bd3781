// Indexing kernels: index_select (a gather of [inner]-element slices, one thread per output element), gather and
// scatter (one thread per index element), and index_add / scatter_add (one thread per source element, atomically
// added into a float, double or int64 accumulator).
#include <cmath>

#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

// What an out-of-range index reads: NaN in float types, 0 otherwise.
template <typename T> __device__ __forceinline__ T missing() {
  if constexpr (std::is_floating_point_v<compute_t<T>>) return convert<T>(compute_t<T>(NAN));
  else return convert<T>(0.0f);
}

template <typename T> __global__ void index_select_kernel(const T* in, const int64_t* index, T* out, int64_t n,
                                                          int64_t size, int64_t inner, int64_t numel) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < numel; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = e % inner, k = (e / inner) % n, o = e / (inner * n);
    int64_t i = index[k];
    if (i < 0) i += size;
    out[e] = i >= 0 && i < size ? in[(o * size + i) * inner + j] : missing<T>();
  }
}

// acc += v atomically: float and double natively; int64 through the unsigned 64-bit add, which is exact in two's
// complement (wrapping as the CPU's integer adds wrap).
__device__ __forceinline__ void atomic_add(float* acc, float v) { atomicAdd(acc, v); }
__device__ __forceinline__ void atomic_add(double* acc, double v) { atomicAdd(acc, v); }
__device__ __forceinline__ void atomic_add(int64_t* acc, int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(acc), static_cast<unsigned long long>(v));
}

template <typename A> __global__ void index_add_kernel(A* acc, const int64_t* index, const A* src, int64_t n,
                                                       int64_t size, int64_t inner, int64_t numel) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < numel; e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = e % inner, k = (e / inner) % n, o = e / (inner * n);
    int64_t i = index[k];
    if (i < 0) i += size;  // from the end, as index_select counts it (its backward passes the same index)
    if (i >= 0 && i < size) atomic_add(acc + (o * size + i) * inner + j, src[e]);
  }
}

// The offset in a tensor of strides [st] of row-major element [e] of [shape], coordinate [dim] replaced by [at].
__device__ __forceinline__ int64_t offset_with(const Shape& shape, const DimStrides& st, int dim, int64_t e,
                                               int64_t at) {
  int64_t off = 0;
  for (int d = shape.ndim - 1; d >= 0; --d) {
    const int64_t c = e % shape.sizes[d];
    e /= shape.sizes[d];
    off += (d == dim ? at : c) * st.s[d];
  }
  return off;
}

template <typename T> __global__ void gather_kernel(Shape shape, int dim, const T* in, DimStrides st, int64_t size,
                                                    const int64_t* index, T* out) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < shape.numel; e += int64_t(gridDim.x) * blockDim.x) {
    int64_t i = index[e];
    if (i < 0) i += size;
    out[e] = i >= 0 && i < size ? in[offset_with(shape, st, dim, e, i)] : missing<T>();
  }
}

template <typename A> __global__ void scatter_add_kernel(Shape shape, int dim, A* acc, DimStrides st, int64_t size,
                                                         const int64_t* index, const A* src) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < shape.numel; e += int64_t(gridDim.x) * blockDim.x) {
    int64_t i = index[e];
    if (i < 0) i += size;  // from the end, as gather counts it
    if (i >= 0 && i < size) atomic_add(acc + offset_with(shape, st, dim, e, i), src[e]);
  }
}

template <typename T> __global__ void scatter_kernel(Shape shape, int dim, T* out, DimStrides st, int64_t size,
                                                     const int64_t* index, const T* src) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < shape.numel; e += int64_t(gridDim.x) * blockDim.x) {
    int64_t i = index[e];
    if (i < 0) i += size;
    if (i >= 0 && i < size) out[offset_with(shape, st, dim, e, i)] = src[e];
  }
}

// Calls f(Tag<A>{}) for the accumulator types float, double and int64.
template <typename F> cudaError_t with_acc(Elem acc, F&& f) {
  switch (acc) {
    case Elem::f64: return f(Tag<double>{});
    case Elem::f32: return f(Tag<float>{});
    case Elem::i64: return f(Tag<int64_t>{});
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace

cudaError_t launch_gather(cudaStream_t s, Elem t, const Shape& shape, int dim, const void* in,
                          const DimStrides& in_strides, int64_t size, const int64_t* index, void* out) {
  if (shape.numel == 0) return cudaSuccess;
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    gather_kernel<T><<<grid_for(shape.numel), kThreads, 0, s>>>(shape, dim, static_cast<const T*>(in), in_strides, size,
                                                               index, static_cast<T*>(out));
    return cudaGetLastError();
  });
}

cudaError_t launch_scatter_add(cudaStream_t s, Elem acc, const Shape& shape, int dim, void* acc_data,
                               const DimStrides& acc_strides, int64_t size, const int64_t* index, const void* src) {
  if (shape.numel == 0) return cudaSuccess;
  return with_acc(acc, [&](auto tag) {
    using A = typename decltype(tag)::type;
    scatter_add_kernel<A><<<grid_for(shape.numel), kThreads, 0, s>>>(shape, dim, static_cast<A*>(acc_data), acc_strides,
                                                                    size, index, static_cast<const A*>(src));
    return cudaGetLastError();
  });
}

cudaError_t launch_scatter(cudaStream_t s, Elem t, const Shape& shape, int dim, void* out,
                           const DimStrides& out_strides, int64_t size, const int64_t* index, const void* src) {
  if (shape.numel == 0) return cudaSuccess;
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    scatter_kernel<T><<<grid_for(shape.numel), kThreads, 0, s>>>(shape, dim, static_cast<T*>(out), out_strides, size,
                                                                index, static_cast<const T*>(src));
    return cudaGetLastError();
  });
}

cudaError_t launch_index_select(cudaStream_t s, Elem t, const void* in, const int64_t* index, int64_t n, void* out,
                                int64_t outer, int64_t size, int64_t inner) {
  const int64_t numel = outer * n * inner;
  if (numel == 0) return cudaSuccess;
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    index_select_kernel<T><<<grid_for(numel), kThreads, 0, s>>>(static_cast<const T*>(in), index, static_cast<T*>(out),
                                                               n, size, inner, numel);
    return cudaGetLastError();
  });
}

cudaError_t launch_index_add(cudaStream_t s, Elem acc, void* out, const int64_t* index, int64_t n, const void* src,
                             int64_t outer, int64_t size, int64_t inner) {
  const int64_t numel = outer * n * inner;
  if (numel == 0) return cudaSuccess;
  return with_acc(acc, [&](auto tag) {
    using A = typename decltype(tag)::type;
    index_add_kernel<A><<<grid_for(numel), kThreads, 0, s>>>(static_cast<A*>(out), index, static_cast<const A*>(src), n,
                                                            size, inner, numel);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
