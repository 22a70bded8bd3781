// CUDA kernels for sort, argsort and topk: the common layout (runtime/backend/common/sort_layout.hpp) with rows
// ordered on the device by CUB's stable segmented sort (sort.cu); the same order as the CPU backend.
#include "runtime/backend/common/sort_layout.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"

namespace amps::rt::cuda {
namespace {

void sort_rows(const common::SortLayout& l, bool largest, const Tensor& values, const Tensor& indices) {
  const Device dev = values.device();
  const size_t bytes = sort_rows_workspace(l.outer, l.n);
  Tensor workspace = Tensor::empty({int64_t((bytes + 7) / 8)}, DType::int64, dev);
  check(launch_sort_rows(stream(dev), elem(l.rows.dtype()), device_data(l.rows), device_data(values),
                         static_cast<int64_t*>(device_data(indices)), l.outer, l.n, l.k, largest,
                         device_data(workspace)),
        "sort");
}

}  // namespace

void register_sort_kernels(KernelTable& t) { common::register_sort_kernels<sort_rows>(t); }

}  // namespace amps::rt::cuda
