// Shape arithmetic helpers (PyTorch semantics and error texts).
#include "runtime/shape.hpp"

#include <algorithm>

#include "runtime/error.hpp"

namespace amps::rt {

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t n = ndim == 0 ? 1 : ndim;
  AMPS_CHECK_INDEX(dim >= -n && dim < n, "Dimension out of range (expected to be in range of [{}, {}], but got {})",
                   -n, n - 1, dim);
  return dim < 0 ? dim + n : dim;
}

Dims contiguous_strides(const Dims& sizes) {
  Dims s(sizes.size());
  int64_t acc = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    s[i] = acc;
    acc *= std::max<int64_t>(sizes[i], 1);
  }
  return s;
}

int64_t numel_of(const Dims& sizes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) overflow |= __builtin_mul_overflow(n, s, &n);
  if (overflow && std::find(sizes.begin(), sizes.end(), 0) == sizes.end())
    AMPS_FAIL("Storage size calculation overflowed with sizes={}", format_shape(sizes));
  return overflow ? 0 : n;
}

bool is_contiguous_layout(const Dims& sizes, const Dims& strides) {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

std::string format_shape(const Dims& sizes) {
  if (sizes.size() == 1) return fmt::format("({},)", sizes[0]);
  return fmt::format("({})", fmt::join(sizes, ", "));
}

Dims broadcast_shapes(const Dims& a, const Dims& b, std::string_view op) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    AMPS_CHECK(x == y || x == 1 || y == 1, "{}: shapes {} and {} are not broadcastable", op, format_shape(a),
               format_shape(b));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

Dims infer_size(const Dims& shape, int64_t numel) {
  Dims out = shape;
  int64_t known = 1, infer_at = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      AMPS_CHECK(infer_at < 0, "only one dimension can be inferred");
      infer_at = int64_t(i);
    } else {
      AMPS_CHECK(shape[i] >= 0, "invalid shape dimension {}", shape[i]);
      known *= shape[i];
    }
  }
  bool ok = infer_at < 0 ? known == numel : (known != 0 && numel % known == 0);
  AMPS_CHECK(ok, "shape '[{}]' is invalid for input of size {}", fmt::join(shape, ", "), numel);
  if (infer_at >= 0) out[size_t(infer_at)] = numel / known;
  return out;
}

// PyTorch's computeStride: walks chunks of old dims that are contiguous among themselves and matches them
// to runs of new dims with the same element count.
std::optional<Dims> view_strides(const Dims& sizes, const Dims& strides, const Dims& new_sizes) {
  if (sizes.empty()) return Dims(new_sizes.size(), 1);
  int64_t numel = numel_of(sizes);
  if (numel == 0) return sizes == new_sizes ? std::optional<Dims>(strides) : contiguous_strides(new_sizes);
  Dims out(new_sizes.size());
  int64_t view_d = int64_t(new_sizes.size()) - 1;
  int64_t chunk_base_stride = strides.back(), tensor_numel = 1, view_numel = 1;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    if (d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Dims expand_param(const Dims& v, size_t n, std::string_view op, std::string_view name) {
  if (v.size() == n) return v;
  AMPS_CHECK(v.size() == 1, "{}: expected {} to be a single integer value or a list of {} values, got {}", op,
             name, n, format_shape(v));
  return Dims(n, v[0]);
}

}  // namespace amps::rt
