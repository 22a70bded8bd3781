// Tensor indexing with PyTorch's rules: ints select, slices view, none inserts a dim, `...`
// skips dims; a long tensor or int list picks rows (index_select); a bool mask picks elements.
// Assignment writes through the same views (copy_/fill_) or index_copy_/masked_fill_.
#include <fmt/format.h>

#include "interp/tensor_value.hpp"
#include "runtime/error.hpp"

namespace amps::interp {
namespace {

std::vector<Value> key_items(const Value& key) {
  if (key.is(ObjKind::Tuple)) return key.as<Tuple>()->items;
  return {key};
}

bool is_ellipsis(const Value& v) { return v.is(ObjKind::Str) && v.as<Str>()->value == "..."; }

// Items that consume a dimension of the indexed tensor (everything but none and `...`).
int64_t consuming(const std::vector<Value>& items) {
  int64_t n = 0;
  for (auto& v : items) n += !(v.is_none() || is_ellipsis(v));
  return n;
}

std::optional<int64_t> opt_int(const Value& v, const Span& where) {
  if (v.is_none()) return std::nullopt;
  if (!v.is_int() && !v.is_bool()) Interp::fail("TypeError", "slice indices must be integers or none, not " + type_name(v), where);
  return v.as_int();
}

// An advanced index (long tensor or list of ints) as an int64 tensor.
rt::Tensor index_tensor(const Value& v, const Span& where) {
  rt::Tensor t = to_tensor(v, where);
  if (t.dtype() != rt::DType::int64 && t.dtype() != rt::DType::int32)
    Interp::fail("IndexError", fmt::format("tensors used as indices must be long, int or bool, not {}", rt::dtype_name(t.dtype())), where);
  return t;
}

rt::Tensor select_rows(const rt::Tensor& t, int64_t dim, const rt::Tensor& idx) {
  rt::Args args{rt::IValue(t), rt::IValue(dim), rt::IValue(idx.reshape({-1}))};
  rt::Tensor out = rt::dispatch(rt::OpId::index_select, args)[0];
  if (idx.dim() == 1) return out;
  rt::Dims shape(t.sizes().begin(), t.sizes().begin() + dim);
  shape.insert(shape.end(), idx.sizes().begin(), idx.sizes().end());
  shape.insert(shape.end(), t.sizes().begin() + dim + 1, t.sizes().end());
  return out.reshape(shape);
}

// Positions (row-major) of the true elements of a bool mask.
std::vector<double> mask_positions(const rt::Tensor& mask) {
  std::vector<double> vals = mask.contiguous().to_doubles(), pos;
  for (size_t i = 0; i < vals.size(); ++i)
    if (vals[i] != 0) pos.push_back(double(i));
  return pos;
}

rt::Tensor apply_mask(const rt::Tensor& t, const rt::Tensor& mask, const Span& where) {
  if (mask.sizes() != rt::Dims(t.sizes().begin(), t.sizes().begin() + std::min<size_t>(t.dim(), mask.dim())))
    Interp::fail("IndexError", "the shape of the mask does not match the shape of the indexed tensor", where);
  auto pos = mask_positions(mask);
  rt::Dims flat_shape{-1};
  flat_shape.insert(flat_shape.end(), t.sizes().begin() + mask.dim(), t.sizes().end());
  rt::Tensor idx = rt::Tensor::from_doubles(pos, {int64_t(pos.size())}, rt::DType::int64);
  return select_rows(t.reshape(flat_shape), 0, idx);
}

// Basic indexing as a chain of views; advanced items are applied last, one at most.
rt::Tensor view_for(const rt::Tensor& t, const std::vector<Value>& items, const Span& where) {
  if (consuming(items) > t.dim())
    Interp::fail("IndexError", fmt::format("too many indices for tensor of dimension {}", t.dim()), where);
  rt::Tensor cur = t;
  int64_t dim = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const Value& v = items[i];
    if (v.is_int() || v.is_bool()) {
      int64_t n = cur.size(dim), k = v.as_int();
      if (k < -n || k >= n) Interp::fail("IndexError", fmt::format("index {} is out of bounds for dimension {} with size {}", k, dim, n), where);
      cur = cur.select(dim, k);
    } else if (v.is(ObjKind::Slice)) {
      auto* s = v.as<SliceObj>();
      int64_t step = s->step.is_none() ? 1 : opt_int(s->step, where).value();
      if (step <= 0) Interp::fail("ValueError", "step must be greater than zero", where);
      cur = cur.slice(dim++, opt_int(s->lo, where), opt_int(s->hi, where), step);
    } else if (v.is_none()) {
      cur = cur.unsqueeze(dim++);
    } else if (is_ellipsis(v)) {
      dim += cur.dim() - dim - (consuming(items) - consuming({items.begin(), items.begin() + i}));
    } else if (const rt::Tensor* m = tensor_of(v); m && m->dtype() == rt::DType::bool_) {
      if (items.size() != 1) Interp::fail("IndexError", "a bool mask index must be the only index", where);
      return apply_mask(cur, *m, where);
    } else {
      cur = select_rows(cur, dim++, index_tensor(v, where));
    }
  }
  return cur;
}

}  // namespace

Value tensor_index(Interp&, const rt::Tensor& t, const Value& key, const Span& where) {
  return wrap(view_for(t, key_items(key), where));
}

void tensor_set_index(Interp&, const rt::Tensor& t, const Value& key, const Value& v, const Span& where) {
  auto items = key_items(key);
  const rt::Tensor* src = tensor_of(v);
  if (items.size() == 1) {
    const rt::Tensor* m = tensor_of(items[0]);
    if (m && m->dtype() == rt::DType::bool_) {
      if (!v.is_number()) Interp::fail("TypeError", "assigning through a bool mask needs a number", where);
      rt::Args args{rt::IValue(t), rt::IValue(*m), rt::IValue(v.to_double())};
      rt::dispatch(rt::OpId::masked_fill_, args);
      return;
    }
    if (m || items[0].is(ObjKind::List)) {
      rt::Tensor idx = index_tensor(items[0], where);
      rt::Tensor values = src ? *src : rt::Tensor::scalar(rt::Scalar(v.to_double()), t.dtype()).expand(view_for(t, items, where).sizes()).contiguous();
      rt::Args args{rt::IValue(t), rt::IValue(int64_t(0)), rt::IValue(idx.reshape({-1})), rt::IValue(values)};
      rt::dispatch(rt::OpId::index_copy_, args);
      return;
    }
  }
  rt::Tensor view = view_for(t, items, where);
  if (src) view.copy_(*src);
  else if (v.is_number()) view.fill_(v.is_float() ? rt::Scalar(v.as_float()) : v.is_bool() ? rt::Scalar(v.as_bool()) : rt::Scalar(v.as_int()));
  else Interp::fail("TypeError", "can only assign a Tensor or a number into a tensor, not " + type_name(v), where);
}

}  // namespace amps::interp
