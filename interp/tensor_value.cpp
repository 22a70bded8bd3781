// Tensor, dtype and device values and their conversions (see tensor_value.hpp).
#include "interp/tensor_value.hpp"

#include <fmt/format.h>

#include <cmath>

#include "interp/cuda_memory.hpp"
#include "runtime/backend/backend.hpp"
#include "runtime/context.hpp"
#include "runtime/print.hpp"

namespace amps::interp {

Value wrap(rt::Tensor t) { return make<TensorObj>(std::move(t)); }
Value wrap_dtype(rt::DType d) { return make<DTypeObj>(d); }
Value wrap_device(rt::Device d) { return make<DeviceObj>(d); }

const rt::Tensor* tensor_of(const Value& v) { return v.is(ObjKind::Tensor) ? &v.as<TensorObj>()->tensor : nullptr; }

std::string TensorObj::repr() const { return rt::tensor_repr(tensor); }

bool TensorObj::truthy() const {
  if (tensor.numel() != 1)
    throw AmpsError("RuntimeError", fmt::format("Boolean value of Tensor with {} values is ambiguous; use .any() or .all()", tensor.numel()));
  return tensor.item().to_bool();
}

std::string DTypeObj::repr() const { return std::string(rt::dtype_name(dtype)); }

Value DTypeObj::get_attr(Interp&, Atom name) {
  if (*name == "is_floating_point") return Value(rt::is_floating(dtype));
  if (*name == "itemsize") return Value(int64_t(rt::dtype_size(dtype)));
  if (*name == "is_signed") return Value(dtype != rt::DType::bool_ && dtype != rt::DType::uint8);
  return Value::undef();
}

std::string DeviceObj::repr() const {
  if (device.type == rt::DeviceType::cpu) return "cpu";
  return rt::device_str(device);
}

Value DeviceObj::get_attr(Interp& in, Atom name) {
  if (*name == "type") return make_str(std::string(rt::device_type_name(device.type)));
  if (*name == "index") return Value(int64_t(device.index));
  if (*name == "amp" && (device.type == rt::DeviceType::cuda || device.type == rt::DeviceType::cpu))
    return in.import_module({intern(std::string(rt::device_type_name(device.type)) + ".amp")}, {});  // torch.cuda.amp
  if (device.type != rt::DeviceType::cuda) return Value::undef();
  if (*name == "available" || *name == "is_available")  // is_available: torch.cuda's name
    return make<Native>("cuda." + *name, [](Interp&, CallArgs&) { return Value(rt::cuda_available()); });
  const rt::Device d = device;
  if (*name == "synchronize")  // waits for the device's queued work; raises when CUDA is not available
    return make<Native>("cuda.synchronize", [d](Interp&, CallArgs&) {
      rt::check_device_available(d);
      rt::backend_for(d.type)->synchronize(d);
      return Value();
    });
  if (Value v = cuda_device_attr(in, name); !v.is_undef()) return v;  // device_count, manual_seed & co.
  return cuda_memory_attr(in, name, d);  // memory_allocated & co. (0 without CUDA, as PyTorch)
}

bool index_value_of(const Value& v, int64_t& out) {
  if (v.is_int() || v.is_bool()) {
    out = v.as_int();
    return true;
  }
  const rt::Tensor* t = tensor_of(v);
  if (!t || t->numel() != 1 || !rt::is_integral(t->dtype(), true)) return false;
  out = t->item().to_int();
  return true;
}

std::string bad_slice_bound(const Value& v) {
  if (v.is(ObjKind::Tensor)) return "only integer tensors of a single element can be converted to an index";
  return "slice indices must be integers or none, not " + type_name(v);
}

Value keyword(const CallArgs& a, const char* name) {
  for (const auto& [k, v] : a.kw)
    if (*k == name) return v;
  return Value::undef();
}

void check_keywords(const CallArgs& a, const char* fn, std::initializer_list<const char*> allowed) {
  for (const auto& [k, v] : a.kw) {
    bool ok = false;
    for (const char* n : allowed) ok = ok || *k == n;
    if (!ok) Interp::fail("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", fn, *k), a.span);
  }
}

rt::Device device_of(const Value& v, const Span& where) {
  if (v.is(ObjKind::Device)) return v.as<DeviceObj>()->device;
  if (v.is(ObjKind::Str)) {
    try {
      return rt::device_from_string(v.as<Str>()->value);
    } catch (const rt::Error& e) {
      throw AmpsError(e.kind(), e.message(), where);
    }
  }
  Interp::fail("TypeError", "expected a device (cpu, cuda, xla, xpu or device(\"cuda:1\")), not " + type_name(v), where);
}

namespace {

// Shape and values of a nested list of numbers (or 0-dim tensors), row-major.
struct Nested {
  rt::Dims sizes;
  std::vector<double> values;
  std::vector<int64_t> ints;   // each value as an exact int64 (an int above 2^53 has no exact double)
  std::vector<bool> is_float;  // per value: a Python float (or floating tensor), for the small-integer range checks
  bool any_float = false, all_bool = true;
};

void flatten(const Value& v, size_t depth, Nested& n, const Span& where);

// A range as the list of its ints (Python's sequence protocol: tensor(range(3)), x[range(n), y] = v).
void flatten_range(const Range& r, size_t depth, Nested& n, const Span& where) {
  std::vector<Value> items;
  for (int64_t i = 0; i < r.size(); ++i) items.emplace_back(r.start + i * r.step);
  flatten(make_list(std::move(items)), depth, n, where);
}

void flatten(const Value& v, size_t depth, Nested& n, const Span& where) {
  if (v.is(ObjKind::Range)) return flatten_range(*v.as<Range>(), depth, n, where);
  if (v.is(ObjKind::List) || v.is(ObjKind::Tuple)) {
    const auto& items = v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items;
    if (depth == n.sizes.size()) n.sizes.push_back(int64_t(items.size()));
    else if (depth > n.sizes.size() || n.sizes[depth] != int64_t(items.size()))
      Interp::fail("ValueError", fmt::format("tensor(): nested lists have uneven lengths at depth {} (expected {}, found {})",
                                             depth, depth < n.sizes.size() ? n.sizes[depth] : 0, items.size()), where);
    for (auto& item : items) flatten(item, depth + 1, n, where);
    return;
  }
  if (depth != n.sizes.size()) Interp::fail("ValueError", "tensor(): nested lists have uneven depth", where);
  double d = 0;
  int64_t i = 0;
  if (v.is_number()) {
    d = v.to_double();
    i = v.is_float() ? int64_t(0) : v.as_int();
    n.any_float |= v.is_float();
    n.all_bool &= v.is_bool();
  } else if (const rt::Tensor* t = tensor_of(v); t && t->numel() == 1) {
    d = t->item().to_double();
    i = t->is_floating_point() ? int64_t(0) : t->item().to_int();
    n.any_float |= t->is_floating_point();
    n.all_bool &= t->dtype() == rt::DType::bool_;
  } else {
    Interp::fail("TypeError", "tensor(): expected numbers or nested lists of numbers, found " + type_name(v), where);
  }
  n.values.push_back(d);
  n.ints.push_back(i);
  n.is_float.push_back(v.is_number() ? v.is_float() : tensor_of(v)->is_floating_point());
}

// PyTorch's checked conversion into uint8/int8/int16: a float must lie in the dtype's range (fractions truncate), an
// int too, except that an int into uint8 may be as low as -255 (it wraps: -1 is 255).
void check_small_int_range(const Nested& n, rt::DType dt, const Span& where) {
  const double lo = dt == rt::DType::int16 ? -32768.0 : dt == rt::DType::int8 ? -128.0 : 0.0;
  const double hi = dt == rt::DType::int16 ? 32767.0 : dt == rt::DType::int8 ? 127.0 : 255.0;
  for (size_t i = 0; i < n.values.size(); ++i) {
    const double v = n.values[i], low = dt == rt::DType::uint8 && !n.is_float[i] ? -255.0 : lo;
    if (!(v >= low && v <= hi))
      Interp::fail("RuntimeError", fmt::format("value cannot be converted to type {} without overflow",
                                               rt::dtype_name(dt)), where);
  }
}

// Integers (and bools) into int64 exactly: through doubles, 2^53 + 1 would come back as 2^53.
rt::Tensor exact_int64(const Nested& n, rt::Device device) {
  rt::Tensor t = rt::Tensor::empty(n.sizes, rt::DType::int64, rt::Device::cpu());
  std::copy(n.ints.begin(), n.ints.end(), t.data<int64_t>());
  return device == rt::Device::cpu() ? t : t.to(device);
}

}  // namespace

// Builds a tensor from a number or nested list; the dtype follows PyTorch's inference
// (bool, then int64, then the default dtype) unless `dtype` is given.
rt::Tensor tensor_from_data(const Value& data, std::optional<rt::DType> dtype, rt::Device device, const Span& where) {
  if (const rt::Tensor* t = tensor_of(data)) return dtype ? t->to(*dtype).clone() : t->clone();
  Nested n;
  flatten(data, 0, n, where);
  rt::DType dt = dtype ? *dtype : (n.any_float || n.values.empty()) ? rt::default_dtype()  // tensor([]) too (PyTorch)
                   : n.all_bool ? rt::DType::bool_ : rt::DType::int64;
  if (dt == rt::DType::int64 && !n.any_float) return exact_int64(n, device);
  if (dt == rt::DType::int32 || dt == rt::DType::int64) {  // out-of-range values would wrap silently
    const double lo = dt == rt::DType::int32 ? -2147483648.0 : -9223372036854775808.0, hi = -lo;
    for (double v : n.values)
      if (!(v >= lo && v < hi) && !std::isnan(v))
        Interp::fail("RuntimeError", fmt::format("value cannot be converted to type {} without overflow",
                                                 rt::dtype_name(dt)), where);
  }
  if (dt == rt::DType::uint8 || dt == rt::DType::int8 || dt == rt::DType::int16) check_small_int_range(n, dt, where);
  return rt::Tensor::from_doubles(n.values, n.sizes, dt, device);
}

rt::Tensor to_tensor(const Value& v, const Span& where) {
  if (const rt::Tensor* t = tensor_of(v)) return *t;
  return tensor_from_data(v, std::nullopt, rt::Device::cpu(), where);
}

static bool number_ivalue(const Value& v, rt::IValue& out) {
  if (v.is_bool()) out = rt::IValue(v.as_bool());
  else if (v.is_int()) out = rt::IValue(v.as_int());
  else if (v.is_float()) out = rt::IValue(v.as_float());
  else return false;
  return true;
}

static bool int_list(const Value& v, rt::Dims& out) {
  if (v.is_int() || v.is_bool()) { out = {v.as_int()}; return true; }
  if (!v.is(ObjKind::List) && !v.is(ObjKind::Tuple)) return false;
  const auto& items = v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items;
  out.clear();
  for (auto& i : items) {
    if (!i.is_int() && !i.is_bool()) return false;
    out.push_back(i.as_int());
  }
  return true;
}

static bool tensor_list(const Value& v, std::vector<rt::Tensor>& out) {
  if (!v.is(ObjKind::List) && !v.is(ObjKind::Tuple)) return false;
  const auto& items = v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items;
  out.clear();
  for (auto& i : items) {
    const rt::Tensor* t = tensor_of(i);
    if (!t) return false;
    out.push_back(*t);
  }
  return true;
}

// PyTorch's message for a Tensor list holding something else (index_put's None entries, which 1.13 refuses: its
// Python binding takes tensors only; the subscript form x[none, idx] = v is the one that takes None).
static bool non_tensor_item(const Value& v, const rt::SchemaArg& arg, std::string& why) {
  if (arg.type != "Tensor" || !arg.list || (!v.is(ObjKind::List) && !v.is(ObjKind::Tuple))) return false;
  const auto& items = v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items;
  for (size_t i = 0; i < items.size(); ++i) {
    if (tensor_of(items[i])) continue;
    why = fmt::format("expected Tensor as element {} in argument '{}', but got {}", i, arg.name, type_name(items[i]));
    if (items[i].is_none()) why += " (index_put takes no None entries; index as x[none, idx] = v instead)";
    return true;
  }
  return false;
}

// One conversion per schema base type; false means "wrong type".
static bool convert(const Value& v, const rt::SchemaArg& arg, rt::IValue& out) {
  const std::string& t = arg.type;
  if (t == "Tensor" && arg.list) {
    std::vector<rt::Tensor> ts;
    if (!tensor_list(v, ts)) return false;
    out = rt::IValue(std::move(ts));
    return true;
  }
  if (t == "Tensor") {
    if (const rt::Tensor* x = tensor_of(v)) { out = rt::IValue(*x); return true; }
    return number_ivalue(v, out);
  }
  if (t == "int" && arg.list) {
    rt::Dims d;
    if (!int_list(v, d)) return false;
    out = rt::IValue(std::move(d));
    return true;
  }
  if (t == "int") { if (!v.is_int() && !v.is_bool()) return false; out = rt::IValue(v.as_int()); return true; }
  if (t == "float") { if (!v.is_number()) return false; out = rt::IValue(v.to_double()); return true; }
  if (t == "bool") { if (!v.is_bool() && !v.is_int()) return false; out = rt::IValue(v.as_int() != 0); return true; }
  if (t == "Scalar") {  // a number, or a one-element tensor read as one (clamp(min=tensor(0.)), fill_(tensor(3.)))
    if (number_ivalue(v, out)) return true;
    const rt::Tensor* x = tensor_of(v);
    if (!x || x->numel() != 1 || x->dim() != 0) return false;
    out = rt::IValue(x->item());
    return true;
  }
  if (t == "ScalarType") {  // a dtype, or the builtins float, int, bool (as dtype= takes them: x.view(bool))
    const std::optional<rt::DType> d = script_dtype(v);
    if (!d) return false;
    out = rt::IValue(*d);
    return true;
  }
  if (t == "Device") {
    if (v.is(ObjKind::Device)) { out = rt::IValue(v.as<DeviceObj>()->device); return true; }
    if (!v.is(ObjKind::Str)) return false;
    out = rt::IValue(rt::device_from_string(v.as<Str>()->value));
    return true;
  }
  if (t == "str") { if (!v.is(ObjKind::Str)) return false; out = rt::IValue(v.as<Str>()->value); return true; }
  return false;
}

bool to_ivalue(const Value& v, const rt::SchemaArg& arg, rt::IValue& out, std::string& why) {
  if (v.is_none() && (arg.optional || (arg.has_default && arg.default_value.is_none()))) {
    out = rt::IValue();
    return true;
  }
  // none for an int list whose default is [] (pooling's stride): the default, as PyTorch's Python binding does
  if (v.is_none() && arg.list && arg.type == "int" && arg.has_default &&
      arg.default_value.kind() == rt::IValue::Kind::int_list && arg.default_value.ints().empty()) {
    out = arg.default_value;
    return true;
  }
  if (convert(v, arg, out)) return true;
  if (non_tensor_item(v, arg, why)) return false;
  std::string want = arg.type == "ScalarType" ? "a dtype" : arg.type == "Scalar" ? "a number" : arg.type;
  if (arg.list) want += arg.type == "int" ? " or a tuple of ints" : " list";
  why = fmt::format("argument '{}' must be {}, not {}", arg.name, want, type_name(v));
  return false;
}

Value from_ivalue(const rt::IValue& v) {
  using K = rt::IValue::Kind;
  switch (v.kind()) {
    case K::none: return Value();
    case K::tensor: return wrap(v.tensor());
    case K::tensor_list: {
      std::vector<Value> items;
      for (auto& t : v.tensors()) items.push_back(wrap(t));
      return make_tuple(std::move(items));
    }
    case K::int_: return Value(v.i64());
    case K::float_: return Value(v.f64());
    case K::bool_: return Value(v.boolean());
    case K::int_list: {
      std::vector<Value> items;
      for (int64_t d : v.ints()) items.push_back(Value(d));
      return make_tuple(std::move(items));
    }
    case K::dtype: return wrap_dtype(v.dtype());
    case K::device: return wrap_device(v.device());
    case K::string: return make_str(v.str());
  }
  return Value();
}

// ATen's C++ name of a dtype, as PyTorch's TensorOptions and dtype-mismatch messages print it ("long int").
std::string_view aten_type_name(rt::DType d) {
  switch (d) {
    case rt::DType::float32: return "float";
    case rt::DType::float64: return "double";
    case rt::DType::float16: return "c10::Half";
    case rt::DType::bfloat16: return "c10::BFloat16";
    case rt::DType::int64: return "long int";
    case rt::DType::int32: return "int";
    case rt::DType::int16: return "short int";
    case rt::DType::int8: return "signed char";
    case rt::DType::uint8: return "unsigned char";
    default: return "bool";
  }
}

}  // namespace amps::interp
