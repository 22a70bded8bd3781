// Tensor methods PyTorch has that are compositions of other ops (so autograd, autocast and every device come
// with them): expand_as, type_as, new_zeros/new_ones/new_empty/new_full/new_tensor, the legacy new, unbind, movedim,
// repeat, flip, stride.
#include <fmt/format.h>

#include <numeric>
#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::interp {
namespace {

const rt::Tensor& self_of(CallArgs& a) { return a.pos.front().as<TensorObj>()->tensor; }

void add(std::unordered_map<Atom, Value>& m, const char* name, Native::Fn fn) {
  m[intern(name)] = make<Native>(name, std::move(fn));
}

// Ints from the arguments after self: f(2, 3) or f([2, 3]) / f((2, 3)).
rt::Dims int_args(Interp& in, CallArgs& a, const char* what) {
  std::vector<Value> items(a.pos.begin() + 1, a.pos.end());
  if (items.size() == 1 && !items[0].is_int()) {
    items.clear();
    in.iterate(a.pos[1], a.span, [&](Value v) {
      items.push_back(std::move(v));
      return true;
    });
  }
  rt::Dims out;
  for (const Value& v : items) {
    if (!v.is_int()) Interp::fail("TypeError", fmt::format("{}(): arguments must be ints, not {}", what, type_name(v)), a.span);
    out.push_back(v.as_int());
  }
  return out;
}

// new_zeros/new_ones/new_empty/new_full/new_tensor: the global factory [factory] with self's dtype and device
// unless the call names its own.
Native::Fn new_like(const char* factory) {
  return [factory](Interp& in, CallArgs& a) {
    const rt::Tensor& self = self_of(a);
    CallArgs call;
    call.span = a.span;
    call.pos.assign(a.pos.begin() + 1, a.pos.end());
    call.kw = a.kw;
    auto has = [&](const char* k) {
      return std::any_of(a.kw.begin(), a.kw.end(), [&](const auto& kv) { return *kv.first == k; });
    };
    if (!has("dtype")) call.kw.emplace_back(intern("dtype"), wrap_dtype(self.dtype()));
    if (!has("device")) call.kw.emplace_back(intern("device"), wrap_device(self.device()));
    return in.call(in.lookup_global(factory), call);
  };
}

std::string tensor_options(const rt::Tensor& t) {
  return fmt::format("TensorOptions(dtype={}, device={}, layout=Strided, requires_grad=false (default), "
                     "pinned_memory=false (default), memory_format=(nullopt))", aten_type_name(t.dtype()),
                     rt::device_str(t.device()) == "cpu" ? "cpu" : rt::device_str(t.device()));
}

// Tensor.new(*args), PyTorch's legacy constructor with self's dtype and device: () an empty tensor, ints a tensor of
// that size (zeros: PyTorch's memory is uninitialised), a list or tuple the data, a tensor of self's dtype and device
// an alias of it (another is PyTorch's TypeError).
Value m_new(Interp& in, CallArgs& a) {
  const rt::Tensor& self = self_of(a);
  CallArgs c = a;
  if (c.pos.size() == 1) {
    c.pos.push_back(Value(int64_t(0)));
    return new_like("zeros")(in, c);
  }
  const Value& first = c.pos[1];
  if (first.is_int() && !first.is_bool()) {
    for (size_t i = 1; i < c.pos.size(); ++i)
      if (!c.pos[i].is_int() || c.pos[i].is_bool())
        Interp::fail("TypeError", fmt::format("new(): argument 'size' must be tuple of ints, but found element of type "
                                              "{} at pos {}", type_name(c.pos[i]), i), a.span);
    return new_like("zeros")(in, c);
  }
  if (c.pos.size() != 2) Interp::fail("TypeError", "new() takes sizes (ints) or one sequence of data", a.span);
  if (const rt::Tensor* t = tensor_of(first)) {
    if (t->dtype() != self.dtype() || t->device() != self.device())
      Interp::fail("TypeError", fmt::format("expected {} (got {})", tensor_options(self), tensor_options(*t)), a.span);
    return in.call(in.get_attr(first, intern("view_as"), a.span), std::vector<Value>{first});
  }
  return new_like("tensor")(in, c);
}

}  // namespace

// The slices along dim as split(1, dim) squeezed: one backward node joins the slices' gradients. (A select per
// slice would give each slice a zero-filled full-size gradient to add up: quadratic in the length, which is what
// an RNN stepping through a long sequence pays.)
std::vector<rt::Tensor> unbind_slices(const rt::Tensor& t, int64_t dim) {
  std::vector<rt::Tensor> parts;
  if (t.size(dim) == 0) return parts;
  for (const rt::Tensor& piece : rt::dispatch(rt::OpId::split, rt::Args{t, int64_t(1), dim})) {
    rt::Tensor slice = piece.squeeze(dim);
    rt::autograd::name_result_node(slice, piece, "UnbindBackward0");
    parts.push_back(std::move(slice));
  }
  return parts;
}

namespace {

Value m_unbind(Interp&, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  ArgReader r(a, "unbind", {"self", "dim"});
  std::vector<Value> parts;
  for (rt::Tensor& slice : unbind_slices(t, rt::wrap_dim(r.int_or(1, 0), t.dim()))) parts.push_back(wrap(std::move(slice)));
  return make_tuple(std::move(parts));
}

rt::Dims dims_of(Interp& in, const Value& v, int64_t ndim, const Span& where) {
  rt::Dims out;
  if (v.is_int()) return {rt::wrap_dim(v.as_int(), ndim)};
  in.iterate(v, where, [&](Value d) {
    if (!d.is_int()) Interp::fail("TypeError", "dims must be ints", where);
    out.push_back(rt::wrap_dim(d.as_int(), ndim));
    return true;
  });
  return out;
}

// movedim(source, destination): the source dims end up at the destination positions, the others keep their order.
Value m_movedim(Interp& in, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  ArgReader r(a, "movedim", {"self", "source", "destination"});
  const rt::Dims src = dims_of(in, r.required(1), t.dim(), a.span), dst = dims_of(in, r.required(2), t.dim(), a.span);
  if (src.size() != dst.size())
    Interp::fail("RuntimeError", fmt::format("movedim: Invalid source or destination dims: source ({} dims) should "
                                             "contain the same number of dims as destination ({} dims)", src.size(),
                                             dst.size()), a.span);
  rt::Dims order(size_t(t.dim()), -1);
  std::vector<bool> used(size_t(t.dim()), false);
  for (size_t i = 0; i < src.size(); ++i) {
    if (order[size_t(dst[i])] != -1 || used[size_t(src[i])])
      Interp::fail("RuntimeError", "movedim: repeated dim in source or destination", a.span);
    order[size_t(dst[i])] = src[i];
    used[size_t(src[i])] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o != -1) continue;
    while (used[size_t(next)]) ++next;
    o = next;
    used[size_t(next)] = true;
  }
  return wrap(t.permute(order));
}

// repeat(*sizes): tiles the tensor sizes[i] times along dim i (leading new dims when sizes has more): the tile op
// (a copy, also when every count is 1) once PyTorch's repeat checks pass.
Value m_repeat(Interp& in, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  const rt::Dims reps = int_args(in, a, "repeat");
  if (int64_t(reps.size()) < t.dim())
    Interp::fail("RuntimeError", "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                                 "tensor", a.span);
  for (int64_t r : reps)
    if (r < 0) Interp::fail("RuntimeError", fmt::format("Trying to create tensor with negative dimension {}", r), a.span);
  return wrap(rt::call_op(rt::OpId::tile, t, reps));
}

// flip(*dims) or flip(dims): the flip op (an implicit composite), with the method's varargs form.
Value m_flip(Interp& in, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  const rt::Dims dims = a.pos.size() == 2 ? dims_of(in, a.pos[1], t.dim(), a.span) : int_args(in, a, "flip");
  rt::Args args{rt::IValue(t), rt::IValue(dims)};
  return wrap(rt::dispatch(rt::OpId::flip, args)[0]);
}

Value m_stride(Interp&, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  ArgReader r(a, "stride", {"self", "dim"});
  if (r.has(1) && !r.get(1).is_none()) return Value(t.strides()[size_t(rt::wrap_dim(r.get(1).as_int(), t.dim()))]);
  std::vector<Value> out;
  for (int64_t s : t.strides()) out.push_back(Value(s));
  return make_tuple(std::move(out));
}

}  // namespace

void add_compound_methods(std::unordered_map<Atom, Value>& m) {
  add(m, "expand_as", [](Interp&, CallArgs& a) {
    ArgReader r(a, "expand_as", {"self", "other"});
    return wrap(self_of(a).expand(to_tensor(r.required(1), a.span).sizes()));
  });
  add(m, "type_as", [](Interp&, CallArgs& a) {
    ArgReader r(a, "type_as", {"self", "other"});
    return wrap_result(self_of(a).to(to_tensor(r.required(1), a.span).dtype()), a);  // self when the dtype matches
  });
  add(m, "new_zeros", new_like("zeros"));
  add(m, "new_ones", new_like("ones"));
  add(m, "new_empty", new_like("empty"));
  add(m, "new_full", new_like("full"));
  add(m, "new_tensor", new_like("tensor"));
  add(m, "new", m_new);
  add(m, "unbind", m_unbind);
  add(m, "movedim", m_movedim);
  add(m, "moveaxis", m_movedim);  // numpy's name, as torch.Tensor.moveaxis
  add(m, "repeat", m_repeat);
  add(m, "flip", m_flip);
  add(m, "stride", m_stride);
}

}  // namespace amps::interp
