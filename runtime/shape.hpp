// Shape arithmetic: dim wrapping, contiguous strides, broadcasting, view stride computation, printing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/tensor.hpp"

namespace amps::rt {

// Maps a possibly negative [dim] into [0, ndim); IndexError "Dimension out of range ..." otherwise.
// A 0-dim tensor accepts dims -1 and 0 (as PyTorch does).
int64_t wrap_dim(int64_t dim, int64_t ndim);
// Row-major strides for [sizes].
Dims contiguous_strides(const Dims& sizes);
int64_t numel_of(const Dims& sizes);
// True when [sizes]/[strides] describe a row-major dense layout (size-1 dims may have any stride).
bool is_contiguous_layout(const Dims& sizes, const Dims& strides);
// Python tuple text: "(2, 3)", "(4,)", "()".
std::string format_shape(const Dims& sizes);
// Broadcast result of two shapes; RuntimeError "[op]: shapes (2, 3) and (4,) are not broadcastable".
Dims broadcast_shapes(const Dims& a, const Dims& b, std::string_view op);
// Resolves one -1 in [shape] against [numel]; RuntimeError "shape '[2, -1]' is invalid for input of size 7".
Dims infer_size(const Dims& shape, int64_t numel);
// Strides that let a tensor of [sizes]/[strides] be viewed as [new_sizes] without copying, if any.
std::optional<Dims> view_strides(const Dims& sizes, const Dims& strides, const Dims& new_sizes);
// Expands a list argument given as one value or [n] values ("stride=2" for conv2d means (2, 2)).
Dims expand_param(const Dims& v, size_t n, std::string_view op, std::string_view name);

}  // namespace amps::rt
