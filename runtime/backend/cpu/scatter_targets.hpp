// Walks the targets of a scatter-style index on the host (scatter, scatter_add, scatter_reduce kernels).
#pragma once

#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt::common {

// Calls f(e, off) for every element e of the row-major int64 [idx]: off is the row-major offset, in a tensor of
// [sizes], of e's coordinates with coordinate [dim] replaced by idx[e] (negative counts from the end; IndexError
// outside [-size, size), PyTorch's message).
template <typename F> void for_each_target(const Tensor& idx, const Dims& sizes, int64_t dim, F&& f) {
  const Dims& is = idx.sizes();
  const Dims os = contiguous_strides(sizes);
  const int64_t size = sizes.empty() ? 1 : sizes[size_t(dim)];
  const int64_t* ix = idx.data<int64_t>();
  for (int64_t e = 0; e < idx.numel(); ++e) {
    int64_t at = ix[e];
    AMPS_CHECK_INDEX(at >= -size && at < size, "index {} is out of bounds for dimension {} with size {}", at, dim,
                     size);
    if (at < 0) at += size;
    int64_t rem = e, off = 0;
    for (int64_t k = int64_t(is.size()) - 1; k >= 0; --k) {
      const int64_t c = rem % is[size_t(k)];
      rem /= is[size_t(k)];
      off += (k == dim ? at : c) * os[size_t(k)];
    }
    f(e, off);
  }
}

}  // namespace amps::rt::common
