// The scatter family beyond scatter/scatter_add/index_copy, defined by their math (implicit composites, see
// implicit_composites.hpp): select_scatter, slice_scatter and diagonal_scatter (a view's region of a copy of input
// replaced by src), index_put(_) (input[indices] = values, or += with accumulate), masked_scatter(_), put(_),
// index_reduce(_) (scatter_reduce along one dim), scatter_reduce_ (scatter_reduce copied into input), as_strided and
// as_strided_scatter.
// scatter_reduce itself is a CPU kernel (runtime/backend/cpu/scatter_reduce_kernels.cpp) that devices run through
// the host fallback, with its gradient in runtime/autograd/scatter_extra_rules.cpp.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors select_scatter_math(Args& args);
Tensors slice_scatter_math(Args& args);
Tensors diagonal_scatter_math(Args& args);
Tensors index_put_math(Args& args);
Tensors index_put__math(Args& args);
Tensors masked_scatter_math(Args& args);
Tensors masked_scatter__math(Args& args);
Tensors put_math(Args& args);
Tensors put__math(Args& args);
Tensors scatter_reduce__math(Args& args);
Tensors index_reduce_math(Args& args);
Tensors index_reduce__math(Args& args);
// as_strided is a view (native::as_strided after PyTorch's checks); its gradient is a rule of its own.
Tensors as_strided_math(Args& args);
Tensors as_strided_scatter_math(Args& args);
// Whether [t]'s elements tile a block of exactly numel() storage elements (some permutation of a row-major layout):
// PyTorch's clone (memory_format=preserve) keeps such strides.
bool dense_layout(const Tensor& t);
// The storage positions (int64, on [dev]) of the elements of a [sizes]/[strides] geometry starting at [offset].
Tensor strided_positions(const Dims& sizes, const Dims& strides, int64_t offset, Device dev);

}  // namespace amps::rt::common
