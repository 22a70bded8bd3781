// Device-independent view and shape kernels (see shape_kernels.hpp): the same code serves every backend.
#include "runtime/backend/common/shape_kernels.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {
namespace {

Tensors k_view(const ArgReader& a, const KernelContext&) { return {native::view(a.tensor(0), a.ints(1))}; }
Tensors k_t(const ArgReader& a, const KernelContext&) { return {native::t(a.tensor(0))}; }
Tensors k_permute(const ArgReader& a, const KernelContext&) { return {native::permute(a.tensor(0), a.ints(1))}; }
Tensors k_expand(const ArgReader& a, const KernelContext&) { return {native::expand(a.tensor(0), a.ints(1))}; }
Tensors k_detach(const ArgReader& a, const KernelContext&) { return {native::alias(a.tensor(0))}; }

Tensors k_transpose(const ArgReader& a, const KernelContext&) {
  return {native::transpose(a.tensor(0), a.i64(1), a.i64(2))};
}

Tensors k_slice(const ArgReader& a, const KernelContext&) {
  return {native::slice(a.tensor(0), a.i64(1), a.opt_i64(2), a.opt_i64(3), a.i64(4))};
}

Tensors k_select(const ArgReader& a, const KernelContext&) {
  return {native::select(a.tensor(0), a.i64(1), a.i64(2))};
}

Tensors k_unsqueeze(const ArgReader& a, const KernelContext&) {
  return {native::unsqueeze(a.tensor(0), a.i64(1))};
}

Tensors k_squeeze(const ArgReader& a, const KernelContext&) {
  return {native::squeeze(a.tensor(0), a.opt_ints(1).value_or(Dims{}))};
}

Tensors k_narrow(const ArgReader& a, const KernelContext&) {
  return {native::narrow(a.tensor(0), a.i64(1), a.i64(2), a.i64(3))};
}

Tensors k_diagonal(const ArgReader& a, const KernelContext&) {
  return {native::diagonal(a.tensor(0), a.i64(1), a.i64(2), a.i64(3))};
}

// unfold(input, dimension, size, step): the windows as a strided view, dimension's extent the window count and its
// stride step times the old one, a new last dim of length size with dimension's old stride (PyTorch's errors).
Tensors k_unfold(const ArgReader& a, const KernelContext&) {
  const Tensor x = a.tensor(0);
  const int64_t d = wrap_dim(a.i64(1), x.dim()), size = a.i64(2), step = a.i64(3);
  const int64_t extent = x.dim() == 0 ? 1 : x.size(d), stride = x.dim() == 0 ? 1 : x.stride(d);
  AMPS_CHECK(size <= extent, "maximum size for tensor at dimension {} is {} but size is {}", d, extent, size);
  AMPS_CHECK(step > 0, "step is {} but must be > 0", step);
  AMPS_CHECK(size >= 0, "size is {} but must be >= 0", size);
  Dims sizes = x.sizes(), strides = x.strides();
  if (x.dim() == 0) return {native::as_strided(x, {size}, {1}, x.storage_offset())};
  sizes[size_t(d)] = (extent - size) / step + 1;
  strides[size_t(d)] = stride * step;
  sizes.push_back(size);
  strides.push_back(stride);
  return {native::as_strided(x, sizes, strides, x.storage_offset())};
}

Tensors split_views(const Tensor& self, int64_t dim, int64_t split_size) {
  int64_t size = self.sizes()[size_t(dim)];
  Tensors out;
  for (int64_t s = 0; s < size || (size == 0 && out.empty()); s += std::max<int64_t>(split_size, 1)) {
    out.push_back(native::narrow(self, dim, s, std::min(split_size, size - s)));
    if (size == 0) break;
  }
  return out;
}

Tensors k_split(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  AMPS_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  int64_t split_size = a.i64(1);
  AMPS_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size={}", split_size);
  const int64_t dim = wrap_dim(a.i64(2), self.dim()), size = self.size(dim);
  AMPS_CHECK(split_size > 0 || size == 0, "split_size can only be 0 if dimension size is 0, but got dimension size "
             "of {}", size);
  return split_views(self, dim, split_size);
}

// split(input, [sizes], dim): consecutive views of the listed sizes, which must cover the dim exactly.
Tensors k_split_sizes(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  AMPS_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  const Dims sizes = a.ints(1);
  const int64_t dim = wrap_dim(a.i64(2), self.dim());
  int64_t total = 0;
  for (int64_t s : sizes) {
    AMPS_CHECK(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[{}]",
               fmt::join(sizes, ", "));
    total += s;
  }
  AMPS_CHECK(total == self.size(dim), "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's "
             "size at dimension {}), but got split_sizes=[{}]", self.size(dim), dim, fmt::join(sizes, ", "));
  Tensors out;
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.push_back(native::narrow(self, dim, start, s));
    start += s;
  }
  return out;
}

Tensors k_chunk(const ArgReader& a, const KernelContext&) {
  Tensor self = a.tensor(0);
  AMPS_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  int64_t chunks = a.i64(1);
  AMPS_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: {}", chunks);
  int64_t dim = wrap_dim(a.i64(2), self.dim());
  int64_t size = self.sizes()[size_t(dim)];
  return split_views(self, dim, (size + chunks - 1) / chunks);
}

// PyTorch skips legacy empty 1-D tensors (shape (0,)) in cat.
bool skipped_in_cat(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

void check_cat_shapes(const std::vector<Tensor>& ts, const Tensor& ref, int64_t dim) {
  for (size_t i = 0; i < ts.size(); ++i) {
    if (skipped_in_cat(ts[i])) continue;
    AMPS_CHECK(ts[i].dim() == ref.dim(), "Tensors must have same number of dimensions: got {} and {}", ref.dim(),
               ts[i].dim());
    AMPS_CHECK(ts[i].device() == ref.device(), "Expected all tensors to be on the same device, but found at least "
               "two devices, {} and {}!", device_str(ref.device()), device_str(ts[i].device()));
    for (int64_t d = 0; d < ref.dim(); ++d)
      AMPS_CHECK(d == dim || ts[i].sizes()[size_t(d)] == ref.sizes()[size_t(d)], "Sizes of tensors must match "
                 "except in dimension {}. Expected size {} but got size {} for tensor number {} in the list.", dim,
                 ref.sizes()[size_t(d)], ts[i].sizes()[size_t(d)], i);
  }
}

}  // namespace

void register_view_kernels(cpu::KernelTable& t) {
  t.add(OpId::view, k_view);
  t.add(OpId::transpose, k_transpose);
  t.add(OpId::t, k_t);
  t.add(OpId::permute, k_permute);
  t.add(OpId::slice, k_slice);
  t.add(OpId::select, k_select);
  t.add(OpId::expand, k_expand);
  t.add(OpId::unsqueeze, k_unsqueeze);
  t.add(OpId::squeeze, k_squeeze);
  t.add(OpId::narrow, k_narrow);
  t.add(OpId::diagonal, k_diagonal);
  t.add(OpId::unfold, k_unfold);
  t.add(OpId::detach, k_detach);
  t.add(OpId::split, k_split);
  t.add(OpId::split_sizes, k_split_sizes);
  t.add(OpId::chunk, k_chunk);
  register_view_dtype_kernel(t);
}

TriangleLayout triangle_layout(const Tensor& self, bool lower) {
  AMPS_CHECK(self.dim() >= 2, "{}: input tensor must have at least 2 dimensions", lower ? "tril" : "triu");
  const int64_t rows = self.size(-2), cols = self.size(-1);
  return {rows * cols != 0 ? self.numel() / (rows * cols) : 0, rows, cols};
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim, ReshapeFn reshape) {
  if (self.dim() == 0) return reshape(self, {1});
  int64_t s = wrap_dim(start_dim, self.dim()), e = wrap_dim(end_dim, self.dim());
  AMPS_CHECK(s <= e, "flatten() has invalid args: start_dim cannot come after end_dim");
  Dims shape(self.sizes().begin(), self.sizes().begin() + s);
  int64_t merged = 1;
  for (int64_t d = s; d <= e; ++d) merged *= self.sizes()[size_t(d)];
  shape.push_back(merged);
  shape.insert(shape.end(), self.sizes().begin() + e + 1, self.sizes().end());
  return reshape(self, shape);
}

Tensor cat(const std::vector<Tensor>& ts, int64_t dim_arg, CopyIntoFn copy_into) {
  AMPS_CHECK(!ts.empty(), "torch.cat(): expected a non-empty list of Tensors");
  const Tensor* ref = &ts[0];
  for (const Tensor& t : ts) if (!skipped_in_cat(t)) { ref = &t; break; }
  int64_t dim = wrap_dim(dim_arg, ref->dim());
  check_cat_shapes(ts, *ref, dim);
  DType dt = ts[0].dtype();
  int64_t total = 0;
  for (const Tensor& t : ts) {
    dt = promote(dt, t.dtype());
    if (!skipped_in_cat(t)) total += t.sizes()[size_t(dim)];
  }
  Dims shape = ref->sizes();
  if (ref->dim() > 0) shape[size_t(dim)] = total;
  Tensor out = Tensor::empty(shape, dt, ref->device());
  int64_t offset = 0;
  for (const Tensor& t : ts) {
    if (skipped_in_cat(t) && ref->dim() != 1) continue;
    int64_t n = t.sizes()[size_t(dim)];
    copy_into(native::narrow(out, dim, offset, n), t);
    offset += n;
  }
  return out;
}

Tensor stack(std::vector<Tensor> ts, int64_t dim_arg, CopyIntoFn copy_into) {
  AMPS_CHECK(!ts.empty(), "stack expects a non-empty TensorList");
  int64_t dim = wrap_dim(dim_arg, ts[0].dim() + 1);
  const Dims first = ts[0].sizes();
  for (size_t i = 0; i < ts.size(); ++i) {
    AMPS_CHECK(ts[i].sizes() == first, "stack expects each tensor to be equal size, but got {} at entry 0 "
               "and {} at entry {}", format_shape(first), format_shape(ts[i].sizes()), i);
    ts[i] = native::unsqueeze(ts[i], dim);
  }
  return cat(ts, dim, copy_into);
}

}  // namespace amps::rt::common
