// Shape, split and view functions PyTorch has beyond the op table, composed of its ops (so autograd, autocast and
// every device come with them): view_as, reshape_as, ravel, unflatten, tensor_split, hsplit/vsplit/dsplit,
// split_with_sizes, the unsafe_* splits, the in-place view ops (t_, transpose_, squeeze_, unsqueeze_, as_strided_,
// detach_), resize_/resize_as_ (and the deprecated resize/resize_as), empty_strided/new_empty_strided, the *_copy
// functions, adjoint/mH/H, inner, diagflat, narrow_copy, sum_to_size, the in-place spellings tril_/triu_/cumsum_/
// cumprod_/renorm_, fill_diagonal_, is_same_size and storage_offset; and torch.movedim/moveaxis/unbind/numel as
// global functions (they were methods).
#include <fmt/format.h>

#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/warnings.hpp"
#include "interp/diagnostics.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/autograd/node.hpp"
#include "runtime/autograd/view_inplace.hpp"
#include "runtime/backend/common/scatter_extra_composites.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::interp {
namespace {

using O = rt::OpId;
using MethodMap = std::unordered_map<Atom, Value>;

const rt::Tensor& self_of(CallArgs& a, const char* fn) {
  if (a.pos.empty() || !a.pos.front().is(ObjKind::Tensor))
    Interp::fail("TypeError", fmt::format("{}(): argument 'input' must be Tensor", fn), a.span);
  return a.pos.front().as<TensorObj>()->tensor;
}

// Calls tensor method [name] of a.pos[0] with the rest of [a] (keywords included; split_with_sizes' split_sizes= is
// split's split_size=).
Value call_method(Interp& in, CallArgs& a, const char* name) {
  Value bound = a.pos.front().as<TensorObj>()->get_attr(in, intern(name));
  CallArgs rest;
  rest.span = a.span;
  rest.pos.assign(a.pos.begin() + 1, a.pos.end());
  rest.kw = a.kw;
  for (auto& [k, v] : rest.kw)
    if (*k == "split_sizes") k = intern("split_size");
  return in.call(bound, rest);
}

// Ints from v: an int, or a list/tuple/torch.Size of ints.
rt::Dims ints_of(Interp& in, const Value& v, const Span& where, const char* what) {
  if (v.is_int()) return {v.as_int()};
  rt::Dims out;
  in.iterate(v, where, [&](Value d) {
    if (!d.is_int()) Interp::fail("TypeError", fmt::format("{}: sizes must be ints, not {}", what, type_name(d)), where);
    out.push_back(d.as_int());
    return true;
  });
  return out;
}

// The ints after self: f(2, 3) or f([2, 3]) / f((2, 3)).
rt::Dims varargs_ints(Interp& in, CallArgs& a, const char* what) {
  if (a.pos.size() == 2) return ints_of(in, a.pos[1], a.span, what);
  rt::Dims out;
  for (size_t i = 1; i < a.pos.size(); ++i) {
    if (!a.pos[i].is_int()) Interp::fail("TypeError", fmt::format("{}(): arguments must be ints", what), a.span);
    out.push_back(a.pos[i].as_int());
  }
  return out;
}

// PyTorch's ScalarType name of a dtype (as its messages print it).
std::string scalar_type_name(rt::DType dt) {
  switch (dt) {
    case rt::DType::float32: return "Float";
    case rt::DType::float64: return "Double";
    case rt::DType::float16: return "Half";
    case rt::DType::bfloat16: return "BFloat16";
    case rt::DType::int64: return "Long";
    case rt::DType::int32: return "Int";
    case rt::DType::bool_: return "Bool";
    case rt::DType::uint8: return "Byte";
    case rt::DType::int8: return "Char";
    case rt::DType::int16: return "Short";
    default: return std::string(rt::dtype_name(dt));
  }
}

Value tensors_tuple(const rt::Tensors& parts) {
  std::vector<Value> items;
  for (const rt::Tensor& t : parts) items.push_back(wrap(t));
  return make_tuple(std::move(items));
}

// ---- view_as, reshape_as, ravel, unflatten

Value m_view_as(Interp&, CallArgs& a) {
  ArgReader r(a, "view_as", {"self", "other"});
  return wrap(rt::call_op(O::view, self_of(a, "view_as"), to_tensor(r.required(1), a.span).sizes()));
}

Value m_reshape_as(Interp&, CallArgs& a) {
  ArgReader r(a, "reshape_as", {"self", "other"});
  return wrap(rt::call_op(O::reshape, self_of(a, "reshape_as"), to_tensor(r.required(1), a.span).sizes()));
}

Value m_ravel(Interp&, CallArgs& a) {
  ArgReader r(a, "ravel", {"input"});
  return wrap(rt::call_op(O::reshape, self_of(a, "ravel"), rt::Dims{-1}));
}

// unflatten(dim, sizes): dim seen as sizes (one -1 inferred), a view as PyTorch's; its errors.
Value m_unflatten(Interp& in, CallArgs& a) {
  ArgReader r(a, "unflatten", {"input", "dim", "sizes"});
  const rt::Tensor& x = self_of(a, "unflatten");
  const int64_t d = rt::wrap_dim(r.int_or(1, 0), x.dim());
  const rt::Dims given = ints_of(in, r.required(2), a.span, "unflatten");
  if (given.empty()) Interp::fail("RuntimeError", "unflatten: sizes must be non-empty", a.span);
  rt::Dims sizes = given;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] != -1) {
      known *= sizes[i];
      continue;
    }
    if (infer >= 0)
      Interp::fail("RuntimeError", "unflatten got an unexpected error:\nonly one dimension can be inferred", a.span);
    infer = int64_t(i);
  }
  const int64_t n = x.size(d);
  if (infer >= 0 && known != 0 && n % known == 0) sizes[size_t(infer)] = n / known;
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  if (total != n || (infer >= 0 && known == 0))
    Interp::fail("RuntimeError", fmt::format("unflatten: Provided sizes [{}] don't multiply up to the size of dim {} "
                                             "({}) in the input tensor", fmt::join(given, ", "), r.int_or(1, 0), n),
                 a.span);
  rt::Dims shape(x.sizes().begin(), x.sizes().begin() + d);
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  shape.insert(shape.end(), x.sizes().begin() + d + 1, x.sizes().end());
  return wrap(rt::call_op(O::view, x, shape));
}

// ---- tensor_split, hsplit, vsplit, dsplit, split_with_sizes, unsafe_*

// Views of x along dim between consecutive cut points, each a slice as Python's (negative from the end; empty
// when a cut is before the previous one).
rt::Tensors split_at(const rt::Tensor& x, int64_t dim, const rt::Dims& cuts) {
  rt::Tensors parts;
  rt::IValue start(int64_t(0));
  for (size_t i = 0; i <= cuts.size(); ++i) {
    const rt::IValue end = i < cuts.size() ? rt::IValue(cuts[i]) : rt::IValue();
    parts.push_back(rt::call_op(O::slice, x, dim, start, end, int64_t(1)));
    start = end;
  }
  return parts;
}

rt::Tensors split_sections(const rt::Tensor& x, int64_t dim, int64_t sections, const Span& where) {
  if (sections <= 0)
    Interp::fail("RuntimeError", fmt::format("number of sections must be larger than 0, got {}", sections), where);
  const int64_t n = x.size(dim), base = n / sections, extra = n % sections;
  rt::Dims cuts;
  int64_t at = 0;
  for (int64_t i = 0; i + 1 < sections; ++i) cuts.push_back(at += base + (i < extra ? 1 : 0));
  return split_at(x, dim, cuts);
}

// tensor_split(input, indices_or_sections, dim=0): an int (or 0-dim int64 tensor) of sections, the first
// size % n of them one longer; or a list (or 1-D int64 tensor) of cut indices.
Value b_tensor_split(Interp& in, CallArgs& a) {
  for (auto& [k, v] : a.kw)
    if (*k == "sections" || *k == "indices" || *k == "tensor_indices_or_sections") k = intern("indices_or_sections");
  ArgReader r(a, "tensor_split", {"input", "indices_or_sections", "dim"});
  const rt::Tensor& x = self_of(a, "tensor_split");
  if (x.dim() == 0)
    Interp::fail("RuntimeError", fmt::format("tensor_split expected at least a 1-dimensional tensor, but got a tensor "
                                             "with {} dims", x.dim()), a.span);
  const int64_t dim = rt::wrap_dim(r.int_or(2, 0), x.dim());
  const Value& spec = r.required(1);
  if (const rt::Tensor* t = tensor_of(spec)) {
    if (t->dtype() != rt::DType::int64)
      Interp::fail("RuntimeError", fmt::format("tensor_split expected tensor_indices_or_sections to have dtype of long, "
                                               "but got {}", scalar_type_name(t->dtype())), a.span);
    if (t->dim() > 1)
      Interp::fail("RuntimeError", fmt::format("tensor_split expected tensor_indices_or_sections to be a "
                                               "zero-dimensional or one-dimensional tensor, but got a tensor with {} "
                                               "dims", t->dim()), a.span);
    std::vector<double> v = t->to_doubles();
    if (t->dim() == 0) return tensors_tuple(split_sections(x, dim, int64_t(v[0]), a.span));
    rt::Dims cuts;
    for (double d : v) cuts.push_back(int64_t(d));
    return tensors_tuple(split_at(x, dim, cuts));
  }
  if (spec.is_int()) return tensors_tuple(split_sections(x, dim, spec.as_int(), a.span));
  return tensors_tuple(split_at(x, dim, ints_of(in, spec, a.span, "tensor_split")));
}

// hsplit/vsplit/dsplit(input, indices_or_sections): tensor_split along dim 1 (0 for 1-D) / 0 / 2, an int needing
// to divide the dim evenly.
template <int Kind> Value b_xsplit(Interp& in, CallArgs& a) {
  static constexpr const char* names[] = {"hsplit", "vsplit", "dsplit"};
  const char* name = names[Kind];
  ArgReader r(a, name, {"input", "indices_or_sections"});
  const rt::Tensor& x = self_of(a, name);
  const int64_t need = Kind == 0 ? 1 : Kind == 1 ? 2 : 3;
  if (x.dim() < need)
    Interp::fail("RuntimeError", fmt::format("torch.{} requires a tensor with at least {} dimension, but got a tensor "
                                             "with {} dimensions!", name, need, x.dim()), a.span);
  const int64_t dim = Kind == 0 ? (x.dim() == 1 ? 0 : 1) : Kind == 1 ? 0 : 2;
  const Value& spec = r.required(1);
  if (spec.is_int()) {
    const int64_t s = spec.as_int();
    if (s == 0 || x.size(dim) % s != 0)
      Interp::fail("RuntimeError", fmt::format("torch.{} attempted to split along dimension {}, but the size of the "
                                               "dimension {} is not divisible by the split_size {}!", name, dim,
                                               x.size(dim), s), a.span);
    return tensors_tuple(split_sections(x, dim, s, a.span));
  }
  return tensors_tuple(split_at(x, dim, ints_of(in, spec, a.span, name)));
}

// A function or method that is op [op] under another name (split_with_sizes is split.sizes; the unsafe_* forms
// return the same views as the safe ones).
Native::Fn same_as(const char* name) {
  return [name](Interp& in, CallArgs& a) {
    self_of(a, name);
    return call_method(in, a, name);
  };
}

// ---- in-place view ops: self (every handle to it) takes the view's geometry and history

void check_inplace_leaf(const rt::Tensor& self, const Span& where) {
  if (self.requires_grad() && self.is_leaf() && rt::current_context().grad_enabled())
    Interp::fail("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation.", where);
}

// self becomes the view [make] returns (a view of self): its sizes, strides and offset, and the view op's node as
// its history, as PyTorch's in-place view ops re-point the one TensorImpl. The version counter moves first, as for
// any in-place op (a graph that saved self refuses to use it afterwards; the view op's own node saves after).
// Returns self's own object.
template <typename F> Value become(CallArgs& a, F&& make) {
  const rt::Tensor& self = a.pos.front().as<TensorObj>()->tensor;
  self.bump_version();
  const rt::Tensor v = make();
  self.impl()->set_geometry(v.sizes(), v.strides(), v.storage_offset());
  if (const rt::AutogradMeta* m = v.autograd_meta(); m && m->grad_fn)
    rt::autograd::set_history(self, std::static_pointer_cast<rt::autograd::GradNode>(m->grad_fn), m->output_nr);
  rt::autograd::mark_view_history(self);  // the history just set is current
  return a.pos.front();
}

Value m_t_(Interp&, CallArgs& a) {
  ArgReader r(a, "t_", {"self"});
  const rt::Tensor& x = self_of(a, "t_");
  if (x.dim() > 2)
    Interp::fail("RuntimeError", fmt::format("t_() expects a tensor with <= 2 dimensions, but self is {}D", x.dim()),
                 a.span);
  check_inplace_leaf(x, a.span);
  return become(a, [&] { return rt::call_op(O::t, x); });
}

Value m_transpose_(Interp&, CallArgs& a) {
  for (auto& [k, v] : a.kw)
    if (*k == "axis0" || *k == "dim0") k = intern("dim0");
    else if (*k == "axis1" || *k == "dim1") k = intern("dim1");
  ArgReader r(a, "transpose_", {"self", "dim0", "dim1"});
  const rt::Tensor& x = self_of(a, "transpose_");
  const int64_t d0 = r.int_or(1, 0), d1 = r.int_or(2, 0);
  r.required(1), r.required(2);
  rt::wrap_dim(d0, x.dim()), rt::wrap_dim(d1, x.dim());
  check_inplace_leaf(x, a.span);
  return become(a, [&] { return rt::call_op(O::transpose, x, d0, d1); });
}

Value m_squeeze_(Interp& in, CallArgs& a) {
  ArgReader r(a, "squeeze_", {"self", "dim"});
  const rt::Tensor& x = self_of(a, "squeeze_");
  rt::Dims dims;
  if (r.has(1) && !r.get(1).is_none()) dims = ints_of(in, r.get(1), a.span, "squeeze_");
  for (int64_t d : dims) rt::wrap_dim(d, x.dim());
  check_inplace_leaf(x, a.span);
  const bool given = r.has(1) && !r.get(1).is_none();
  return become(a, [&] { return rt::call_op(O::squeeze, x, given ? rt::IValue(dims) : rt::IValue()); });
}

Value m_unsqueeze_(Interp&, CallArgs& a) {
  ArgReader r(a, "unsqueeze_", {"self", "dim"});
  const rt::Tensor& x = self_of(a, "unsqueeze_");
  r.required(1);
  const int64_t d = r.int_or(1, 0);
  rt::wrap_dim(d, x.dim() + 1);
  check_inplace_leaf(x, a.span);
  return become(a, [&] { return rt::call_op(O::unsqueeze, x, d); });
}

// detach_(): self leaves the graph (no history, requires_grad off); views refuse, as PyTorch's.
Value m_detach_(Interp&, CallArgs& a) {
  ArgReader r(a, "detach_", {"input"});
  const rt::Tensor& x = self_of(a, "detach_");
  rt::AutogradMeta* m = x.autograd_meta();
  if (!m) return a.pos.front();
  if (m->view_base.defined())
    Interp::fail("RuntimeError", "Can't detach views in-place. Use detach() instead. If you are using "
                 "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients "
                 "are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, "
                 "please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.",
                 a.span);
  m->grad_fn.reset();
  m->output_nr = 0;
  m->requires_grad = false;
  return a.pos.front();
}

// as_strided_(size, stride, storage_offset=None): self takes the as_strided view's geometry.
Value m_as_strided_(Interp& in, CallArgs& a) {
  ArgReader r(a, "as_strided_", {"self", "size", "stride", "storage_offset"});
  const rt::Tensor& x = self_of(a, "as_strided_");
  const rt::Dims size = ints_of(in, r.required(1), a.span, "as_strided_");
  const rt::Dims stride = ints_of(in, r.required(2), a.span, "as_strided_");
  const rt::IValue offset = r.has(3) && !r.get(3).is_none() ? rt::IValue(r.int_or(3, 0)) : rt::IValue();
  check_inplace_leaf(x, a.span);
  // as_strided's gradient reads its input's geometry: it is given a view of self (same geometry, own impl), which
  // the re-pointing of self leaves alone
  return become(a, [&] { return rt::call_op(O::as_strided, rt::call_op(O::view, x, x.sizes()), size, stride, offset); });
}

// empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False) and Tensor.new_empty_strided (self's
// dtype and device unless given): uninitialised, with exactly the given strides.
Value empty_strided_of(Interp& in, CallArgs& a, ArgReader& r, size_t first, rt::DType dt, rt::Device dev) {
  const rt::Dims size = ints_of(in, r.required(first), a.span, "empty_strided");
  const rt::Dims stride = ints_of(in, r.required(first + 1), a.span, "empty_strided");
  if (size.size() != stride.size())
    Interp::fail("RuntimeError", fmt::format("dimensionality of sizes ({}) must match dimensionality of strides ({})",
                                             size.size(), stride.size()), a.span);
  for (int64_t s : size)
    if (s < 0)
      Interp::fail("RuntimeError", fmt::format("Trying to create tensor with negative dimension {}: [{}]", s,
                                               fmt::join(size, ", ")), a.span);
  for (int64_t s : stride)
    if (s < 0)
      Interp::fail("RuntimeError", fmt::format("Storage size calculation overflowed with sizes=[{}] and strides=[{}]",
                                               fmt::join(size, ", "), fmt::join(stride, ", ")), a.span);
  if (r.has(first + 2) && !r.get(first + 2).is_none()) {
    std::optional<rt::DType> d = script_dtype(r.get(first + 2));
    if (!d) r.type_error(first + 2, "a dtype");
    dt = *d;
  }
  if (r.has(first + 3) && !r.get(first + 3).is_none()) dev = device_of(r.get(first + 3), a.span);
  rt::Tensor t = rt::Tensor::empty_strided(size, stride, dt, dev);
  if (r.bool_or(first + 4, false)) t.set_requires_grad(true);
  return wrap(t);
}

Value b_empty_strided(Interp& in, CallArgs& a) {
  ArgReader r(a, "empty_strided", {"size", "stride", "dtype", "device", "requires_grad"});
  return empty_strided_of(in, a, r, 0, in.runtime().default_dtype(), in.runtime().default_device());
}

Value m_new_empty_strided(Interp& in, CallArgs& a) {
  const rt::Tensor& x = self_of(a, "new_empty_strided");
  ArgReader r(a, "new_empty_strided", {"self", "size", "stride", "dtype", "device", "requires_grad"});
  return empty_strided_of(in, a, r, 1, x.dtype(), x.device());
}

// resize_(*sizes) / resize_as_(other): self takes row-major strides for the new sizes at its storage offset (its
// strides kept when the sizes do not change), its storage grown (contents kept) when too small. A grown storage is
// this tensor's alone: other views keep the old one (PyTorch grows the shared storage in place).
Value resize_to(CallArgs& a, const rt::Dims& sizes) {
  const rt::Tensor& x = a.pos.front().as<TensorObj>()->tensor;
  if (x.requires_grad()) Interp::fail("RuntimeError", "cannot resize variables that require grad", a.span);
  for (int64_t s : sizes)
    if (s < 0) Interp::fail("RuntimeError", "numel: integer multiplication overflow", a.span);
  if (sizes == x.sizes()) return a.pos.front();
  const int64_t need = x.storage_offset() + rt::numel_of(sizes);
  const int64_t have = int64_t(x.storage()->nbytes() / x.element_size());
  if (need > have) {
    rt::Tensor fresh = rt::Tensor::empty({need}, x.dtype(), x.device());
    rt::native::as_strided(fresh, {have}, {1}, 0).copy_(rt::native::as_strided(x, {have}, {1}, 0));
    x.impl()->set_storage(fresh.storage());
  }
  x.impl()->set_geometry(sizes, rt::contiguous_strides(sizes), x.storage_offset());
  return a.pos.front();
}

Value m_resize_(Interp& in, CallArgs& a) {
  self_of(a, "resize_");
  for (auto it = a.kw.begin(); it != a.kw.end(); ++it)
    if (*it->first == "memory_format") {  // only the default (contiguous) layout exists
      a.kw.erase(it);
      break;
    }
  return resize_to(a, varargs_ints(in, a, "resize_"));
}

Value b_resize_as_(Interp&, CallArgs& a) {
  ArgReader r(a, "resize_as_", {"input", "the_template"});
  self_of(a, "resize_as_");
  return resize_to(a, to_tensor(r.required(1), a.span).sizes());
}

// Tensor.resize(*sizes) / resize_as(other), deprecated in PyTorch (a UserWarning, once here): autograd's Resize, a
// reshape that must keep the number of elements.
Value resized_copy(Interp& in, CallArgs& a, const rt::Dims& sizes, const char* name) {
  static bool warned[2] = {false, false};
  bool& w = warned[std::string_view(name) == "resize" ? 0 : 1];
  if (!w) emit_warning(in, "UserWarning", fmt::format("non-inplace {} is deprecated", name), a.span);
  w = true;
  const rt::Tensor& x = a.pos.front().as<TensorObj>()->tensor;
  if (rt::numel_of(sizes) != x.numel())
    Interp::fail("RuntimeError", fmt::format("requested resize to {} ({} elements in total), but the given tensor has a "
                                             "size of {} ({} elements). autograd's resize can only change the shape of "
                                             "a given tensor, while preserving the number of elements. ",
                                             fmt::join(sizes, "x"), rt::numel_of(sizes), fmt::join(x.sizes(), "x"),
                                             x.numel()), a.span);
  return wrap(rt::call_op(O::reshape, x, sizes));
}

// ---- *_copy: the view op's result(s) as new tensors, with the view's strides when it is dense (as PyTorch's clone
// with memory_format=preserve), else row-major

rt::Tensor preserving_copy(const rt::Tensor& t) {
  if (t.is_contiguous() || !rt::common::dense_layout(t)) return rt::call_op(O::clone, t);
  rt::Tensor out = rt::Tensor::empty_strided(t.sizes(), t.strides(), t.dtype(), t.device());
  return out.copy_(t);
}

Value cloned(const Value& v) {
  if (const rt::Tensor* t = tensor_of(v)) return wrap(preserving_copy(*t));
  std::vector<Value> items;
  for (const Value& x : v.as<Tuple>()->items) items.push_back(cloned(x));
  return make_tuple(std::move(items));
}

Native::Fn copy_of(const char* view_name, const char* name) {
  return [view_name, name](Interp& in, CallArgs& a) {
    self_of(a, name);
    return cloned(call_method(in, a, view_name));
  };
}

// ---- adjoint, inner, diagflat, sum_to_size, in-place spellings, fill_diagonal_

rt::Tensor adjoint_of(const rt::Tensor& x, const char* what, const Span& where) {
  if (x.dim() < 2)
    Interp::fail("RuntimeError", fmt::format("tensor.{} is only supported on matrices or batches of matrices. Got {}-D "
                                             "tensor.", what, x.dim()), where);
  return rt::call_op(O::transpose, x, int64_t(-2), int64_t(-1));
}

Value m_adjoint(Interp&, CallArgs& a) {
  ArgReader r(a, "adjoint", {"input"});
  return wrap(adjoint_of(self_of(a, "adjoint"), "adjoint()", a.span));
}

// inner(input, other): the sum over the last dims of the two (a product when either is 0-dim).
Value b_inner(Interp&, CallArgs& a) {
  ArgReader r(a, "inner", {"input", "other"});
  const rt::Tensor x = to_tensor(r.required(0), a.span), y = to_tensor(r.required(1), a.span);
  if (x.dim() == 0 || y.dim() == 0) return wrap(rt::call_op(O::mul, x, y));
  if (x.size(-1) != y.size(-1))
    Interp::fail("RuntimeError", fmt::format("inner() the last dimension must match on both input tensors but got "
                                             "shapes [{}] and [{}]", fmt::join(x.sizes(), ", "),
                                             fmt::join(y.sizes(), ", ")), a.span);
  return wrap(rt::call_op(O::tensordot, x, y, rt::Dims{-1}, rt::Dims{-1}));
}

Value b_diagflat(Interp&, CallArgs& a) {
  ArgReader r(a, "diagflat", {"input", "offset"});
  const rt::Tensor& x = self_of(a, "diagflat");
  return wrap(rt::call_op(O::diag, rt::call_op(O::reshape, x, rt::Dims{-1}), r.int_or(1, 0)));
}

Value m_sum_to_size(Interp& in, CallArgs& a) {
  const rt::Tensor& x = self_of(a, "sum_to_size");
  const rt::Dims size = varargs_ints(in, a, "sum_to_size");
  const int64_t lead = x.dim() - int64_t(size.size());
  bool ok = lead >= 0;
  for (size_t i = 0; ok && i < size.size(); ++i) {
    const int64_t have = x.size(lead + int64_t(i));
    ok = size[i] == have || size[i] == 1;
  }
  if (!ok)
    Interp::fail("RuntimeError", fmt::format("size {{[{}]}} is not expandable to size {{[{}]}}.", fmt::join(size, ", "),
                                             fmt::join(x.sizes(), ", ")), a.span);
  rt::Dims dims;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d < lead || (size[size_t(d - lead)] == 1 && x.size(d) != 1)) dims.push_back(d);
  if (dims.empty()) return a.pos.front();
  rt::Tensor s = rt::call_op(O::sum, x, dims, true);
  return wrap(lead > 0 ? rt::call_op(O::reshape, s, size) : s);
}

// tril_/triu_/cumsum_/cumprod_/renorm_: the op's result copied into self (self's dtype kept), self returned.
Native::Fn inplace_of(const char* op, const char* name) {
  return [op, name](Interp& in, CallArgs& a) {
    const rt::Tensor& x = self_of(a, name);
    check_inplace_leaf(x, a.span);
    Value out = call_method(in, a, op);
    rt::Tensor self = x;
    self.copy_(*tensor_of(out));
    return a.pos.front();
  };
}

// fill_diagonal_(fill_value, wrap=False): the main diagonal of a 2-D (or all-equal-dims) tensor set to
// fill_value; a tall matrix with wrap restarts the diagonal every ncols + 1 rows.
Value m_fill_diagonal_(Interp& in, CallArgs& a) {
  ArgReader r(a, "fill_diagonal_", {"self", "fill_value", "wrap"});
  const rt::Tensor& x = self_of(a, "fill_diagonal_");
  const Value& fill = r.required(1);
  const bool wrap_around = r.has(2) && in.truthy(r.get(2));
  if (x.dim() < 2) Interp::fail("RuntimeError", "dimensions must larger than 1", a.span);
  for (int64_t d = 1; d < x.dim() && x.dim() > 2; ++d)
    if (x.size(d) != x.size(0)) Interp::fail("RuntimeError", "all dimensions of input must be of equal length", a.span);
  const rt::Dims strides = rt::contiguous_strides(x.sizes());
  int64_t step = 0;
  for (int64_t s : strides) step += s;
  int64_t end = std::min(x.size(0), x.size(1)) * (x.dim() == 2 ? x.size(1) : step);
  if (x.dim() == 2 && wrap_around && x.size(0) > x.size(1) + 1) end = x.numel();
  std::vector<double> mask(size_t(x.numel()), 0.0);
  for (int64_t p = 0; p < end && p < x.numel(); p += step) mask[size_t(p)] = 1.0;
  const rt::Tensor m = rt::Tensor::from_doubles(mask, x.sizes(), rt::DType::bool_).to(x.device());
  rt::Tensor self = x;
  check_inplace_leaf(self, a.span);
  rt::Args args{rt::IValue(self), rt::IValue(m), fill.is_float() ? rt::IValue(fill.as_float())
                                                 : fill.is_bool() ? rt::IValue(fill.as_bool())
                                                                  : rt::IValue(fill.as_int())};
  rt::dispatch(O::masked_fill_, args);
  return a.pos.front();
}

Value b_is_same_size(Interp&, CallArgs& a) {
  ArgReader r(a, "is_same_size", {"input", "other"});
  return Value(self_of(a, "is_same_size").sizes() == to_tensor(r.required(1), a.span).sizes());
}

// ---- tables

void add(MethodMap& m, const char* name, Native::Fn fn) { m[intern(name)] = make<Native>(name, std::move(fn)); }

struct Named {
  const char* name;
  Native::Fn fn;
};

// Both torch.X and Tensor.X.
std::vector<Named> shared_names() {
  return {{"ravel", m_ravel},
          {"unflatten", m_unflatten},
          {"tensor_split", b_tensor_split},
          {"hsplit", b_xsplit<0>},
          {"vsplit", b_xsplit<1>},
          {"dsplit", b_xsplit<2>},
          {"split_with_sizes", same_as("split")},
          {"unsafe_split", same_as("split")},
          {"unsafe_split_with_sizes", same_as("split")},
          {"unsafe_chunk", same_as("chunk")},
          {"detach_", m_detach_},
          {"as_strided_", m_as_strided_},
          {"resize_as_", b_resize_as_},
          {"adjoint", m_adjoint},
          {"inner", b_inner},
          {"diagflat", b_diagflat},
          {"narrow_copy", copy_of("narrow", "narrow_copy")},
          {"is_same_size", b_is_same_size}};
}

// torch.X only: the *_copy functions, and the methods that were missing as functions.
std::vector<Named> function_names() {
  return {{"alias_copy", [](Interp&, CallArgs& a) { return wrap(preserving_copy(self_of(a, "alias_copy"))); }},
          // PyTorch 1.13's detach_copy keeps the graph (its output requires grad): a differentiable copy, as there
          {"detach_copy", [](Interp&, CallArgs& a) { return wrap(preserving_copy(self_of(a, "detach_copy"))); }},
          {"diagonal_copy", copy_of("diagonal", "diagonal_copy")},
          {"expand_copy", copy_of("expand", "expand_copy")},
          {"permute_copy", copy_of("permute", "permute_copy")},
          {"select_copy", copy_of("select", "select_copy")},
          {"slice_copy", copy_of("slice", "slice_copy")},
          {"split_copy", copy_of("split", "split_copy")},
          {"split_with_sizes_copy", copy_of("split", "split_with_sizes_copy")},
          {"squeeze_copy", copy_of("squeeze", "squeeze_copy")},
          {"t_copy", copy_of("t", "t_copy")},
          {"transpose_copy", copy_of("transpose", "transpose_copy")},
          {"unbind_copy", copy_of("unbind", "unbind_copy")},
          {"unfold_copy", copy_of("unfold", "unfold_copy")},
          {"unsqueeze_copy", copy_of("unsqueeze", "unsqueeze_copy")},
          {"view_copy", copy_of("view", "view_copy")},
          {"as_strided_copy", copy_of("as_strided", "as_strided_copy")},
          {"empty_strided", b_empty_strided},
          {"movedim", same_as("movedim")},
          {"moveaxis", same_as("movedim")},
          {"unbind", same_as("unbind")},
          {"numel", same_as("numel")}};
}

// Tensor.X only.
std::vector<Named> method_names() {
  return {{"view_as", m_view_as},
          {"reshape_as", m_reshape_as},
          {"t_", m_t_},
          {"transpose_", m_transpose_},
          {"swapaxes_", m_transpose_},
          {"swapdims_", m_transpose_},
          {"squeeze_", m_squeeze_},
          {"unsqueeze_", m_unsqueeze_},
          {"sum_to_size", m_sum_to_size},
          {"tril_", inplace_of("tril", "tril_")},
          {"triu_", inplace_of("triu", "triu_")},
          {"cumsum_", inplace_of("cumsum", "cumsum_")},
          {"cumprod_", inplace_of("cumprod", "cumprod_")},
          {"renorm_", inplace_of("renorm", "renorm_")},
          {"fill_diagonal_", m_fill_diagonal_},
          {"new_empty_strided", m_new_empty_strided},
          {"resize_", m_resize_},
          {"resize", [](Interp& in, CallArgs& a) {
             self_of(a, "resize");
             return resized_copy(in, a, varargs_ints(in, a, "resize"), "resize");
           }},
          {"resize_as", [](Interp& in, CallArgs& a) {
             ArgReader r(a, "resize_as", {"self", "the_template"});
             self_of(a, "resize_as");
             return resized_copy(in, a, to_tensor(r.required(1), a.span).sizes(), "resize_as");
           }},
          {"storage_offset", [](Interp&, CallArgs& a) { return Value(self_of(a, "storage_offset").storage_offset()); }}};
}

}  // namespace

// x.mH: the last two dims swapped (conjugation is a no-op for the real dtypes amps has).
Value tensor_mH(const rt::Tensor& t) { return wrap(adjoint_of(t, "mH", Span{})); }

// x.H: a matrix transposed (2-D only, as PyTorch's).
Value tensor_H(const rt::Tensor& t) {
  if (t.dim() != 2)
    Interp::fail("RuntimeError", fmt::format("tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.{}",
                                             t.dim(), t.dim() > 2 ? " For batches of matrices, consider using tensor.mH"
                                                                  : ""), Span{});
  return wrap(rt::call_op(O::transpose, t, int64_t(0), int64_t(1)));
}

void add_view_methods(MethodMap& m) {
  for (auto& n : shared_names()) add(m, n.name, n.fn);
  for (auto& n : method_names()) add(m, n.name, n.fn);
}

void install_view_builtins(Interp& in) {
  for (auto& n : shared_names()) in.def_native(n.name, n.fn);
  for (auto& n : function_names()) in.def_native(n.name, n.fn);
}

}  // namespace amps::interp
