// Native view functions (metadata only) with PyTorch's argument checks and error texts.
#include "runtime/views.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/small_pool.hpp"

namespace amps::rt::native {

Tensor as_strided(const Tensor& t, const Dims& sizes, const Dims& strides, int64_t offset) {
  auto impl = std::allocate_shared<TensorImpl>(PoolAllocator<TensorImpl>{}, t.storage(), sizes, strides, offset,
                                               t.dtype());
  return Tensor(std::move(impl));
}

std::optional<Tensor> try_view(const Tensor& t, const Dims& size) {
  Dims shape = infer_size(size, t.numel());
  std::optional<Dims> strides = view_strides(t.sizes(), t.strides(), shape);
  if (!strides) return std::nullopt;
  return as_strided(t, shape, *strides, t.storage_offset());
}

Tensor view(const Tensor& t, const Dims& size) {
  std::optional<Tensor> v = try_view(t, size);
  AMPS_CHECK(v.has_value(), "view size is not compatible with input tensor's size and stride (at least one "
                            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return *v;
}

Tensor transpose(const Tensor& t, int64_t dim0, int64_t dim1) {
  int64_t n = t.dim();
  size_t a = size_t(wrap_dim(dim0, n)), b = size_t(wrap_dim(dim1, n));
  if (n == 0) return alias(t);
  Dims sizes = t.sizes(), strides = t.strides();
  std::swap(sizes[a], sizes[b]);
  std::swap(strides[a], strides[b]);
  return as_strided(t, sizes, strides, t.storage_offset());
}

Tensor t(const Tensor& x) {
  AMPS_CHECK(x.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is {}D", x.dim());
  return x.dim() < 2 ? alias(x) : transpose(x, 0, 1);
}

Tensor permute(const Tensor& t, const Dims& dims) {
  int64_t n = t.dim();
  AMPS_CHECK(int64_t(dims.size()) == n, "permute(sparse_coo): number of dimensions in the tensor input does not "
             "match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to "
             "len(dims) = {}", n, dims.size());
  Dims sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(size_t(n), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    size_t d = size_t(wrap_dim(dims[i], n));
    AMPS_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = t.sizes()[d];
    strides[i] = t.strides()[d];
  }
  return as_strided(t, sizes, strides, t.storage_offset());
}

// Clamps a Python-style slice bound into [0, size].
static int64_t clamp_bound(int64_t v, int64_t size) {
  if (v < 0) v += size;
  return std::clamp<int64_t>(v, 0, size);
}

Tensor slice(const Tensor& t, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  AMPS_CHECK(t.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  AMPS_CHECK_VALUE(step > 0, "step must be greater than zero");
  size_t d = size_t(wrap_dim(dim, t.dim()));
  int64_t size = t.sizes()[d];
  int64_t s = clamp_bound(start.value_or(0), size), e = clamp_bound(end.value_or(size), size);
  int64_t len = e > s ? (e - s + step - 1) / step : 0;
  Dims sizes = t.sizes(), strides = t.strides();
  sizes[d] = len;
  strides[d] *= step;
  return as_strided(t, sizes, strides, t.storage_offset() + s * t.strides()[d]);
}

Tensor select(const Tensor& t, int64_t dim, int64_t index) {
  AMPS_CHECK_INDEX(t.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  size_t d = size_t(wrap_dim(dim, t.dim()));
  int64_t size = t.sizes()[d];
  AMPS_CHECK_INDEX(index >= -size && index < size, "index {} is out of bounds for dimension {} with size {}",
                   index, d, size);
  if (index < 0) index += size;
  Dims sizes = t.sizes(), strides = t.strides();
  sizes.erase(sizes.begin() + int64_t(d));
  strides.erase(strides.begin() + int64_t(d));
  return as_strided(t, sizes, strides, t.storage_offset() + index * t.strides()[d]);
}

Tensor expand(const Tensor& t, const Dims& size) {
  AMPS_CHECK(size.size() >= t.sizes().size(), "expand: the number of sizes provided ({}) must be greater or "
             "equal to the number of dimensions in the tensor ({})", size.size(), t.dim());
  size_t lead = size.size() - t.sizes().size();
  Dims sizes(size.size()), strides(size.size());
  for (size_t i = 0; i < size.size(); ++i) {
    bool old = i >= lead;
    int64_t cur = old ? t.sizes()[i - lead] : 1;
    int64_t want = size[i] == -1 ? cur : size[i];
    AMPS_CHECK(old || size[i] != -1, "expand: -1 is not allowed in a leading, non-existing dimension");
    AMPS_CHECK(cur == want || cur == 1, "The expanded size of the tensor ({}) must match the existing size ({}) "
               "at non-singleton dimension {}.  Target sizes: [{}].  Tensor sizes: [{}]", want, cur, i,
               fmt::join(size, ", "), fmt::join(t.sizes(), ", "));
    sizes[i] = want;
    strides[i] = (old && cur == want) ? t.strides()[i - lead] : 0;
  }
  return as_strided(t, sizes, strides, t.storage_offset());
}

Tensor unsqueeze(const Tensor& t, int64_t dim) {
  size_t d = size_t(wrap_dim(dim, t.dim() + 1));
  Dims sizes = t.sizes(), strides = t.strides();
  int64_t st = d < sizes.size() ? sizes[d] * strides[d] : 1;
  sizes.insert(sizes.begin() + int64_t(d), 1);
  strides.insert(strides.begin() + int64_t(d), st);
  return as_strided(t, sizes, strides, t.storage_offset());
}

Tensor squeeze(const Tensor& t, const Dims& dims) {
  if (t.dim() == 0) {  // dims -1 and 0 name the 0-dim tensor's only position (checked); nothing to drop
    for (int64_t d : dims) wrap_dim(d, 0);
    return as_strided(t, {}, {}, t.storage_offset());
  }
  std::vector<bool> drop(t.sizes().size(), dims.empty());
  for (int64_t d : dims) drop[size_t(wrap_dim(d, t.dim()))] = true;
  Dims sizes, strides;
  for (size_t i = 0; i < t.sizes().size(); ++i) {
    if (drop[i] && t.sizes()[i] == 1) continue;
    sizes.push_back(t.sizes()[i]);
    strides.push_back(t.strides()[i]);
  }
  return as_strided(t, sizes, strides, t.storage_offset());
}

Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  AMPS_CHECK(t.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  size_t d = size_t(wrap_dim(dim, t.dim()));
  int64_t size = t.sizes()[d];
  AMPS_CHECK_INDEX(start >= -size && start <= size, "start out of range (expected to be in range of [{}, {}], "
                   "but got {})", -size, size, start);
  if (start < 0) start += size;
  AMPS_CHECK(length >= 0 && start + length <= size, "start ({}) + length ({}) exceeds dimension size ({}).", start,
             length, size);
  return slice(t, int64_t(d), start, start + length, 1);
}

// PyTorch's diagonal: dims dim1 and dim2 removed and their diagonal (offset > 0: above it, < 0: below) appended as
// the last dim, of length max(0, min(size1 + min(offset, 0), size2 - max(offset, 0))), stride stride1 + stride2.
Tensor diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
  const size_t d1 = size_t(wrap_dim(dim1, t.dim())), d2 = size_t(wrap_dim(dim2, t.dim()));
  AMPS_CHECK(d1 != d2, "diagonal dimensions cannot be identical {}, {}", dim1, dim2);
  const Dims& sz = t.sizes();
  const Dims& st = t.strides();
  const int64_t len = std::max<int64_t>(0, std::min(sz[d1] + std::min<int64_t>(offset, 0), sz[d2] - std::max<int64_t>(offset, 0)));
  const int64_t start = len == 0 ? 0 : (offset >= 0 ? offset * st[d2] : -offset * st[d1]);
  Dims sizes, strides;
  for (size_t d = 0; d < sz.size(); ++d)
    if (d != d1 && d != d2) sizes.push_back(sz[d]), strides.push_back(st[d]);
  sizes.push_back(len);
  strides.push_back(st[d1] + st[d2]);
  return as_strided(t, sizes, strides, t.storage_offset() + start);
}

Tensor alias(const Tensor& t) { return as_strided(t, t.sizes(), t.strides(), t.storage_offset()); }

}  // namespace amps::rt::native
