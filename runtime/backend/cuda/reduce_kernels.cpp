// CUDA kernels for sum and mean: a contiguous input whose reduced dims are the leading ones is summed by columns in
// place; otherwise it is permuted so the reduced dims are innermost, made row-major when it is not already (one device
// copy), and summed row by row (reduce.cu); prod, cumsum and cumprod the same way,
// one thread per row (scan.cu).
#include <limits>

#include "runtime/backend/common/reduce_layout.hpp"
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
  common::ReducedLayout l = common::reduced_layout(x, dims, keepdim);
  return Rows{contiguous(native::permute(x, l.perm)), l.outer, l.inner, std::move(l.out_shape)};
}

// Whether [x] is a row-major [R, K] block whose R rows are the reduced elements: x contiguous and, dims of size 1
// aside, every reduced dim before every kept one (a Linear's bias gradient: [B, T, C] summed over dims 0 and 1).
// Only when the row path would copy: R > 1 and K > 1.
bool leading_reduction(const Tensor& x, const std::optional<Dims>& dims) {
  if (!x.is_contiguous() || x.numel() == 0) return false;
  const std::vector<bool> mask = common::reduced_mask(x, dims);
  bool kept_seen = false;
  int64_t reduced = 1, kept = 1;
  for (size_t d = 0; d < mask.size(); ++d) {
    const int64_t size = x.sizes()[d];
    if (size == 1) continue;
    if (mask[d] && kept_seen) return false;
    kept_seen |= !mask[d];
    (mask[d] ? reduced : kept) *= size;
  }
  return reduced > 1 && kept > 1;
}

// Whether the column kernel reads [in] directly for a sum into [run]: the same dtype, or a half type into float32.
bool sums_directly(DType in, DType run) {
  return in == run || (run == DType::float32 && (in == DType::float16 || in == DType::bfloat16));
}

// sum/mean of a leading_reduction() block into [run] (out_shape of [l]): column sums, no copy of the input.
Tensor sum_columns(const Tensor& x, const common::ReducedLayout& l, DType run, Device dev, bool mean) {
  Tensor out = Tensor::empty(l.out_shape, run, dev);
  const int pieces = column_pieces(l.inner, l.outer);
  Tensor work = pieces > 1 ? Tensor::empty({int64_t(pieces) * l.outer}, DType::float64, dev) : Tensor();
  check(launch_sum_cols(stream(dev), elem(x.dtype()), elem(run), device_data(x), device_data(out), l.inner, l.outer,
                        mean ? 1.0 / double(l.inner) : 1.0, work.defined() ? device_data(work) : nullptr, pieces),
        "sum");
  return out;
}

// sum/mean in [out_dt]: integers and bools sum in int64; a requested dtype converts the input first (a half input
// summed into float32 by the column kernel is read as it is).
Tensor sum_like(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, DType out_dt, Device dev, bool mean) {
  const DType run = is_floating(out_dt) ? out_dt : DType::int64;
  if (leading_reduction(x, dims)) {
    Tensor xin = sums_directly(x.dtype(), run) ? x : cast(x, run);
    if (xin.is_contiguous())
      return cast(sum_columns(xin, common::reduced_layout(xin, dims, keepdim), run, dev, mean), out_dt);
  }
  Tensor xin = cast(x, run);
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

// The dtype the scan kernels run in for a result of [out_dt]: bool and the small integers (dtype=bool, dtype=uint8)
// run in int64, cast at the end (sums and products wrap the same modulo 2^8 or 2^16 either way).
DType scan_dtype(DType out_dt) {
  return is_floating(out_dt) || out_dt == DType::int64 || out_dt == DType::int32 ? out_dt : DType::int64;
}

// prod(input, dim=None, keepdim=False, dtype=None): in the CPU's result dtype (int64 for integers and bool).
Tensors k_prod(const ArgReader& a, const KernelContext& kc) {
  const Tensor& x = a.tensor(0);
  const std::optional<int64_t> d = a.opt_i64(1);
  const DType out_dt = common::sum_dtype(x, a.opt_dtype(3)), run_dt = scan_dtype(out_dt);
  Rows r = make_rows(cast(x, run_dt), d ? std::optional<Dims>(Dims{*d}) : std::nullopt, a.boolean(2));
  Tensor out = Tensor::empty(r.out_shape, run_dt, kc.device);
  check(launch_row_prod(stream(kc.device), elem(run_dt), device_data(r.block), device_data(out), r.outer, r.inner),
        "prod");
  return one_tensor(cast(out, out_dt));
}

// cumsum / cumprod(input, dim, dtype=None): running sums or products along dim (moved innermost, then back), as the
// CPU kernel.
template <bool kProduct> Tensors k_scan(const ArgReader& a, const KernelContext& kc) {
  const Tensor& x = a.tensor(0);
  const DType out_dt = common::sum_dtype(x, a.opt_dtype(2)), run_dt = scan_dtype(out_dt);
  const int64_t d = wrap_dim(a.i64(1), x.dim());
  Tensor rows = contiguous(cast(x.dim() == 0 ? x : native::transpose(x, d, -1), run_dt));
  Tensor out = Tensor::empty(rows.sizes(), run_dt, kc.device);
  const int64_t n = x.dim() == 0 ? 1 : rows.size(-1);
  const auto launch = kProduct ? launch_row_cumprod : launch_row_cumsum;
  check(launch(stream(kc.device), elem(run_dt), device_data(rows), device_data(out), n ? rows.numel() / n : 0, n),
        kProduct ? "cumprod" : "cumsum");
  return one_tensor(cast(x.dim() == 0 ? out : contiguous(native::transpose(out, d, -1)), out_dt));
}

}  // namespace

void register_reduce_kernels(KernelTable& t) {
  common::register_sum_kernels<sum_like>(t);
  t.add(OpId::prod, k_prod);
  t.add(OpId::cumsum, k_scan<false>);
  t.add(OpId::cumprod, k_scan<true>);
}

}  // namespace amps::rt::cuda
