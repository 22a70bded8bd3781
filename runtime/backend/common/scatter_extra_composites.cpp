// The scatter family's implicit composites (see scatter_extra_composites.hpp), written with the dispatching
// functions: index_copy / index_add over a flattened input carry the values and their gradients.
#include "runtime/backend/common/scatter_extra_composites.hpp"

#include <algorithm>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/mask_checks.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

Tensor long_tensor(const std::vector<int64_t>& v, Device dev) {
  std::vector<double> d(v.begin(), v.end());
  return Tensor::from_doubles(d, {int64_t(v.size())}, DType::int64).to(dev);
}

// PyTorch's check that src has the shape of the view of input it replaces.
void check_src_shape(const Tensor& src, const Tensor& view) {
  AMPS_CHECK(src.sizes() == view.sizes(), "expected src to have a size equal to the slice of self. src size = {}, "
             "slice size = {}", list_shape(src.sizes()), list_shape(view.sizes()));
}

// [index] with negative entries counted from the end of an extent [n]; IndexError (message [msg] with the bad
// value) when some entry is outside [-n, n) (one host read of the extremes).
template <typename Msg> Tensor checked_index(const Tensor& index, int64_t n, Msg&& msg) {
  if (index.numel() > 0) {
    const int64_t lo = call_op(O::min, index).item<int64_t>(), hi = call_op(O::max, index).item<int64_t>();
    for (int64_t bad : {lo, hi}) AMPS_CHECK_INDEX(bad >= -n && bad < n, "{}", msg(bad));
  }
  return where(lt(index, Scalar(int64_t(0))), index + Scalar(n), index);
}

// index_put's index tensors as int64 coordinates: a bool mask becomes one tensor per dim it covers (its true
// positions, a host read as PyTorch's nonzero).
std::vector<Tensor> index_coordinates(const std::vector<Tensor>& indices) {
  std::vector<Tensor> out;
  for (const Tensor& i : indices) {
    AMPS_CHECK_INDEX(i.dtype() == DType::int64 || i.dtype() == DType::bool_,
                     "tensors used as indices must be long, byte or bool tensors");
    if (i.dtype() != DType::bool_) {
      out.push_back(i);
      continue;
    }
    const Tensor nz = call_op(O::nonzero, i);
    for (int64_t k = 0; k < i.dim(); ++k) out.push_back(nz.select(1, k));
  }
  return out;
}

Dims broadcast_indices(const std::vector<Tensor>& index) {
  Dims b;
  try {
    for (const Tensor& i : index) b = broadcast_shapes(b, i.sizes(), "index");
  } catch (const Error&) {
    std::string all;
    for (const Tensor& i : index) all += (all.empty() ? "" : ", ") + list_shape(i.sizes());
    AMPS_CHECK_INDEX(false, "shape mismatch: indexing tensors could not be broadcast together with shapes {}", all);
  }
  return b;
}

// The row-major position, among x's leading index.size() dims, that each broadcast index element addresses.
Tensor linear_positions(const Tensor& x, const std::vector<Tensor>& index, const Dims& b) {
  Tensor lin;
  for (int64_t d = 0; d < int64_t(index.size()); ++d) {
    const int64_t n = x.size(d);
    const Tensor i = checked_index(index[size_t(d)].to(x.device()), n, [&](int64_t bad) {
      return fmt::format("index {} is out of bounds for dimension {} with size {}", bad, d, n);
    });
    lin = d == 0 ? i.expand(b) : lin * Scalar(n) + i.expand(b);
  }
  return lin.reshape({-1});
}

void check_values_shape(const Tensor& values, const Dims& result) {
  Dims bv;
  bool ok = values.dim() <= int64_t(result.size());
  if (ok) {
    try {
      bv = broadcast_shapes(values.sizes(), result, "index_put");
    } catch (const Error&) {
      ok = false;
    }
  }
  AMPS_CHECK(ok && bv == result, "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of "
             "shape {}", list_shape(values.sizes()), list_shape(result));
}

// input[indices] = values over the leading dims the k index tensors address: their broadcast row-major position
// among those dims indexes the input seen as [rows, rest...]; accumulate adds (index_add) instead of writing
// (index_copy).
Tensor index_put_out(const Tensor& x, const std::vector<Tensor>& indices, const Tensor& values, bool accumulate) {
  AMPS_CHECK(values.dtype() == x.dtype(), "Index put requires the source and destination dtypes match, got {} for "
             "the destination and {} for the source.", torch_type_name(x.dtype()), torch_type_name(values.dtype()));
  const std::vector<Tensor> index = index_coordinates(indices);
  const int64_t k = int64_t(index.size());
  AMPS_CHECK_INDEX(k <= x.dim(), "too many indices for tensor of dimension {} (got {})", x.dim(), k);
  AMPS_CHECK(k > 0, "index_put: indices must hold at least one index tensor (PyTorch fails on an empty tuple too)");
  const Dims b = broadcast_indices(index);
  const Tensor at = linear_positions(x, index, b);
  const Dims rest(x.sizes().begin() + k, x.sizes().end());
  Dims result = b, flat_shape{numel_of(Dims(x.sizes().begin(), x.sizes().begin() + k))}, src_shape{numel_of(b)};
  for (Dims* d : {&result, &flat_shape, &src_shape}) d->insert(d->end(), rest.begin(), rest.end());
  check_values_shape(values, result);
  const Tensor src = values.expand(result).reshape(src_shape), flat = x.reshape(flat_shape);
  Tensor out = accumulate ? call_op(O::index_add, flat, int64_t(0), at, src, Scalar(int64_t(1)))
                          : call_op(O::index_copy, flat, int64_t(0), at, src);
  return out.reshape(x.sizes());
}

// masked_scatter: source's leading elements, in order, where the broadcast mask is true.
Tensor masked_scatter_out(const Tensor& x, const Tensor& mask_in, const Tensor& source) {
  // PyTorch 1.13 reads an integer mask as its nonzero elements (and a float one as garbage: refused here)
  AMPS_CHECK(!is_floating(mask_in.dtype()), "masked_scatter_: expected BoolTensor or ByteTensor for mask");
  check_byte_mask(mask_in);
  const Tensor mask = mask_in.dtype() == DType::bool_ ? mask_in : ne(mask_in, Scalar(int64_t(0)));
  AMPS_CHECK(source.dtype() == x.dtype(), "masked_scatter: expected self and source to have same dtypes but got{} "
             "and {}", torch_type_name(x.dtype()), torch_type_name(source.dtype()));
  const Dims shape = broadcast_shapes(x.sizes(), mask.sizes(), "masked_scatter");
  const Tensor at = call_op(O::nonzero, mask.expand(shape).reshape({-1})).reshape({-1});
  const int64_t n = at.numel();
  AMPS_CHECK(source.numel() >= n, "Number of elements of source < number of ones in mask");
  const Tensor src = source.reshape({-1}).slice(0, 0, n);
  return call_op(O::index_copy, x.expand(shape).reshape({-1}), int64_t(0), at, src).reshape(shape);
}

Tensor put_out(const Tensor& x, const Tensor& index, const Tensor& source, bool accumulate) {
  AMPS_CHECK(index.dtype() == DType::int64, "put_(): Expected a long tensor for index, but got {}",
             torch_type_name(index.dtype()));
  AMPS_CHECK(source.dtype() == x.dtype(), "put_(): self and source expected to have the same dtype, but got "
             "self.dtype = {} and source.dtype = {}", torch_type_name(x.dtype()), torch_type_name(source.dtype()));
  AMPS_CHECK_INDEX(source.numel() == index.numel(), "put_(): Expected source and index to have the same number of "
                   "elements, but got source.numel() = {}, index.numel() = {}", source.numel(), index.numel());
  const int64_t n = x.numel();
  const Tensor at = checked_index(index.reshape({-1}), n, [&](int64_t bad) {
    return fmt::format("out of range: tried to access index {} on a tensor of {} elements.", bad, n);
  });
  const Tensor flat = x.reshape({-1}), src = source.reshape({-1});
  Tensor out = accumulate ? call_op(O::index_add, flat, int64_t(0), at, src, Scalar(int64_t(1)))
                          : call_op(O::index_copy, flat, int64_t(0), at, src);
  return out.reshape(x.sizes());
}

// index_reduce(input, dim, index, source, reduce, include_self): scatter_reduce with index laid along dim of
// source's shape.
Tensor index_reduce_out(const ArgReader& a) {
  const Tensor x = a.tensor(0), index = a.tensor(2), source = a.tensor(3);
  const std::string reduce = a.str(4);
  AMPS_CHECK(reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin", "index_reduce(): Expected "
             "reduce to be one of prod, mean, amax or amin but got {}.", reduce);
  AMPS_CHECK_INDEX(index.dim() <= 1, "index_reduce_(): Index is supposed to be a vector, but got dim: {} with type: "
                   "{} and size: {}", index.dim(), torch_type_name(index.dtype()), list_shape(index.sizes()));
  AMPS_CHECK(index.dtype() == DType::int64 || index.dtype() == DType::int32, "index_reduce_(): Expected dtype "
             "int32/int64 for index");
  AMPS_CHECK(source.dtype() == x.dtype(), "index_reduce_(): self and source must have the same scalar type");
  const int64_t d = wrap_dim(a.i64(1), std::max<int64_t>(x.dim(), 1));
  const int64_t n = x.dim() == 0 ? 1 : x.size(d);
  bool same = source.dim() == x.dim() && (x.dim() == 0 || source.size(d) == index.numel());
  for (int64_t k = 0; same && k < x.dim(); ++k) same = k == d || source.size(k) == x.size(k);
  AMPS_CHECK(same, "index_reduce_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
             "{} at dimension {} and source slice shape: {} at dimension 0.", list_shape(x.sizes()), d,
             list_shape(source.sizes()));
  const Tensor at = checked_index(index.reshape({-1}).to(DType::int64), n, [](int64_t) {
    return std::string("index out of range in self");
  });
  if (x.dim() == 0) return call_op(O::scatter_reduce, x, int64_t(0), at.reshape({}), source, reduce, a.boolean(5));
  Dims shape(size_t(x.dim()), 1);
  shape[size_t(d)] = at.numel();
  return call_op(O::scatter_reduce, x, d, at.reshape(shape).expand(source.sizes()), source, reduce, a.boolean(5));
}

// PyTorch's checks of an as_strided geometry against a storage of [elements] elements.
void check_geometry(const Dims& size, const Dims& stride, int64_t offset, int64_t elements, DType dt) {
  AMPS_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (int64_t s : stride)
    AMPS_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: {}", list_shape(stride));
  for (int64_t s : size)
    AMPS_CHECK(s >= 0, "Storage size calculation overflowed with sizes={} and strides={}", list_shape(size),
               list_shape(stride));
  AMPS_CHECK(offset >= 0, "Tensor: invalid storage offset {}", offset);
  int64_t need = offset + 1;
  for (size_t i = 0; i < size.size(); ++i) need += (size[i] - 1) * stride[i];
  if (numel_of(size) == 0) need = 0;
  const int64_t item = int64_t(dtype_size(dt));
  AMPS_CHECK(need <= elements, "setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a "
             "storage size of {} are out of bounds for storage of size {}", list_shape(size), list_shape(stride), offset,
             item, need * item, elements * item);
}

// An in-place op's result [out] copied into input (argument 0), which is returned.
Tensors into_input(Args& args, const Tensor& out) {
  Tensor self = args[0].tensor();
  call_op(O::copy_, self, out);
  return {self};
}

}  // namespace

// select_scatter(input, src, dim, index): input with src at index along dim (index_copy of one slice).
Tensors select_scatter_math(Args& args) {
  ArgReader a(O::select_scatter, args);
  const Tensor x = a.tensor(0), src = a.tensor(1);
  AMPS_CHECK_INDEX(x.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(a.i64(2), x.dim()), n = x.size(d), i = a.i64(3);
  AMPS_CHECK_INDEX(i >= -n && i < n, "select(): index {} out of range for tensor of size {} at dimension {}", i,
                   list_shape(x.sizes()), a.i64(2));
  check_src_shape(src, x.select(d, i));
  return {call_op(O::index_copy, x, d, long_tensor({i < 0 ? i + n : i}, x.device()), src.to(x.dtype()).unsqueeze(d))};
}

// slice_scatter(input, src, dim, start, end, step): input with src at the slice start:end:step along dim.
Tensors slice_scatter_math(Args& args) {
  ArgReader a(O::slice_scatter, args);
  const Tensor x = a.tensor(0), src = a.tensor(1);
  AMPS_CHECK(x.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(a.i64(2), x.dim());
  const Tensor view = x.slice(d, a.opt_i64(3), a.opt_i64(4), a.i64(5));
  check_src_shape(src, view);
  const Tensor at = arange(Scalar(int64_t(0)), Scalar(x.size(d)), Scalar(int64_t(1)), DType::int64, x.device())
                        .slice(0, a.opt_i64(3), a.opt_i64(4), a.i64(5));
  return {call_op(O::index_copy, x, d, at, src.to(x.dtype()))};
}

// diagonal_scatter(input, src, offset, dim1, dim2): input with src on the diagonal (diagonal_backward places it).
Tensors diagonal_scatter_math(Args& args) {
  ArgReader a(O::diagonal_scatter, args);
  const Tensor x = a.tensor(0), src = a.tensor(1);
  const int64_t offset = a.i64(2), d1 = a.i64(3), d2 = a.i64(4);
  const Tensor view = call_op(O::diagonal, x, offset, d1, d2);
  check_src_shape(src, view);
  const Tensor placed = call_op(O::diagonal_backward, src.to(x.dtype()), x.sizes(), offset, d1, d2);
  const Tensor on = call_op(O::diagonal_backward, ones(view.sizes(), DType::float32, x.device()), x.sizes(), offset,
                            d1, d2);
  return {where(ne(on, Scalar(0.0)), placed, x)};
}

Tensors index_put_math(Args& args) {
  ArgReader a(O::index_put, args);
  return {index_put_out(a.tensor(0), a.tensors(1), a.tensor(2), a.boolean(3))};
}

Tensors index_put__math(Args& args) {
  ArgReader a(O::index_put_, args);
  return into_input(args, index_put_out(a.tensor(0), a.tensors(1), a.tensor(2), a.boolean(3)));
}

Tensors masked_scatter_math(Args& args) {
  ArgReader a(O::masked_scatter, args);
  return {masked_scatter_out(a.tensor(0), a.tensor(1), a.tensor(2))};
}

Tensors masked_scatter__math(Args& args) {
  ArgReader a(O::masked_scatter_, args);
  const Tensor x = a.tensor(0), mask = a.tensor(1);
  AMPS_CHECK(broadcast_shapes(x.sizes(), mask.sizes(), "masked_scatter_") == x.sizes(), "masked_scatter_: the mask "
             "of shape {} must broadcast to self's shape {}", list_shape(mask.sizes()), list_shape(x.sizes()));
  return into_input(args, masked_scatter_out(x, mask, a.tensor(2)));
}

Tensors put_math(Args& args) {
  ArgReader a(O::put, args);
  return {put_out(a.tensor(0), a.tensor(1), a.tensor(2), a.boolean(3))};
}

Tensors put__math(Args& args) {
  ArgReader a(O::put_, args);
  return into_input(args, put_out(a.tensor(0), a.tensor(1), a.tensor(2), a.boolean(3)));
}

Tensors scatter_reduce__math(Args& args) {
  ArgReader a(O::scatter_reduce_, args);
  return into_input(args, call_op(O::scatter_reduce, a.tensor(0), a.i64(1), a.tensor(2), a.tensor(3), a.str(4),
                                  a.boolean(5)));
}

Tensors index_reduce_math(Args& args) { return {index_reduce_out(ArgReader(O::index_reduce, args))}; }

Tensors index_reduce__math(Args& args) {
  return into_input(args, index_reduce_out(ArgReader(O::index_reduce_, args)));
}

bool dense_layout(const Tensor& t) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of the dims longer than 1
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) != 1) dims.emplace_back(t.stride(d), t.size(d));
  std::sort(dims.begin(), dims.end());
  int64_t expect = 1;
  for (auto [stride, size] : dims) {
    if (stride != expect) return false;
    expect *= size;
  }
  return true;
}

Tensor strided_positions(const Dims& sizes, const Dims& strides, int64_t offset, Device dev) {
  const int64_t n = numel_of(sizes);
  std::vector<double> pos(static_cast<size_t>(n));
  Dims at(sizes.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t p = offset;
    for (size_t k = 0; k < sizes.size(); ++k) p += at[k] * strides[k];
    pos[size_t(e)] = double(p);
    for (size_t k = sizes.size(); k-- > 0;) {
      if (++at[k] < sizes[k]) break;
      at[k] = 0;
    }
  }
  return Tensor::from_doubles(pos, sizes, DType::int64).to(dev);
}

// as_strided(input, size, stride, storage_offset): input's storage seen with the given geometry.
Tensors as_strided_math(Args& args) {
  ArgReader a(O::as_strided, args);
  const Tensor x = a.tensor(0);
  const Dims size = a.ints(1), stride = a.ints(2);
  const int64_t offset = a.opt_i64(3).value_or(x.storage_offset());
  check_geometry(size, stride, offset, int64_t(x.storage()->nbytes() / dtype_size(x.dtype())), x.dtype());
  return {native::as_strided(x, size, stride, offset)};
}

// as_strided_scatter(input, src, size, stride, storage_offset): PyTorch's clone of input (its strides kept when
// dense, else row-major; offset 0) with src copied into that clone's as_strided view, computed on the clone's
// storage as a flat vector.
Tensors as_strided_scatter_math(Args& args) {
  ArgReader a(O::as_strided_scatter, args);
  const Tensor x = a.tensor(0), src = a.tensor(1);
  const Dims size = a.ints(2), stride = a.ints(3);
  const int64_t offset = a.opt_i64(4).value_or(0);
  AMPS_CHECK(src.sizes() == size, "expected src to have a size equal to the slice of self. src size = {}, slice size "
             "= {}", list_shape(src.sizes()), list_shape(size));
  check_geometry(size, stride, offset, x.numel(), x.dtype());
  const bool keep = !x.is_contiguous() && dense_layout(x);
  Tensor storage = x.reshape({-1}), in_pos;
  if (keep) {
    in_pos = strided_positions(x.sizes(), x.strides(), 0, x.device()).reshape({-1});
    storage = call_op(O::index_copy, zeros({x.numel()}, x.dtype(), x.device()), int64_t(0), in_pos, storage);
  }
  const Tensor at = strided_positions(size, stride, offset, x.device()).reshape({-1});
  storage = call_op(O::index_copy, storage, int64_t(0), at, src.to(x.dtype()).reshape({-1}));
  return {(keep ? index_select(storage, 0, in_pos) : storage).reshape(x.sizes())};
}

}  // namespace amps::rt::common
