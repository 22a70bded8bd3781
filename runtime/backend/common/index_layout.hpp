// Device-independent argument handling of the indexing ops index_select, embedding, index_add, gather, scatter and
// scatter_add: their checks
// and the [outer, size, inner] layout every backend indexes along (the values of the indices are the backend's).
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// [x] seen as [outer, size, inner] around the indexed dim [dim]; a 0-d tensor is one element (size 1).
struct IndexLayout {
  int64_t dim = 0, outer = 1, size = 1, inner = 1;
};
IndexLayout index_layout(const Tensor& x, int64_t dim);

// index_select(x, dim, index): the index is a vector (or scalar) of int32/int64; [out_shape] has x's shape with
// the indexed dim resized to the index's length (a 0-d x keeps its shape, as on the CPU).
struct IndexSelectLayout {
  IndexLayout l;
  int64_t n = 0;
  Dims out_shape;
};
IndexSelectLayout index_select_layout(const Tensor& x, int64_t dim_arg, const Tensor& index);

// embedding(input, weight): a 2-D weight and integer indices.
void check_embedding(const Tensor& input, const Tensor& weight);
// embedding's result shape: input's shape with weight's row width appended.
Dims embedding_shape(const Tensor& input, const Tensor& weight);

// index_add(input, dim, index, source): an integer index of n entries and a source of outer * n * inner elements.
struct IndexAddLayout {
  IndexLayout l;
  int64_t n = 0;
};
IndexAddLayout index_add_layout(const Tensor& input, int64_t dim_arg, const Tensor& index, const Tensor& source);

// gather(x, dim, index): an int32/int64 index with x's number of dims and no larger than x in any dim but [dim]
// (PyTorch's check; the values are the backend's). Returns the wrapped dim.
int64_t check_gather(const Tensor& x, int64_t dim_arg, const Tensor& index);
// index_copy(target, dim, index, source): an int32/int64 index of at most one dim, and a source whose slices have
// the target's shape with the index's length along [dim]. Returns the wrapped dim.
int64_t check_index_copy(const Tensor& target, int64_t dim_arg, const Tensor& index, const Tensor& source);
// scatter_add(input, dim, index, src): the same index rules against input, and index no larger than src in any dim.
int64_t check_scatter_add(const Tensor& input, int64_t dim_arg, const Tensor& index, const Tensor& src,
                          std::string_view op = "scatter_add");
// scatter/scatter_add's checks (PyTorch's): a 0-dim src is a value written or added at every index position (a
// number, or PyTorch's scatter value=; on any device: a number is a host scalar); any other src must have input's
// dtype and pass the index-shaped checks. [op] names the op in the messages.
struct ScatterArgs {
  int64_t dim = 0;     // wrapped
  bool value = false;  // src is a value: broadcast it to index's shape (and convert it to input's dtype)
};
ScatterArgs scatter_args(std::string_view op, const Tensor& input, int64_t dim_arg, const Tensor& index,
                         const Tensor& src);

}  // namespace amps::rt::common
