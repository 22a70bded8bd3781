// Tensor indexing with PyTorch's rules. Basic items make views: ints select, slices slice, none inserts a dim,
// `...` skips dims. Advanced items (int64/int32 tensors, int lists, bool masks, Python bools) keep their dim and
// are applied afterwards, all together: their index tensors broadcast to one shape B, whose dims replace the
// indexed ones in place when those are adjacent, and go first otherwise (ints are basic in PyTorch, so
// x[1, :, [0, 1]] has shape [3, 2] for a [5, 3, 4] x). A k-dim bool mask is k index tensors (its true
// positions, read on the host as PyTorch's nonzero does). Assignment writes through the same views: one
// index_copy_ over the indexed dims flattened, in a contiguous copy written back when the view is not dense.
#include <fmt/format.h>

#include "interp/diagnostics.hpp"
#include "interp/warnings.hpp"
#include "interp/interp.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::interp {
namespace {

std::vector<Value> key_items(const Value& key) {
  if (key.is(ObjKind::Tuple)) return key.as<Tuple>()->items;
  return {key};
}

bool is_ellipsis(const Value& v) { return v.is(ObjKind::Str) && v.as<Str>()->value == "..."; }

// A bool mask, or a uint8 one (deprecated in PyTorch 1.13, which indexes with it as with a bool mask).
const rt::Tensor* bool_mask(const Value& v) {
  const rt::Tensor* m = tensor_of(v);
  return m && (m->dtype() == rt::DType::bool_ || m->dtype() == rt::DType::uint8) ? m : nullptr;
}

// PyTorch's deprecation warning for a uint8 mask among [key]'s items, once per process as Python's warnings.
void warn_uint8_mask(Interp& in, const Value& key, const Span& where) {
  static bool warned = false;
  if (warned) return;
  for (const Value& v : key_items(key))
    if (const rt::Tensor* m = tensor_of(v); m && m->dtype() == rt::DType::uint8) {
      emit_warning(in, "UserWarning", "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                   "instead.", where);
      warned = true;
      return;
    }
}

// The dims of the indexed tensor an item consumes: none, `...` and Python bools none, a bool mask its dims.
int64_t consumed_by(const Value& v) {
  if (v.is_none() || is_ellipsis(v) || v.is_bool()) return 0;
  if (const rt::Tensor* m = bool_mask(v)) return m->dim();
  return 1;
}

int64_t consuming(const std::vector<Value>& items, size_t end) {
  int64_t n = 0;
  for (size_t i = 0; i < end; ++i) n += consumed_by(items[i]);
  return n;
}

std::optional<int64_t> opt_int(const Value& v, const Span& where) {
  if (v.is_none()) return std::nullopt;
  int64_t i = 0;
  if (!index_value_of(v, i)) Interp::fail("TypeError", bad_slice_bound(v), where);
  return i;
}

std::string shape_str(const rt::Dims& d) {
  return fmt::format("[{}]", fmt::join(d, ", "));
}

// The basic items applied as views, the advanced ones collected as (dim of the view, int64 index tensor on the
// view's device).
struct Indexed {
  rt::Tensor view;
  std::vector<int64_t> dims;
  std::vector<rt::Tensor> index;
};

// A long tensor or int list as an int64 index on [device].
rt::Tensor index_tensor(const Value& v, rt::Device device, const Span& where) {
  rt::Tensor t = to_tensor(v, where);
  if (t.dtype() != rt::DType::int64 && t.dtype() != rt::DType::int32)
    Interp::fail("IndexError", fmt::format("tensors used as indices must be long, int or bool, not {}", rt::dtype_name(t.dtype())), where);
  return t.to(rt::DType::int64).to(device);
}

// A k-dim mask over dims [dim, dim + k) of [view]: k index tensors of its true positions' coordinates. A 0-dim
// mask (or a Python bool) inserts a dim of size 1 indexed by [0] (true) or by nothing (false).
void add_mask(Indexed& ix, const rt::Tensor& mask, int64_t dim, const Span& where) {
  const rt::Dims& vs = ix.view.sizes();
  rt::Dims covered(vs.begin() + dim, vs.begin() + std::min<int64_t>(int64_t(vs.size()), dim + mask.dim()));
  if (covered != mask.sizes())
    Interp::fail("IndexError", fmt::format("The shape of the mask {} at index {} does not match the shape of the indexed "
                                           "tensor {} at index {}", shape_str(mask.sizes()), dim, shape_str(vs), dim), where);
  // [n, k] coordinates of the true positions (nonzero reads the mask on the host: a sync on a device, as PyTorch's)
  const rt::Tensor coords = rt::call_op(rt::OpId::nonzero, mask).to(ix.view.device());
  if (mask.dim() == 0) {
    ix.view = ix.view.unsqueeze(dim);
    ix.dims.push_back(dim);
    ix.index.push_back(rt::zeros({coords.size(0)}, rt::DType::int64, ix.view.device()));
    return;
  }
  for (int64_t j = 0; j < mask.dim(); ++j) {
    ix.dims.push_back(dim + j);
    ix.index.push_back(coords.select(1, j));
  }
}

Indexed apply_items(const rt::Tensor& t, const std::vector<Value>& items, const Span& where) {
  const int64_t total = consuming(items, items.size());
  if (total > t.dim()) Interp::fail("IndexError", fmt::format("too many indices for tensor of dimension {}", t.dim()), where);
  Indexed ix{t, {}, {}};
  int64_t dim = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const Value& v = items[i];
    if (v.is_bool()) {
      add_mask(ix, rt::Tensor::scalar(rt::Scalar(v.as_bool()), rt::DType::bool_), dim++, where);
    } else if (v.is_int()) {
      const int64_t n = ix.view.size(dim), k = v.as_int();
      if (k < -n || k >= n) Interp::fail("IndexError", fmt::format("index {} is out of bounds for dimension {} with size {}", k, dim, n), where);
      ix.view = ix.view.select(dim, k);
    } else if (v.is(ObjKind::Slice)) {
      auto* s = v.as<SliceObj>();
      int64_t step = s->step.is_none() ? 1 : opt_int(s->step, where).value();
      if (step <= 0) Interp::fail("ValueError", "step must be greater than zero", where);
      ix.view = ix.view.slice(dim++, opt_int(s->lo, where), opt_int(s->hi, where), step);
    } else if (v.is_none()) {
      ix.view = ix.view.unsqueeze(dim++);
    } else if (is_ellipsis(v)) {
      dim += ix.view.dim() - dim - (total - consuming(items, i));
    } else if (const rt::Tensor* m = bool_mask(v)) {
      add_mask(ix, *m, dim, where);
      dim += std::max<int64_t>(m->dim(), 1);
    } else {
      ix.dims.push_back(dim++);
      ix.index.push_back(index_tensor(v, ix.view.device(), where));
    }
  }
  return ix;
}

// The advanced indices broadcast together, each wrapped into [0, size) (IndexError when out of range, checked
// on the host for host tensors; on a device an out-of-range index is left to the index kernels), combined into
// one row-major index over the indexed dims.
rt::Tensor linear_index(const Indexed& ix, const Span& where) {
  rt::Dims shape;
  for (const rt::Tensor& i : ix.index) {
    try {
      shape = rt::broadcast_shapes(shape, i.sizes(), "index");
    } catch (const rt::Error&) {
      std::vector<std::string> all;
      for (const rt::Tensor& j : ix.index) all.push_back(shape_str(j.sizes()));
      Interp::fail("IndexError", fmt::format("shape mismatch: indexing tensors could not be broadcast together with "
                                             "shapes {}", fmt::join(all, ", ")), where);
    }
  }
  rt::GradModeGuard no_grad(false);
  rt::Tensor lin;
  for (size_t k = 0; k < ix.index.size(); ++k) {
    const int64_t size = ix.view.size(ix.dims[k]);
    rt::Tensor i = ix.index[k];
    if (i.device().is_host())
      for (double d : i.to_doubles())
        if (d < double(-size) || d >= double(size))
          Interp::fail("IndexError", fmt::format("index {} is out of bounds for dimension {} with size {}", int64_t(d),
                                                 ix.dims[k], size), where);
    i = rt::where(rt::lt(i, rt::Scalar(int64_t(0))), rt::add(i, rt::Tensor::scalar(rt::Scalar(size), rt::DType::int64).to(i.device())), i);
    lin = k == 0 ? i.expand(shape) : rt::add(rt::mul(lin, rt::Tensor::scalar(rt::Scalar(size), rt::DType::int64).to(i.device())), i.expand(shape));
  }
  return lin.contiguous();
}

// The view's dims permuted to (indexed dims, then the others in order), and those others.
struct Layout {
  rt::Tensor permuted;
  rt::Dims rest_sizes;
  int64_t rows = 1;        // product of the indexed dims' sizes
  bool in_place = false;   // the indexed dims are adjacent and not first: the result keeps B at dims[0]
};

Layout layout_of(const Indexed& ix) {
  Layout l;
  rt::Dims order(ix.dims.begin(), ix.dims.end());
  for (int64_t d : ix.dims) l.rows *= ix.view.size(d);
  for (int64_t d = 0; d < ix.view.dim(); ++d)
    if (std::find(ix.dims.begin(), ix.dims.end(), d) == ix.dims.end()) {
      order.push_back(d);
      l.rest_sizes.push_back(ix.view.size(d));
    }
  l.permuted = ix.view.permute(order);
  bool adjacent = true;
  for (size_t k = 1; k < ix.dims.size(); ++k) adjacent &= ix.dims[k] == ix.dims[k - 1] + 1;
  l.in_place = adjacent && ix.dims.front() > 0;
  return l;
}

// Permutation moving the B block (dims [0, nb) of a B + rest tensor) to [at], or back with [inverse].
rt::Dims block_move(int64_t nb, int64_t nrest, int64_t at, bool inverse) {
  rt::Dims p;
  for (int64_t d = 0; d < at; ++d) p.push_back(nb + d);
  for (int64_t d = 0; d < nb; ++d) p.push_back(d);
  for (int64_t d = at; d < nrest; ++d) p.push_back(nb + d);
  if (!inverse) return p;
  rt::Dims inv(p.size());
  for (size_t k = 0; k < p.size(); ++k) inv[size_t(p[k])] = int64_t(k);
  return inv;
}

rt::Dims permuted_sizes(const rt::Dims& sizes, const rt::Dims& order) {
  rt::Dims out;
  for (int64_t d : order) out.push_back(sizes[size_t(d)]);
  return out;
}

rt::Dims with_rows(int64_t rows, const rt::Dims& rest) {
  rt::Dims s{rows};
  s.insert(s.end(), rest.begin(), rest.end());
  return s;
}

// One index tensor: index_select along its dim (B replaces that dim), no copy of the indexed tensor.
rt::Tensor select_rows(const rt::Tensor& t, int64_t dim, const rt::Tensor& idx) {
  rt::Args args{rt::IValue(t), rt::IValue(dim), rt::IValue(idx.reshape({-1}))};
  rt::Tensor out = rt::dispatch(rt::OpId::index_select, args)[0];
  if (idx.dim() == 1) return out;
  rt::Dims shape(t.sizes().begin(), t.sizes().begin() + dim);
  shape.insert(shape.end(), idx.sizes().begin(), idx.sizes().end());
  shape.insert(shape.end(), t.sizes().begin() + dim + 1, t.sizes().end());
  return out.reshape(shape);
}

rt::Tensor gather_advanced(const Indexed& ix, const Span& where) {
  if (ix.index.size() == 1) return select_rows(ix.view, ix.dims[0], ix.index[0]);
  const rt::Tensor lin = linear_index(ix, where);
  const Layout l = layout_of(ix);
  rt::Tensor flat = l.permuted.reshape(with_rows(l.rows, l.rest_sizes));
  rt::Args args{rt::IValue(flat), rt::IValue(int64_t(0)), rt::IValue(lin.reshape({-1}))};
  rt::Tensor out = rt::dispatch(rt::OpId::index_select, args)[0];
  rt::Dims shape = lin.sizes();
  shape.insert(shape.end(), l.rest_sizes.begin(), l.rest_sizes.end());
  out = out.reshape(shape);
  if (!l.in_place) return out;
  return out.permute(block_move(lin.dim(), int64_t(l.rest_sizes.size()), ix.dims.front(), false));
}

// [values] (leading size-1 dims beyond [shape] dropped, as PyTorch's setitem) broadcast to [shape].
rt::Tensor broadcast_values(rt::Tensor values, const rt::Dims& shape, const Span& where) {
  while (values.dim() > int64_t(shape.size()) && values.size(0) == 1) values = values.squeeze(0);
  rt::Dims b;
  bool ok = values.dim() <= int64_t(shape.size());
  if (ok) {
    try {
      b = rt::broadcast_shapes(values.sizes(), shape, "setitem");
    } catch (const rt::Error&) {
      ok = false;
    }
  }
  if (!ok || b != shape)
    Interp::fail("RuntimeError", fmt::format("shape mismatch: value tensor of shape {} cannot be broadcast to indexing "
                                             "result of shape {}", shape_str(values.sizes()), shape_str(shape)), where);
  return values.expand(shape);
}

rt::Tensor value_tensor(const Value& v, const rt::Tensor& like, const Span& where) {
  if (const rt::Tensor* src = tensor_of(v)) return src->to(like.dtype()).to(like.device());
  if (!v.is_number()) Interp::fail("TypeError", "can only assign a Tensor or a number into a tensor, not " + type_name(v), where);
  const rt::Scalar s = v.is_float() ? rt::Scalar(v.as_float()) : v.is_bool() ? rt::Scalar(v.as_bool()) : rt::Scalar(v.as_int());
  return rt::Tensor::scalar(s, like.dtype()).to(like.device());
}

// x[advanced] = values: index_copy_ into the indexed dims flattened (a copy written back unless that flattening
// is a view of x).
void scatter_advanced(const Indexed& ix, const Value& v, const Span& where) {
  if (ix.index.size() == 1 && ix.index[0].dim() == 1) {  // one 1-D index: index_copy_ along its dim of the view
    rt::Dims result = ix.view.sizes();
    result[size_t(ix.dims[0])] = ix.index[0].size(0);
    rt::Tensor src = broadcast_values(value_tensor(v, ix.view, where), result, where).contiguous();
    rt::Args args{rt::IValue(ix.view), rt::IValue(ix.dims[0]), rt::IValue(ix.index[0]), rt::IValue(src)};
    rt::dispatch(rt::OpId::index_copy_, args);
    return;
  }
  const rt::Tensor lin = linear_index(ix, where);
  Layout l = layout_of(ix);
  const int64_t nb = lin.dim(), nrest = int64_t(l.rest_sizes.size());
  rt::Dims result = lin.sizes();  // the shape x[advanced] has
  result.insert(result.end(), l.rest_sizes.begin(), l.rest_sizes.end());
  if (l.in_place) result = permuted_sizes(result, block_move(nb, nrest, ix.dims.front(), false));
  rt::Tensor src = broadcast_values(value_tensor(v, ix.view, where), result, where);
  if (l.in_place) src = src.permute(block_move(nb, nrest, ix.dims.front(), true));
  src = src.reshape(with_rows(lin.numel(), l.rest_sizes));
  const rt::Dims flat_shape = with_rows(l.rows, l.rest_sizes);
  std::optional<rt::Tensor> flat_view = rt::native::try_view(l.permuted, flat_shape);
  rt::Tensor flat = flat_view ? *flat_view : l.permuted.contiguous().reshape(flat_shape);
  rt::Args args{rt::IValue(flat), rt::IValue(int64_t(0)), rt::IValue(lin.reshape({-1})), rt::IValue(src)};
  rt::dispatch(rt::OpId::index_copy_, args);
  if (!flat_view) l.permuted.copy_(flat.reshape(l.permuted.sizes()));
}

}  // namespace

Value tensor_index(Interp& in, const rt::Tensor& t, const Value& key, const Span& where) {
  warn_uint8_mask(in, key, where);
  Indexed ix = apply_items(t, key_items(key), where);
  if (ix.index.empty()) return wrap(ix.view);
  rt::Tensor out = gather_advanced(ix, where);
  rt::autograd::name_result_node(out, t, "IndexBackward0");
  return wrap(out);
}

void tensor_set_index(Interp& in, const rt::Tensor& t, const Value& key, const Value& v, const Span& where) {
  warn_uint8_mask(in, key, where);
  const std::vector<Value> items = key_items(key);
  // x[mask] = number with a mask shaped like x: one masked_fill_.
  if (const rt::Tensor* m = items.size() == 1 ? bool_mask(items[0]) : nullptr; m && m->sizes() == t.sizes() && v.is_number()) {
    rt::Args args{rt::IValue(t), rt::IValue(m->to(t.device()).to(rt::DType::bool_)), rt::IValue(v.to_double())};
    rt::dispatch(rt::OpId::masked_fill_, args);
    return;
  }
  Indexed ix = apply_items(t, items, where);
  if (!ix.index.empty()) return scatter_advanced(ix, v, where);
  if (v.is_number()) {
    ix.view.fill_(v.is_float() ? rt::Scalar(v.as_float()) : v.is_bool() ? rt::Scalar(v.as_bool()) : rt::Scalar(v.as_int()));
    return;
  }
  ix.view.copy_(broadcast_values(value_tensor(v, ix.view, where), ix.view.sizes(), where));
}

}  // namespace amps::interp
