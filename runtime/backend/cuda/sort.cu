// Row sorts for sort, argsort and topk: every element becomes an order-preserving uint64 key (NaN the largest,
// -0.0 equal to 0.0; inverted for a descending order), CUB's stable segmented sort orders the (key, column)
// pairs of every row, and the first k of each row are gathered into values and indices. Stable, so ties keep
// their input order, as on the CPU backend.
#include <cub/device/device_segmented_sort.cuh>

#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

constexpr uint64_t kSignBit = uint64_t(1) << 63;

template <typename T> __device__ __forceinline__ uint64_t order_key(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return uint64_t(v);
  } else if constexpr (std::is_floating_point_v<compute_t<T>>) {
    double d = double(widen(v));
    if (d != d) return ~uint64_t(0);
    if (d == 0.0) d = 0.0;  // -0.0 ties with 0.0
    const uint64_t b = uint64_t(__double_as_longlong(d));
    return (b & kSignBit) ? ~b : (b | kSignBit);
  } else {
    return uint64_t(int64_t(v)) ^ kSignBit;
  }
}

template <typename T>
__global__ void make_keys_kernel(const T* in, uint64_t* keys, int64_t* cols, int64_t total, int64_t n, bool descending) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    const uint64_t k = order_key(in[i]);
    keys[i] = descending ? ~k : k;
    cols[i] = i % n;
  }
}

__global__ void row_offsets_kernel(int64_t* offsets, int64_t rows, int64_t n) {
  for (int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; r <= rows; r += int64_t(gridDim.x) * blockDim.x)
    offsets[r] = r * n;
}

template <typename T>
__global__ void take_first_kernel(const T* in, const int64_t* cols, T* values, int64_t* indices, int64_t rows,
                                  int64_t n, int64_t k) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows * k; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t r = i / k, c = cols[r * n + i % k];
    values[i] = in[r * n + c];
    indices[i] = c;
  }
}

size_t align_up(size_t b) { return (b + 255) / 256 * 256; }

// The bytes CUB's stable segmented sort needs for [rows] rows of [n].
size_t cub_bytes(int64_t rows, int64_t n) {
  size_t bytes = 0;
  const int64_t* no_offsets = nullptr;
  cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, static_cast<const uint64_t*>(nullptr),
                                            static_cast<uint64_t*>(nullptr), static_cast<const int64_t*>(nullptr),
                                            static_cast<int64_t*>(nullptr), rows * n, rows, no_offsets, no_offsets);
  return bytes;
}

}  // namespace

size_t sort_rows_workspace(int64_t rows, int64_t n) {
  const size_t total = size_t(rows * n);
  return 4 * align_up(total * 8) + align_up(size_t(rows + 1) * 8) + align_up(cub_bytes(rows, n));
}

cudaError_t launch_sort_rows(cudaStream_t s, Elem t, const void* in, void* values, int64_t* indices, int64_t rows,
                             int64_t n, int64_t k, bool descending, void* workspace) {
  if (rows == 0 || k == 0) return cudaSuccess;
  const int64_t total = rows * n;
  char* w = static_cast<char*>(workspace);
  auto take = [&](size_t bytes) { char* p = w; w += align_up(bytes); return p; };
  auto* keys_in = reinterpret_cast<uint64_t*>(take(total * 8));
  auto* keys_out = reinterpret_cast<uint64_t*>(take(total * 8));
  auto* cols_in = reinterpret_cast<int64_t*>(take(total * 8));
  auto* cols_out = reinterpret_cast<int64_t*>(take(total * 8));
  auto* offsets = reinterpret_cast<int64_t*>(take(size_t(rows + 1) * 8));
  size_t temp_bytes = cub_bytes(rows, n);
  void* temp = take(temp_bytes);
  return with_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    make_keys_kernel<T><<<grid_for(total), kThreads, 0, s>>>(static_cast<const T*>(in), keys_in, cols_in, total, n,
                                                             descending);
    row_offsets_kernel<<<grid_for(rows + 1), kThreads, 0, s>>>(offsets, rows, n);
    cudaError_t e = cub::DeviceSegmentedSort::StableSortPairs(temp, temp_bytes, keys_in, keys_out, cols_in, cols_out,
                                                              total, rows, offsets, offsets + 1, s);
    if (e != cudaSuccess) return e;
    take_first_kernel<T><<<grid_for(rows * k), kThreads, 0, s>>>(static_cast<const T*>(in), cols_out,
                                                                 static_cast<T*>(values), indices, rows, n, k);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
