// Tensor attributes (shape, dtype, grad, ...) and methods: the op table's methods plus the
// ones that are not ops (item, tolist, size, float/half/..., to with a device or dtype).
#include <fmt/format.h>

#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/autograd/view_inplace.hpp"
#include "runtime/error.hpp"

namespace amps::interp {

Value op_method(Atom name);
Value tensor_index(Interp& in, const rt::Tensor& t, const Value& key, const Span& where);
void tensor_set_index(Interp& in, const rt::Tensor& t, const Value& key, const Value& v, const Span& where);
void add_autograd_methods(std::unordered_map<Atom, Value>& m);  // autograd_binding.cpp
void add_compound_methods(std::unordered_map<Atom, Value>& m);  // tensor_compound_methods.cpp
void add_view_methods(std::unordered_map<Atom, Value>& m);      // tensor_view_methods.cpp
Value tensor_mH(const rt::Tensor& t);                           // tensor_view_methods.cpp
Value tensor_H(const rt::Tensor& t);                            // tensor_view_methods.cpp
void add_predicate_methods(std::unordered_map<Atom, Value>& m);       // torch_predicates.cpp
void add_histogram_method(std::unordered_map<Atom, Value>& m);        // torch_histogram.cpp
void add_retired_linalg_methods(std::unordered_map<Atom, Value>& m);  // torch_aliases.cpp
Value grad_fn_value(const rt::Tensor& t);

namespace {

const rt::Tensor& self_of(CallArgs& a) { return a.pos.front().as<TensorObj>()->tensor; }

Value shape_tuple(const rt::Tensor& t) {
  std::vector<Value> dims;
  for (int64_t d : t.sizes()) dims.push_back(Value(d));
  return make_tuple(std::move(dims));
}

Value scalar_value(const rt::Scalar& s) {
  if (s.is_bool()) return Value(s.to_bool());
  if (s.is_integral()) return Value(s.to_int());
  return Value(s.to_double());
}

Value to_list(const rt::Tensor& t) {
  if (t.dim() == 0) return scalar_value(t.item());
  std::vector<Value> items;
  for (int64_t i = 0; i < t.size(0); ++i) items.push_back(to_list(t.select(0, i)));
  return make_list(std::move(items));
}

Value m_item(Interp&, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  if (t.numel() != 1)
    Interp::fail("RuntimeError", fmt::format("a Tensor with {} elements cannot be converted to a number (item() needs exactly one)", t.numel()), a.span);
  return scalar_value(t.item());
}

Value m_size(Interp&, CallArgs& a) {
  const rt::Tensor& t = self_of(a);
  a.pos.erase(a.pos.begin());
  ArgReader r(a, "size", {"dim"});
  if (!r.has(0) || r.get(0).is_none()) return shape_tuple(t);
  return Value(t.size(r.int_or(0, 0)));
}

// x.to(device), x.to(dtype), x.to(other), x.to(device, dtype) and keyword forms.
Value m_to(Interp& in, CallArgs& a) {
  rt::Tensor t = self_of(a);
  std::optional<rt::DType> dtype;
  std::optional<rt::Device> device;
  auto take = [&](const Value& v) {
    if (auto d = script_dtype(v)) dtype = d;
    else if (const rt::Tensor* o = tensor_of(v)) dtype = o->dtype(), device = o->device();
    else device = device_of(v, a.span);
  };
  for (size_t i = 1; i < a.pos.size(); ++i) take(a.pos[i]);
  bool copy = false;
  for (auto& [k, v] : a.kw) {
    if (*k == "dtype" || *k == "device") take(v);
    else if (*k == "copy") copy = in.truthy(v);
    else if (*k != "non_blocking") Interp::fail("TypeError", fmt::format("to() got an unexpected keyword argument '{}'", *k), a.span);
  }
  rt::Args args{rt::IValue(t), dtype ? rt::IValue(*dtype) : rt::IValue(), device ? rt::IValue(*device) : rt::IValue(),
                rt::IValue(false), rt::IValue(copy)};
  return wrap_result(rt::dispatch(rt::OpId::to, args)[0], a);  // x itself when nothing changes, as PyTorch's
}

Native::Fn cast_to(rt::DType dt) {
  return [dt](Interp&, CallArgs& a) {
    rt::Args args{rt::IValue(self_of(a)), rt::IValue(dt)};
    return wrap_result(rt::dispatch(rt::OpId::to, args)[0], a);
  };
}

Native::Fn move_to(rt::Device dev) {
  return [dev](Interp&, CallArgs& a) {
    rt::Args args{rt::IValue(self_of(a)), rt::IValue(), rt::IValue(dev)};
    return wrap_result(rt::dispatch(rt::OpId::to, args)[0], a);
  };
}

Value m_requires_grad_(Interp& in, CallArgs& a) {
  rt::Tensor t = self_of(a);
  bool on = a.pos.size() < 2 || in.truthy(a.pos[1]);
  t.set_requires_grad(on);
  return a.pos.front();
}

using MethodMap = std::unordered_map<Atom, Value>;

void add(MethodMap& m, const char* name, Native::Fn fn) { m[intern(name)] = make<Native>(name, std::move(fn)); }

const MethodMap& special_methods() {
  static const MethodMap m = [] {
    MethodMap m;
    add(m, "item", m_item);
    add(m, "tolist", [](Interp&, CallArgs& a) { return to_list(self_of(a)); });
    add(m, "allclose", b_allclose);
    add(m, "equal", b_equal);
    add(m, "unique", b_unique);
    add(m, "unique_consecutive", b_unique_consecutive);
    add(m, "lu", b_lu);
    add(m, "numel", [](Interp&, CallArgs& a) { return Value(self_of(a).numel()); });
    add(m, "dim", [](Interp&, CallArgs& a) { return Value(self_of(a).dim()); });
    add(m, "size", m_size);
    add(m, "to", m_to);
    add(m, "float", cast_to(rt::DType::float32));
    add(m, "half", cast_to(rt::DType::float16));
    add(m, "bfloat16", cast_to(rt::DType::bfloat16));
    add(m, "double", cast_to(rt::DType::float64));
    add(m, "long", cast_to(rt::DType::int64));
    add(m, "int", cast_to(rt::DType::int32));
    add(m, "bool", cast_to(rt::DType::bool_));
    add(m, "byte", cast_to(rt::DType::uint8));
    add(m, "char", cast_to(rt::DType::int8));
    add(m, "short", cast_to(rt::DType::int16));
    add(m, "cpu", move_to(rt::Device::cpu()));
    add(m, "cuda", move_to(rt::Device::cuda(0)));
    add(m, "requires_grad_", m_requires_grad_);
    add_autograd_methods(m);
    add_compound_methods(m);
    add_view_methods(m);
    add_predicate_methods(m);
    add_histogram_method(m);
    add_retired_linalg_methods(m);
    add(m, "is_floating_point", [](Interp&, CallArgs& a) { return Value(self_of(a).is_floating_point()); });
    add(m, "is_contiguous", [](Interp&, CallArgs& a) { return Value(self_of(a).is_contiguous()); });
    add(m, "__len__", [](Interp&, CallArgs& a) {
      if (self_of(a).dim() == 0) Interp::fail("TypeError", "len() of a 0-d tensor", a.span);
      return Value(self_of(a).size(0));
    });
    add(m, "__getitem__", [](Interp& in, CallArgs& a) { return tensor_index(in, self_of(a), a.pos.at(1), a.span); });
    add(m, "__setitem__", [](Interp& in, CallArgs& a) {
      tensor_set_index(in, self_of(a), a.pos.at(1), a.pos.at(2), a.span);
      return Value();
    });
    return m;
  }();
  return m;
}

// Tensor methods by name, op-table methods included, built once for the process.
const Value* find_method(Atom name) {
  static std::mutex mu;
  static std::unordered_map<Atom, Value> ops;
  auto& special = special_methods();
  if (auto it = special.find(name); it != special.end()) return &it->second;
  std::lock_guard<std::mutex> lock(mu);
  auto it = ops.find(name);
  if (it == ops.end()) it = ops.emplace(name, op_method(name)).first;
  return it->second.is_undef() ? nullptr : &it->second;
}

}  // namespace

Value TensorObj::get_attr(Interp&, Atom name) {
  const std::string& n = *name;
  if (n == "requires_grad" || n == "grad_fn" || n == "is_leaf") rt::autograd::refresh_view_history(tensor);
  if (n == "shape") return shape_tuple(tensor);
  if (n == "dtype") return wrap_dtype(tensor.dtype());
  if (n == "device") return wrap_device(tensor.device());
  if (n == "is_cuda") return Value(tensor.device().type == rt::DeviceType::cuda);
  if (n == "is_cpu") return Value(tensor.device().type == rt::DeviceType::cpu);
  if (n == "is_xpu") return Value(tensor.device().type == rt::DeviceType::xpu);
  if (n == "grad") return tensor.grad().defined() ? wrap(tensor.grad()) : Value();
  if (n == "requires_grad") return Value(tensor.requires_grad());
  if (n == "is_leaf") return Value(tensor.is_leaf());
  if (n == "grad_fn") return grad_fn_value(tensor);
  if (n == "ndim") return Value(tensor.dim());
  if (n == "T") {  // all dims reversed, as PyTorch's Tensor.T
    rt::Dims order;
    for (int64_t d = tensor.dim() - 1; d >= 0; --d) order.push_back(d);
    return wrap(tensor.dim() < 2 ? tensor : tensor.permute(order));
  }
  if (n == "mT") return wrap(tensor.transpose(-2, -1));
  if (n == "mH") return tensor_mH(tensor);
  if (n == "H") return tensor_H(tensor);
  if (n == "data") return wrap(tensor.detach());
  if (n == "_is_param") return Value(tensor.impl()->is_parameter);
  const Value* m = find_method(name);
  return m ? Value(make<BoundMethod>(Value(this), *m)) : Value::undef();
}

bool TensorObj::set_attr(Interp& in, Atom name, const Value& v) {
  if (*name == "requires_grad") {
    tensor.set_requires_grad(in.truthy(v));
    return true;
  }
  if (*name == "grad") {
    if (v.is_none()) tensor.set_grad(rt::Tensor());
    else if (const rt::Tensor* g = tensor_of(v)) tensor.set_grad(*g);
    else Interp::fail("TypeError", "assigned grad must be a Tensor or none, not " + amps::interp::type_name(v), {});
    return true;
  }
  if (*name == "data") {  // PyTorch's set_data: the tensor keeps its identity and holds src's data (any shape,
                          // dtype or device), shared with src
    const rt::Tensor* src = tensor_of(v);
    if (!src) Interp::fail("TypeError", "assigned data must be a Tensor, not " + amps::interp::type_name(v), {});
    tensor.set_data(*src);
    return true;
  }
  if (*name == "_is_param") {  // nn.Parameter's mark: registered as a module parameter even while frozen
    tensor.impl()->is_parameter = in.truthy(v);
    return true;
  }
  return false;
}

}  // namespace amps::interp
