// Native view functions: pure metadata (new TensorImpl over the same Storage), no dispatch, no autograd.
// The dispatched ops (rt::view, Tensor::transpose, ...) call these from the backend kernels.
#pragma once

#include <optional>

#include "runtime/tensor.hpp"

namespace amps::rt::native {

// A tensor over [t]'s storage with the given geometry; shares the version counter.
Tensor as_strided(const Tensor& t, const Dims& sizes, const Dims& strides, int64_t offset);
// A view of [t] as [size] (one -1 allowed); RuntimeError when the strides make that impossible.
Tensor view(const Tensor& t, const Dims& size);
// view() when possible; std::nullopt when a copy is needed (the caller makes it).
std::optional<Tensor> try_view(const Tensor& t, const Dims& size);
Tensor transpose(const Tensor& t, int64_t dim0, int64_t dim1);
// 2-D transpose; 0-D and 1-D tensors are returned as is (PyTorch's t()).
Tensor t(const Tensor& x);
Tensor permute(const Tensor& t, const Dims& dims);
Tensor slice(const Tensor& t, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);
Tensor select(const Tensor& t, int64_t dim, int64_t index);
// Broadcasts to [size] (-1 keeps a dim) with stride 0 on expanded dims.
Tensor expand(const Tensor& t, const Dims& size);
Tensor unsqueeze(const Tensor& t, int64_t dim);
// Removes all size-1 dims ([dims] empty) or the listed ones that have size 1.
Tensor squeeze(const Tensor& t, const Dims& dims);
Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Tensor diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2);
// A new handle on the same data, without autograd history.
Tensor alias(const Tensor& t);

}  // namespace amps::rt::native
