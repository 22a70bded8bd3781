// Device-independent argument handling of the indexing ops (see index_layout.hpp).
#include "runtime/backend/common/index_layout.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {

IndexLayout index_layout(const Tensor& x, int64_t dim) {
  IndexLayout l{dim, 1, 1, 1};
  if (x.dim() == 0) return l;
  const Dims& s = x.sizes();
  for (int64_t d = 0; d < dim; ++d) l.outer *= s[size_t(d)];
  for (int64_t d = dim + 1; d < x.dim(); ++d) l.inner *= s[size_t(d)];
  l.size = s[size_t(dim)];
  return l;
}

IndexSelectLayout index_select_layout(const Tensor& x, int64_t dim_arg, const Tensor& index) {
  AMPS_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  AMPS_CHECK(index.dtype() == DType::int64 || index.dtype() == DType::int32, "index_select(): Expected dtype "
             "int32/int64 for index but got: {}", dtype_name(index.dtype()));
  IndexSelectLayout r{index_layout(x, x.dim() == 0 ? 0 : wrap_dim(dim_arg, x.dim())), index.numel(), x.sizes()};
  if (x.dim() > 0) r.out_shape[size_t(r.l.dim)] = r.n;
  return r;
}

void check_embedding(const Tensor& input, const Tensor& weight) {
  AMPS_CHECK(weight.dim() == 2, "'weight' must be 2-D, got {}-D", weight.dim());
  AMPS_CHECK(!is_floating(input.dtype()), "Expected tensor for argument #1 'indices' to have one of the following "
             "scalar types: Long, Int; but got {} instead", dtype_name(input.dtype()));
}

Dims embedding_shape(const Tensor& input, const Tensor& weight) {
  Dims shape = input.sizes();
  shape.push_back(weight.size(1));
  return shape;
}

IndexAddLayout index_add_layout(const Tensor& input, int64_t dim_arg, const Tensor& index, const Tensor& source) {
  AMPS_CHECK(index.dtype() == DType::int64 || index.dtype() == DType::int32, "index must be an integer tensor, got {}",
             dtype_name(index.dtype()));
  IndexAddLayout r{index_layout(input, wrap_dim(dim_arg, std::max<int64_t>(input.dim(), 1))), index.numel()};
  const int64_t want = r.l.outer * r.n * r.l.inner;
  AMPS_CHECK(source.numel() == want, "index_add: source has {} elements, expected {}", source.numel(), want);
  return r;
}

namespace {

// The first dim but [dim] in which [index] is larger than [t] (it reads or writes t there), or -1.
int64_t overhang(const Tensor& index, const Tensor& t, int64_t dim) {
  for (int64_t d = 0; d < index.dim(); ++d)
    if (d != dim && index.size(d) > t.size(d)) return d;
  return -1;
}

int64_t check_index_tensor(std::string_view op, const Tensor& x, int64_t dim_arg, const Tensor& index) {
  AMPS_CHECK(index.dtype() == DType::int64 || index.dtype() == DType::int32, "{}(): Expected dtype int32/int64 for "
             "index but got: {}", op, dtype_name(index.dtype()));
  AMPS_CHECK(index.dim() == x.dim(), "Index tensor must have the same number of dimensions as input tensor");
  return wrap_dim(dim_arg, std::max<int64_t>(x.dim(), 1));
}

}  // namespace

int64_t check_gather(const Tensor& x, int64_t dim_arg, const Tensor& index) {
  const int64_t dim = check_index_tensor("gather", x, dim_arg, index);
  const int64_t bad = overhang(index, x, dim);
  AMPS_CHECK(bad < 0, "Size does not match at dimension {} expected index {} to be smaller than self {} apart from "
             "dimension {}", bad, format_shape(index.sizes()), format_shape(x.sizes()), dim);
  return dim;
}

int64_t check_index_copy(const Tensor& target, int64_t dim_arg, const Tensor& index, const Tensor& source) {
  AMPS_CHECK(index.dtype() == DType::int64 || index.dtype() == DType::int32, "index_copy(): Expected dtype int32/int64 "
             "for index but got: {}", dtype_name(index.dtype()));
  AMPS_CHECK(index.dim() <= 1, "index_copy_(): Index should have dimension 1 or 0 (got {})", index.dim());
  const int64_t dim = wrap_dim(dim_arg, std::max<int64_t>(target.dim(), 1));
  bool same_slices = source.dim() == target.dim() && (target.dim() == 0 || source.size(dim) == index.numel());
  for (int64_t d = 0; same_slices && d < target.dim(); ++d) same_slices = d == dim || source.size(d) == target.size(d);
  AMPS_CHECK(same_slices, "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
             "shape: {} at dimension {} and source slice shape: {} at dimension 0.", format_shape(target.sizes()), dim,
             format_shape(source.sizes()));
  return dim;
}

int64_t check_scatter_add(const Tensor& input, int64_t dim_arg, const Tensor& index, const Tensor& src,
                          std::string_view op) {
  const int64_t dim = check_index_tensor(op, input, dim_arg, index);
  AMPS_CHECK(src.dim() == input.dim(), "Index tensor must have the same number of dimensions as src tensor");
  AMPS_CHECK(overhang(index, input, dim) < 0 && overhang(index, src, -1) < 0, "Expected index {} to be smaller "
             "than self {} apart from dimension {} and to be smaller size than src {}", format_shape(index.sizes()),
             format_shape(input.sizes()), dim, format_shape(src.sizes()));
  return dim;
}

ScatterArgs scatter_args(std::string_view op, const Tensor& input, int64_t dim_arg, const Tensor& index,
                         const Tensor& src) {
  const bool value = src.dim() == 0;
  AMPS_CHECK(value || src.dtype() == input.dtype(), "{}(): Expected self.dtype to be equal to src.dtype", op);
  const int64_t dim = check_scatter_add(input, dim_arg, index, value ? native::expand(src, index.sizes()) : src, op);
  return {dim, value};
}

}  // namespace amps::rt::common
