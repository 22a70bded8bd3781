// Device-independent kernels for views and shape ops, written once and registered by every backend: the
// views are pure metadata (runtime/views.hpp); reshape, flatten, cat and stack take the backend's copies.
#pragma once

#include <vector>

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// The device-specific pieces: a view-or-copy reshape, and a converting, broadcasting copy into a strided view.
using ReshapeFn = Tensor (*)(const Tensor& t, const Dims& shape);
using CopyIntoFn = void (*)(const Tensor& dst, const Tensor& src);

// The kernels that never copy: view, transpose, t, permute, slice, select, expand, (un)squeeze, narrow,
// detach, split, chunk; and view(dtype) (view_dtype_kernel.cpp).
void register_view_kernels(cpu::KernelTable& t);
void register_view_dtype_kernel(cpu::KernelTable& t);

// flatten(self, start_dim, end_dim) through [reshape].
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim, ReshapeFn reshape);
// cat(ts, dim) with PyTorch's checks and promotion; each piece is one [copy_into] a narrow of the output.
Tensor cat(const std::vector<Tensor>& ts, int64_t dim, CopyIntoFn copy_into);
// stack(ts, dim): cat of the tensors unsqueezed at [dim].
Tensor stack(std::vector<Tensor> ts, int64_t dim, CopyIntoFn copy_into);

// tril/triu's view of [self]: [mats] matrices of [rows] x [cols] (the last two dims; at least 2-D, checked).
struct TriangleLayout {
  int64_t mats = 0, rows = 0, cols = 0;
};
TriangleLayout triangle_layout(const Tensor& self, bool lower);
// Whether tril (lower) or triu keeps element (i, j) of a matrix for diagonal [k].
inline bool triangle_keeps(int64_t i, int64_t j, int64_t k, bool lower) { return lower ? j - i <= k : j - i >= k; }

// Every kernel above for a backend whose reshape and copies are [Reshape] and [CopyInto].
template <ReshapeFn Reshape, CopyIntoFn CopyInto>
void register_shape_kernels(cpu::KernelTable& t) {
  register_view_kernels(t);
  t.add(OpId::reshape, [](const ArgReader& a, const KernelContext&) -> Tensors {
    return {Reshape(a.tensor(0), a.ints(1))};
  });
  t.add(OpId::flatten, [](const ArgReader& a, const KernelContext&) -> Tensors {
    return {flatten(a.tensor(0), a.i64(1), a.i64(2), Reshape)};
  });
  t.add(OpId::cat, [](const ArgReader& a, const KernelContext&) -> Tensors {
    return {cat(a.tensors(0), a.i64(1), CopyInto)};
  });
  t.add(OpId::stack, [](const ArgReader& a, const KernelContext&) -> Tensors {
    return {stack(a.tensors(0), a.i64(1), CopyInto)};
  });
}

}  // namespace amps::rt::common
