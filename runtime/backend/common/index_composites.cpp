// Indexing composites (see shape_composites.hpp): take, take_along_dim, index_fill(_), diag_embed, the triangle
// index factories and unfold's gradient, written with the dispatching functions.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;


// The smallest and largest element of the int64 [index] (one host read; [0, 0] when empty).
std::pair<int64_t, int64_t> index_range(const Tensor& index) {
  if (index.numel() == 0) return {0, 0};
  return {min(index).item<int64_t>(), max(index).item<int64_t>()};
}

// [index] with negative entries counted from the end of an extent [n].
Tensor wrap_negative(const Tensor& index, int64_t n) {
  return where(lt(index, Scalar(int64_t(0))), index + Scalar(n), index);
}

// The row-major coordinates of a rows x cols matrix's lower (or upper) triangle around diagonal [offset].
Tensor triangle_indices(const ArgReader& a, bool lower) {
  const int64_t rows = a.i64(0), cols = a.i64(1), offset = a.i64(2);
  AMPS_CHECK(rows >= 0, "row must be non-negative, got{}", rows);
  AMPS_CHECK(cols >= 0, "col must be non-negative, got{}", cols);
  const DType dt = a.opt_dtype(3).value_or(DType::int64);
  AMPS_CHECK(dt == DType::int64 || dt == DType::int32, "\"{}\" not implemented for '{}'",
             lower ? "tril_indices" : "triu_indices", torch_type_name(dt));
  std::vector<double> r, c;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (lower ? j - i <= offset : j - i >= offset) r.push_back(double(i)), c.push_back(double(j));
  r.insert(r.end(), c.begin(), c.end());
  return Tensor::from_doubles(r, {2, int64_t(c.size())}, dt).to(a.opt_device(4).value_or(Device::cpu()));
}

}  // namespace

std::string_view torch_type_name(DType t) {
  switch (t) {
    case DType::float64: return "Double";
    case DType::float32: return "Float";
    case DType::float16: return "Half";
    case DType::bfloat16: return "BFloat16";
    case DType::int64: return "Long";
    case DType::int32: return "Int";
    case DType::bool_: return "Bool";
    case DType::uint8: return "Byte";
    case DType::int8: return "Char";
    case DType::int16: return "Short";
  }
  return "?";
}

std::string list_shape(const Dims& sizes) {
  std::string out;
  for (int64_t s : sizes) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return "[" + out + "]";
}

// take(input, index): the flattened input's elements at index (negative from the end), shaped like index.
Tensors take_math(Args& args) {
  ArgReader a(O::take, args);
  const Tensor x = a.tensor(0), index = a.tensor(1);
  AMPS_CHECK(index.dtype() == DType::int64, "take(): Expected a long tensor for index, but got {}",
             torch_type_name(index.dtype()));
  const int64_t n = x.numel();
  const auto [lo, hi] = index_range(index);
  for (int64_t bad : {lo, hi})
    AMPS_CHECK_INDEX(bad >= -n && bad < n, "out of range: tried to access index {} on a tensor of {} elements.",
                     bad, n);
  const Tensor flat = index_select(x.reshape({-1}), 0, wrap_negative(index.reshape({-1}), n));
  return {flat.reshape(index.sizes())};
}

// take_along_dim(input, indices, dim): gather along dim after broadcasting the other dims of input and indices;
// the flattened input gathered at the flattened indices when dim is None.
Tensors take_along_dim_math(Args& args) {
  ArgReader a(O::take_along_dim, args);
  Tensor x = a.tensor(0), index = a.tensor(1);
  AMPS_CHECK(index.dtype() == DType::int64, "torch.take_along_dim(): dtype of indices should be Long but got {}",
             torch_type_name(index.dtype()));
  const std::optional<int64_t> dim = a.opt_i64(2);
  if (!dim) return {call_op(O::gather, x.reshape({-1}), int64_t(0), index.reshape({-1}))};
  AMPS_CHECK(x.dim() == index.dim(), "torch.take_along_dim(): input and indices should have the same number of "
             "dimensions, but got {} dimensions for input, and {} dimensions for indices", x.dim(), index.dim());
  const int64_t d = wrap_dim(*dim, x.dim());
  Dims xs = x.sizes(), is = index.sizes();
  if (x.dim() > 0) xs[size_t(d)] = is[size_t(d)] = 1;
  const Dims common = broadcast_shapes(xs, is, "take_along_dim");
  Dims xe = common, ie = common;
  if (x.dim() > 0) xe[size_t(d)] = x.size(d), ie[size_t(d)] = index.size(d);
  return {call_op(O::gather, x.expand(xe), d, index.expand(ie))};
}

// index_fill(input, dim, index, value): value where index points along dim, through a bool mask of the dim's
// positions (index_add of ones, so repeated indices are fine) and masked_fill.
Tensors index_fill_math(Args& args) {
  ArgReader a(O::index_fill, args);
  const Tensor x = a.tensor(0), index = a.tensor(2);
  AMPS_CHECK_INDEX(index.dtype() == DType::int64, "index_fill_(): Expected dtype int64 for index.");
  AMPS_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
  const int64_t d = wrap_dim(a.i64(1), x.dim()), n = x.dim() == 0 ? 1 : x.size(d);
  const auto [lo, hi] = index_range(index);
  for (int64_t bad : {lo, hi})
    AMPS_CHECK_INDEX(bad >= -n && bad < n, "index {} is out of bounds for dimension {} with size {}", bad, d, n);
  const Tensor at = wrap_negative(index.reshape({-1}), n);
  Tensor hits = call_op(O::index_add, zeros({n}, DType::int64, x.device()), int64_t(0), at, ones_like(at),
                        Scalar(int64_t(1)));
  Dims shape(size_t(x.dim()), 1);
  if (x.dim() > 0) shape[size_t(d)] = n;
  return {masked_fill(x, gt(hits, Scalar(int64_t(0))).reshape(shape), a.scalar(3))};
}

// index_fill_(input, dim, index, value): index_fill's result copied into input.
Tensors index_fill__math(Args& args) {
  ArgReader a(O::index_fill_, args);
  Args copy{a.tensor(0), args[1], args[2], args[3]};
  Tensor self = a.tensor(0);
  call_op(O::copy_, self, index_fill_math(copy)[0]);
  return {self};
}

// diag_embed(input, offset, dim1, dim2): input's last dim written on the diagonal of the new dims dim1 and dim2 of
// a zero tensor (diagonal's adjoint).
Tensors diag_embed_math(Args& args) {
  ArgReader a(O::diag_embed, args);
  const Tensor x = a.tensor(0);
  const int64_t offset = a.i64(1), nd = x.dim() + 1;
  const int64_t d1 = wrap_dim(a.i64(2), nd), d2 = wrap_dim(a.i64(3), nd);
  AMPS_CHECK(d1 != d2, "diagonal dimensions cannot be identical {}, {}", a.i64(2), a.i64(3));
  const int64_t side = (x.dim() == 0 ? 1 : x.size(-1)) + std::abs(offset);
  Dims out(x.sizes().begin(), x.dim() == 0 ? x.sizes().end() : x.sizes().end() - 1);
  const int64_t lo = std::min(d1, d2), hi = std::max(d1, d2);
  out.insert(out.begin() + lo, side);
  out.insert(out.begin() + hi, side);
  const Tensor v = x.dim() == 0 ? x.reshape({1}) : x;
  return {call_op(O::diagonal_backward, v, out, offset, d1, d2)};
}

Tensors tril_indices_math(Args& args) { return {triangle_indices(ArgReader(O::tril_indices, args), true)}; }
Tensors triu_indices_math(Args& args) { return {triangle_indices(ArgReader(O::triu_indices, args), false)}; }

// unfold_backward(grad, input_sizes, dim, size, step): window w's element j goes back to input position
// w * step + j along dim; the window dim and the element dim are merged and index_add-ed into zeros.
Tensors unfold_backward_math(Args& args) {
  ArgReader a(O::unfold_backward, args);
  const Tensor g = a.tensor(0);
  const Dims sizes = a.ints(1);
  if (sizes.empty()) return {g.numel() ? g.reshape({}) : zeros({}, g.dtype(), g.device())};
  const int64_t nd = int64_t(sizes.size()), d = wrap_dim(a.i64(2), nd), size = a.i64(3), step = a.i64(4);
  const int64_t windows = g.size(d);
  const Tensor pos = arange(int64_t(0), windows * step, step, DType::int64, g.device()).unsqueeze(1) +
                     arange(int64_t(0), size, int64_t(1), DType::int64, g.device()).unsqueeze(0);
  Dims order;  // the element dim moved next to the window dim
  for (int64_t i = 0; i <= nd; ++i) order.push_back(i <= d ? i : i == d + 1 ? nd : i - 1);
  const Tensor merged = g.permute(order);
  Dims shape = merged.sizes();
  shape[size_t(d)] *= size;
  shape.erase(shape.begin() + d + 1);
  return {call_op(O::index_add, zeros(sizes, g.dtype(), g.device()), d, pos.reshape({-1}), merged.reshape(shape),
                  Scalar(int64_t(1)))};
}

}  // namespace amps::rt::common
