// Device-independent argument handling of reductions (see reduce_layout.hpp).
#include "runtime/backend/common/reduce_layout.hpp"

#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {

std::vector<bool> reduced_mask(const Tensor& x, const std::optional<Dims>& dims) {
  const int64_t nd = x.dim();
  std::vector<bool> mask(size_t(nd), !dims || dims->empty());
  if (dims)
    for (int64_t d : *dims) {
      size_t w = size_t(wrap_dim(d, nd));
      AMPS_CHECK(nd == 0 || !mask[w] || dims->empty(), "dim {} appears multiple times in the list of dims", w);
      if (nd > 0) mask[w] = true;
    }
  return mask;
}

ReducedLayout reduced_layout(const Tensor& x, const std::optional<Dims>& dims, bool keepdim) {
  std::vector<bool> mask = reduced_mask(x, dims);
  ReducedLayout r;
  Dims tail;
  for (size_t d = 0; d < mask.size(); ++d) {
    (mask[d] ? tail : r.perm).push_back(int64_t(d));
    if (mask[d]) r.inner *= x.sizes()[d];
    else r.outer *= x.sizes()[d];
    if (!mask[d]) r.out_shape.push_back(x.sizes()[d]);
    else if (keepdim) r.out_shape.push_back(1);
  }
  r.nkept = r.perm.size();
  r.perm.insert(r.perm.end(), tail.begin(), tail.end());
  return r;
}

DType sum_dtype(const Tensor& x, std::optional<DType> requested) {
  if (requested) return *requested;
  return is_floating(x.dtype()) ? x.dtype() : DType::int64;
}

DType mean_dtype(const Tensor& x, std::optional<DType> requested) {
  DType dt = requested.value_or(x.dtype());
  AMPS_CHECK(is_floating(dt), "mean(): could not infer output dtype. Input dtype must be either a floating point "
             "or complex dtype. Got: {}", dtype_name(dt));
  return dt;
}

}  // namespace amps::rt::common
