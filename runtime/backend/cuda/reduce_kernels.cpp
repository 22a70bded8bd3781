// CUDA kernels for sum and mean: the input is permuted so the reduced dims are innermost, made row-major
// when it is not already (one device copy), and summed row by row (reduce.cu).
#include <limits>

#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

// [x] as a row-major [outer, inner] block with the reduced dims innermost, plus the result's shape.
struct Rows {
  Tensor block;
  int64_t outer = 1, inner = 1;
  Dims out_shape;
};

Rows make_rows(const Tensor& x, const std::optional<Dims>& dims, bool keepdim) {
  const int64_t nd = x.dim();
  std::vector<bool> mask(size_t(nd), !dims || dims->empty());
  if (dims)
    for (int64_t d : *dims) {
      size_t w = size_t(wrap_dim(d, nd));
      AMPS_CHECK(nd == 0 || !mask[w] || dims->empty(), "dim {} appears multiple times in the list of dims", w);
      if (nd > 0) mask[w] = true;
    }
  Rows r;
  Dims perm, tail;
  for (size_t d = 0; d < mask.size(); ++d) {
    (mask[d] ? tail : perm).push_back(int64_t(d));
    if (mask[d]) r.inner *= x.sizes()[d];
    else r.outer *= x.sizes()[d];
    if (!mask[d]) r.out_shape.push_back(x.sizes()[d]);
    else if (keepdim) r.out_shape.push_back(1);
  }
  perm.insert(perm.end(), tail.begin(), tail.end());
  r.block = contiguous(native::permute(x, perm));
  return r;
}

// sum/mean in [out_dt]: integers and bools sum in int64; a requested dtype converts the input first.
Tensor sum_like(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, DType out_dt, Device dev, bool mean) {
  Tensor xin = cast(x, out_dt == DType::int32 || out_dt == DType::bool_ ? DType::int64 : out_dt);
  Rows r = make_rows(xin, dims, keepdim);
  Tensor out = Tensor::empty(r.out_shape, xin.dtype(), dev);
  if (r.inner == 0) {
    fill(out, mean ? Scalar(std::numeric_limits<double>::quiet_NaN()) : Scalar(int64_t(0)));
  } else if (r.outer > 0) {
    const int splits = sum_row_splits(r.outer, r.inner);
    Tensor work = splits > 1 ? Tensor::empty({r.outer * splits}, DType::float64, dev) : Tensor();
    check(launch_sum_rows(stream(dev), elem(xin.dtype()), device_data(r.block), device_data(out), r.outer, r.inner,
                          mean ? 1.0 / double(r.inner) : 1.0, work.defined() ? device_data(work) : nullptr, splits),
          "sum");
  }
  return cast(out, out_dt);
}

DType sum_dtype(const Tensor& x, std::optional<DType> requested) {
  if (requested) return *requested;
  return is_floating(x.dtype()) ? x.dtype() : DType::int64;
}

Tensors k_sum(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  return {sum_like(x, a.opt_ints(1), a.boolean(2), sum_dtype(x, a.opt_dtype(3)), kc.device, false)};
}

Tensors k_mean(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  DType dt = a.opt_dtype(3).value_or(x.dtype());
  AMPS_CHECK(is_floating(dt), "mean(): could not infer output dtype. Input dtype must be either a floating point "
             "or complex dtype. Got: {}", dtype_name(dt));
  return {sum_like(x, a.opt_ints(1), a.boolean(2), dt, kc.device, true)};
}

}  // namespace

void register_reduce_kernels(KernelTable& t) {
  t.add(OpId::sum, k_sum);
  t.add(OpId::mean, k_mean);
}

}  // namespace amps::rt::cuda
