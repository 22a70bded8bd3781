// CUDA kernels for sum and mean: the input is permuted so the reduced dims are innermost, made row-major
// when it is not already (one device copy), and summed row by row (reduce.cu).
#include <limits>

#include "runtime/backend/common/reduce_layout.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
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
  common::ReducedLayout l = common::reduced_layout(x, dims, keepdim);
  return Rows{contiguous(native::permute(x, l.perm)), l.outer, l.inner, std::move(l.out_shape)};
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

}  // namespace

void register_reduce_kernels(KernelTable& t) {
  common::register_sum_kernels<sum_like>(t);
}

}  // namespace amps::rt::cuda
