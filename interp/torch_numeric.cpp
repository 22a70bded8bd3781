// torch.gradient, torch.as_tensor and torch.asarray: composed of table ops (so they run on every device and
// gradient() differentiates), with PyTorch 1.13's argument forms, results and errors.
#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::interp {

rt::Tensor tensor_from_data(const Value& data, std::optional<rt::DType> dtype, rt::Device device, const Span& where);

namespace {

using O = rt::OpId;

// A 0-dim tensor that promotes as a Python number.
rt::Tensor number(double v) {
  rt::Tensor t = rt::Tensor::scalar(rt::Scalar(v));
  t.impl()->is_wrapped_number = true;
  return t;
}

// ---- gradient

// f's slices along [d] from [start] to [end] (end none: to the end).
rt::Tensor part(const rt::Tensor& f, int64_t d, int64_t start, std::optional<int64_t> end) {
  return f.slice(d, start, end);
}

// The gradient of [f] along [d] at even spacing [h] (PyTorch's gradient_helper_float).
rt::Tensor even_gradient(const rt::Tensor& f, int64_t d, double h, int64_t order) {
  const rt::Tensor dx = number(h);
  const rt::Tensor center = (part(f, d, 2, std::nullopt) - part(f, d, 0, -2)) / dx / number(2.0);
  rt::Tensor first, last;
  if (order == 1) {
    first = (part(f, d, 1, 2) - part(f, d, 0, 1)) / dx;
    last = (part(f, d, -1, std::nullopt) - part(f, d, -2, -1)) / dx;
  } else {
    first = (part(f, d, 0, 1) * number(-1.5) + part(f, d, 1, 2) * number(2.0) - part(f, d, 2, 3) * number(0.5)) / dx;
    last = (part(f, d, -3, -2) * number(0.5) + part(f, d, -2, -1) * number(-2.0) +
            part(f, d, -1, std::nullopt) * number(1.5)) / dx;
  }
  return rt::cat({first, center, last}, d);
}

// The gradient of [f] along [d] at the 1-D coordinates [x] (PyTorch's gradient_helper: second-order accurate
// interior differences for uneven spacing).
rt::Tensor coordinate_gradient(const rt::Tensor& f, int64_t d, const rt::Tensor& x, int64_t order) {
  AMPS_CHECK(x.dim() == 1, "torch.gradient expected each element of spacing to have one dimension, but got an "
             "element with {} dimensions!", x.dim());
  rt::Dims shape(size_t(f.dim()), 1);
  shape[size_t(d)] = -1;
  const rt::Tensor dx = x.slice(0, 1, std::nullopt) - x.slice(0, 0, -1);
  const rt::Tensor dx1 = dx.slice(0, 0, -1), dx2 = dx.slice(0, 1, std::nullopt);
  const rt::Tensor a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape), b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape);
  const rt::Tensor c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape);
  const rt::Tensor center = a * part(f, d, 0, -2) + b * part(f, d, 1, -1) + c * part(f, d, 2, std::nullopt);
  const rt::Tensor h0 = dx.select(0, 0), h1 = dx.select(0, 1), hn = dx.select(0, -1), hm = dx.select(0, -2);
  rt::Tensor first, last;
  if (order == 1) {
    first = (part(f, d, 1, 2) - part(f, d, 0, 1)) / h0;
    last = (part(f, d, -1, std::nullopt) - part(f, d, -2, -1)) / hn;
  } else {
    const rt::Tensor fa = -(h0 * number(2.0) + h1) / (h0 * (h0 + h1)), fb = (h0 + h1) / (h0 * h1);
    const rt::Tensor fc = -h0 / (h1 * (h0 + h1));
    first = fa * part(f, d, 0, 1) + fb * part(f, d, 1, 2) + fc * part(f, d, 2, 3);
    const rt::Tensor la = hn / (hm * (hn + hm)), lb = -(hn + hm) / (hn * hm);
    const rt::Tensor lc = (hn * number(2.0) + hm) / (hn * (hn + hm));
    last = la * part(f, d, -3, -2) + lb * part(f, d, -2, -1) + lc * part(f, d, -1, std::nullopt);
  }
  return rt::cat({first, center, last}, d);
}

// The dims gradient() differentiates along: dim (an int or a sequence), else all of f's.
std::vector<int64_t> gradient_dims(const rt::Tensor& f, const Value& dim, const Span& where) {
  std::vector<int64_t> dims;
  if (dim.is_undef() || dim.is_none()) {
    for (int64_t d = 0; d < f.dim(); ++d) dims.push_back(d);
  } else if (dim.is_int()) {
    dims.push_back(rt::wrap_dim(dim.as_int(), f.dim()));
  } else {
    const std::vector<Value>* ds = dim.is(ObjKind::List) ? &dim.as<List>()->items
                                   : dim.is(ObjKind::Tuple) ? &dim.as<Tuple>()->items : nullptr;
    if (!ds) Interp::fail("TypeError", "gradient(): dim must be an int or a sequence of ints", where);
    for (const Value& d : *ds) {
      if (!d.is_int()) Interp::fail("TypeError", "gradient(): dim must be an int or a sequence of ints", where);
      dims.push_back(rt::wrap_dim(d.as_int(), f.dim()));
    }
  }
  return dims;
}

// The per-dim spacings: none or one number (the same for every dim), or a sequence of numbers or of coordinate
// tensors, one per dim.
std::vector<Value> gradient_spacings(const Value& spacing, size_t n, bool dim_given, const Span& where) {
  if (spacing.is_undef() || spacing.is_none()) return std::vector<Value>(n, Value(1.0));
  if (spacing.is_int() || spacing.is_float()) return std::vector<Value>(n, spacing);
  const std::vector<Value>* s = spacing.is(ObjKind::List) ? &spacing.as<List>()->items
                                : spacing.is(ObjKind::Tuple) ? &spacing.as<Tuple>()->items : nullptr;
  if (!s) Interp::fail("TypeError", "gradient(): spacing must be a number or a sequence of numbers or tensors", where);
  if (s->size() != n) {
    if (dim_given)
      AMPS_FAIL("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments to "
                "have the same length, but got a spacing argument of length {} and a dim argument of length {}.",
                s->size(), n);
    AMPS_FAIL("torch.gradient expected spacing to be unspecified, a scalar or a list of length {} but got a list of "
              "length {}", n, s->size());
  }
  return *s;
}

// gradient(input, *, spacing=1, dim=None, edge_order=1): a tuple of the derivative estimates along each dim.
Value b_gradient(Interp&, CallArgs& a) {
  check_keywords(a, "gradient", {"input", "spacing", "dim", "edge_order"});
  if (a.pos.size() != 1) Interp::fail("TypeError", "gradient() takes 1 positional argument (spacing, dim and "
                                      "edge_order are keyword-only)", a.span);
  const rt::Tensor* f = tensor_of(a.pos[0]);
  if (!f) Interp::fail("TypeError", "gradient(): argument 'input' must be Tensor", a.span);
  const Value dim = keyword(a, "dim"), eo = keyword(a, "edge_order");
  if (!eo.is_undef() && !eo.is_int()) Interp::fail("TypeError", "gradient(): edge_order must be an int", a.span);
  const int64_t order = eo.is_undef() ? 1 : eo.as_int();
  return guarded(a.span, [&] {
    const std::vector<int64_t> dims = gradient_dims(*f, dim, a.span);
    const std::vector<Value> spacing =
        gradient_spacings(keyword(a, "spacing"), dims.size(), !dim.is_undef() && !dim.is_none(), a.span);
    AMPS_CHECK(order == 1 || order == 2, "torch.gradient only supports edge_order=1 and edge_order=2.");
    std::vector<Value> out;
    for (size_t i = 0; i < dims.size(); ++i) {
      AMPS_CHECK(f->size(dims[i]) >= order + 1, "torch.gradient expected each dimension size to be at least "
                 "edge_order+1");
      const Value& s = spacing[i];
      if (const rt::Tensor* x = tensor_of(s)) out.push_back(wrap(coordinate_gradient(*f, dims[i], *x, order)));
      else if (!s.is_int() && !s.is_float())
        Interp::fail("TypeError", "gradient(): spacing must hold numbers or 1-D coordinate tensors", a.span);
      else out.push_back(wrap(even_gradient(*f, dims[i], s.is_float() ? s.as_float() : double(s.as_int()), order)));
    }
    return make_tuple(std::move(out));
  });
}

// ---- as_tensor / asarray

// as_tensor(data, dtype=None, device=None): a tensor shares data when it already has the dtype and device (the same
// object comes back), else a converted copy; other data becomes a new tensor.
Value b_as_tensor(Interp& in, CallArgs& a) {
  ArgReader r(a, "as_tensor", {"data", "dtype", "device"});
  std::optional<rt::DType> dt;
  if (r.has(1) && !r.get(1).is_none() && !(dt = script_dtype(r.get(1)))) r.type_error(1, "a dtype");
  std::optional<rt::Device> dev;
  if (r.has(2) && !r.get(2).is_none()) dev = device_of(r.get(2), a.span);
  if (const rt::Tensor* t = tensor_of(r.required(0))) {
    rt::Args args{rt::IValue(*t), dt ? rt::IValue(*dt) : rt::IValue(), dev ? rt::IValue(*dev) : rt::IValue(),
                  rt::IValue(false), rt::IValue(false)};
    return guarded(a.span, [&] { return wrap_result(rt::dispatch(O::to, args)[0], a); });
  }
  return wrap(tensor_from_data(r.get(0), dt, dev.value_or(in.runtime().default_device()), a.span));
}

// asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False): as_tensor, with copy=True forcing a
// copy and requires_grad applied to a new tensor.
Value b_asarray(Interp& in, CallArgs& a) {
  check_keywords(a, "asarray", {"obj", "dtype", "device", "copy", "requires_grad"});
  if (a.pos.size() != 1) Interp::fail("TypeError", "asarray() takes 1 positional argument", a.span);
  const Value copy = keyword(a, "copy"), rg = keyword(a, "requires_grad");
  CallArgs inner{{a.pos[0]}, {}, a.span};
  for (const auto& [k, v] : a.kw)
    if (*k == "dtype" || *k == "device") inner.kw.emplace_back(k, v);
  Value out = b_as_tensor(in, inner);
  const bool same = tensor_of(a.pos[0]) && out.is(ObjKind::Tensor) &&
                    tensor_of(out)->impl() == tensor_of(a.pos[0])->impl();
  if (same && copy.is_bool() && copy.as_bool()) out = wrap(tensor_of(out)->clone());
  if (!same && rg.is_bool() && rg.as_bool()) {
    rt::Tensor t = *tensor_of(out);
    t.set_requires_grad(true);
  }
  return out;
}

}  // namespace

void install_torch_numeric(Interp& in) {
  in.def_native("gradient", b_gradient);
  in.def_native("as_tensor", b_as_tensor);
  in.def_native("asarray", b_asarray);
}

}  // namespace amps::interp
