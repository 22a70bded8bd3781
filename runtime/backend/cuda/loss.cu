// Class-loss kernels for nll_loss and cross_entropy (a thread per row over log-probabilities), the loss
// total (one block, double accumulation), one_hot, and nll_loss's gradient (a total-weight block, then a thread per
// row writing its one value into the zeroed gradient).
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename A> __global__ void class_loss_kernel(ClassLoss a, A* loss, A* row_weight) {
  const A* lp = static_cast<const A*>(a.lp);
  const A* w = static_cast<const A*>(a.weight);
  const A* probs = static_cast<const A*>(a.probs);
  const int64_t C = a.classes;
  const double eps = a.smoothing;
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < a.rows; r += int64_t(gridDim.x) * blockDim.x) {
    const A* row = lp + r * C;
    if (probs) {
      double l = 0;
      for (int64_t c = 0; c < C; ++c)
        l -= (w ? double(w[c]) : 1.0) * (double(probs[r * C + c]) * (1 - eps) + eps / double(C)) * double(row[c]);
      loss[r] = A(l);
      continue;
    }
    const int64_t k = a.target[r];
    if (k == a.ignore_index) {
      loss[r] = A(0);
      row_weight[r] = A(0);
      continue;
    }
    if (k < 0 || k >= C) {
      loss[r] = A(NAN);
      row_weight[r] = A(0);
      continue;
    }
    double smooth = 0;
    if (eps != 0)
      for (int64_t c = 0; c < C; ++c) smooth -= (w ? double(w[c]) : 1.0) * double(row[c]);
    const double wk = w ? double(w[k]) : 1.0;
    loss[r] = A((1 - eps) * -wk * double(row[k]) + eps / double(C) * smooth);
    row_weight[r] = A(wk);
  }
}

template <typename A> __global__ void loss_total_kernel(const A* loss, const A* row_weight, int64_t rows,
                                                        double denominator, A* out) {
  __shared__ double ls[kThreads], ws[kThreads];
  double l = 0, w = 0;
  for (int64_t r = threadIdx.x; r < rows; r += blockDim.x) {
    l += double(loss[r]);
    if (row_weight) w += double(row_weight[r]);
  }
  ls[threadIdx.x] = l;
  ws[threadIdx.x] = w;
  __syncthreads();
  for (int d = kThreads / 2; d > 0; d /= 2) {
    if (int(threadIdx.x) < d) {
      ls[threadIdx.x] += ls[threadIdx.x + d];
      ws[threadIdx.x] += ws[threadIdx.x + d];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = A(ls[0] / (row_weight ? ws[0] : denominator));
}

__global__ void one_hot_kernel(const int64_t* index, int64_t n, int64_t classes, int64_t* out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t k = index[i];
    if (k >= 0 && k < classes) out[i * classes + k] = 1;
  }
}

// The total weight of the rows nll_loss's 'mean' divides by (valid, in-range targets), in double.
template <typename A> __global__ void nll_total_kernel(NllGrad a, double* total) {
  __shared__ double part[kThreads];
  const A* w = static_cast<const A*>(a.weight);
  double sum = 0;
  for (int64_t r = threadIdx.x; r < a.batch * a.inner; r += blockDim.x) {
    const int64_t k = a.target[r];
    if (k != a.ignore_index && k >= 0 && k < a.classes) sum += w ? double(w[k]) : 1.0;
  }
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int d = kThreads / 2; d > 0; d /= 2) {
    if (int(threadIdx.x) < d) part[threadIdx.x] += part[threadIdx.x + d];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = part[0];
}

template <typename T> __global__ void nll_grad_kernel(NllGrad a, const double* total, T* out) {
  using A = compute_t<T>;
  const A* g = static_cast<const A*>(a.grad);
  const A* w = static_cast<const A*>(a.weight);
  const int64_t rows = a.batch * a.inner;
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r < rows; r += int64_t(gridDim.x) * blockDim.x) {
    const int64_t k = a.target[r];
    if (k == a.ignore_index || k < 0 || k >= a.classes) continue;
    double v = -(w ? double(w[k]) : 1.0) * double(g[a.per_row ? r : 0]);
    if (a.mean) v /= *total;
    out[((r / a.inner) * a.classes + k) * a.inner + r % a.inner] = convert<T>(v);
  }
}

// Calls f(Tag<A>{}) for the accumulation types f32 and f64.
template <typename F> cudaError_t with_acc(Elem acc, F&& f) {
  if (acc == Elem::f32) return f(Tag<float>{});
  if (acc == Elem::f64) return f(Tag<double>{});
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t launch_class_loss(cudaStream_t s, Elem acc, const ClassLoss& a, void* loss, void* row_weight) {
  if (a.rows == 0) return cudaSuccess;
  return with_acc(acc, [&](auto tag) {
    using A = typename decltype(tag)::type;
    class_loss_kernel<A><<<grid_for(a.rows), kThreads, 0, s>>>(a, static_cast<A*>(loss), static_cast<A*>(row_weight));
    return cudaGetLastError();
  });
}

cudaError_t launch_loss_total(cudaStream_t s, Elem acc, const void* loss, const void* row_weight, int64_t rows,
                              double denominator, void* out) {
  return with_acc(acc, [&](auto tag) {
    using A = typename decltype(tag)::type;
    loss_total_kernel<A><<<1, kThreads, 0, s>>>(static_cast<const A*>(loss), static_cast<const A*>(row_weight), rows,
                                                denominator, static_cast<A*>(out));
    return cudaGetLastError();
  });
}

cudaError_t launch_one_hot(cudaStream_t s, const int64_t* index, int64_t n, int64_t classes, int64_t* out) {
  if (n == 0) return cudaSuccess;
  one_hot_kernel<<<grid_for(n), kThreads, 0, s>>>(index, n, classes, out);
  return cudaGetLastError();
}

cudaError_t launch_nll_backward(cudaStream_t s, Elem out_t, const NllGrad& a, double* total, void* out) {
  return with_float_elem(out_t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t rows = a.batch * a.inner;
    cudaError_t e = cudaMemsetAsync(out, 0, size_t(rows * a.classes) * sizeof(T), s);  // 0 bits: +0.0 in every float type
    if (e != cudaSuccess || rows == 0 || a.classes == 0) return e;
    if (a.mean) nll_total_kernel<compute_t<T>><<<1, kThreads, 0, s>>>(a, total);
    nll_grad_kernel<T><<<grid_for(rows), kThreads, 0, s>>>(a, total, static_cast<T*>(out));
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
