// torch's predicates and dtype helpers (is_tensor, is_signed, is_nonzero, ..., result_type, promote_types,
// can_cast, broadcast_shapes), the thread queries, and the tensor methods of the same family (element_size,
// ndimension, nelement, get_device, type()).
#include <fmt/format.h>

#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/threads.hpp"

namespace amps::interp {
namespace {

// The tensor argument [i] of [fn] (TypeError naming PyTorch's expectation otherwise).
const rt::Tensor& tensor_arg(const ArgReader& r, size_t i, const char* fn) {
  const rt::Tensor* t = tensor_of(r.required(i));
  if (!t)
    Interp::fail("TypeError", fmt::format("{}(): argument 'input' (position 1) must be Tensor, not {}", fn,
                                          type_name(r.get(i))), r.span());
  return *t;
}

using TensorTest = bool (*)(const rt::Tensor&, const Span&);

bool floating(const rt::Tensor& t, const Span&) { return t.is_floating_point(); }
bool never(const rt::Tensor&, const Span&) { return false; }  // amps has no complex, conjugate-bit, negative-bit or
                                                              // inference tensors
bool signed_dtype(const rt::Tensor& t, const Span&) {
  return t.dtype() != rt::DType::bool_ && t.dtype() != rt::DType::uint8;
}

// Python truth of a one-element tensor (PyTorch's is_nonzero and bool(tensor) errors otherwise).
bool nonzero(const rt::Tensor& t, const Span& where) {
  if (t.numel() == 0) Interp::fail("RuntimeError", "Boolean value of Tensor with no values is ambiguous", where);
  if (t.numel() > 1) Interp::fail("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous", where);
  return t.item().to_double() != 0.0;
}

struct Predicate {
  const char* name;
  TensorTest test;
};
constexpr Predicate kPredicates[] = {{"is_floating_point", floating}, {"is_complex", never}, {"is_conj", never},
                                     {"is_neg", never}, {"is_inference", never}, {"is_signed", signed_dtype},
                                     {"is_nonzero", nonzero}};

Native::Fn predicate_function(const Predicate& p) {
  return [p](Interp&, CallArgs& a) {
    ArgReader r(a, p.name, {"input"});
    return Value(p.test(tensor_arg(r, 0, p.name), a.span));
  };
}

// A script value as a result_type operand: tensors as they are, Python numbers as wrapped numbers.
rt::Tensor operand(const Value& v, const Span& where) {
  if (const rt::Tensor* t = tensor_of(v)) return *t;
  if (!v.is_bool() && !v.is_int() && !v.is_float())
    Interp::fail("TypeError", fmt::format("result_type(): expected a Tensor or a number, not {}", type_name(v)), where);
  rt::Tensor t = to_tensor(v, where);
  t.impl()->is_wrapped_number = true;
  return t;
}

Value b_result_type(Interp&, CallArgs& a) {
  ArgReader r(a, "result_type", {"tensor1", "tensor2"});
  const rt::Tensor x = operand(r.required(0), a.span), y = operand(r.required(1), a.span);
  return wrap_dtype(rt::cpu::result_type({&x, &y}));
}

rt::DType dtype_arg(const ArgReader& r, size_t i, const char* fn) {
  if (auto d = script_dtype(r.required(i))) return *d;
  Interp::fail("TypeError", fmt::format("{}(): argument {} must be torch.dtype, not {}", fn, i + 1,
                                        type_name(r.get(i))), r.span());
}

Value b_promote_types(Interp&, CallArgs& a) {
  ArgReader r(a, "promote_types", {"type1", "type2"});
  return wrap_dtype(rt::promote(dtype_arg(r, 0, "promote_types"), dtype_arg(r, 1, "promote_types")));
}

// can_cast(from, to): PyTorch's casting rule (no floating to integral, nothing but bool to bool).
Value b_can_cast(Interp&, CallArgs& a) {
  ArgReader r(a, "can_cast", {"from", "to"});
  const rt::DType from = dtype_arg(r, 0, "can_cast"), to = dtype_arg(r, 1, "can_cast");
  if (rt::is_floating(from) && rt::is_integral(to, true)) return Value(false);
  return Value(!(from != rt::DType::bool_ && to == rt::DType::bool_));
}

// One broadcast_shapes argument (an int or a sequence of ints) as dims.
rt::Dims shape_arg(const Value& v, const Span& where) {
  rt::Dims dims;
  auto take = [&](const Value& d) {
    if (!d.is_int()) Interp::fail("TypeError", "broadcast_shapes(): shapes must be ints or sequences of ints", where);
    if (d.as_int() < 0)
      Interp::fail("RuntimeError", fmt::format("Trying to create tensor with negative dimension ({}): ({})",
                                               d.as_int(), d.as_int()), where);
    dims.push_back(d.as_int());
  };
  if (v.is(ObjKind::List) || v.is(ObjKind::Tuple)) {
    for (const Value& d : v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items) take(d);
  } else {
    take(v);
  }
  return dims;
}

// broadcast_shapes(*shapes): the shape every argument broadcasts to, as a tuple.
Value b_broadcast_shapes(Interp&, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", "broadcast_shapes() takes no keyword arguments", a.span);
  std::vector<int64_t> out;
  for (const Value& v : a.pos) {
    rt::Dims s = shape_arg(v, a.span);
    if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[out.size() - s.size() + i];
      const int64_t d = s[i];
      if (o != d && o != 1 && d != 1)
        Interp::fail("RuntimeError", "Shape mismatch: objects cannot be broadcast to a single shape", a.span);
      if (o == 1) o = d;
    }
  }
  std::vector<Value> dims(out.begin(), out.end());
  return make_tuple(std::move(dims));
}

Value b_get_num_threads(Interp&, CallArgs& a) {
  ArgReader r(a, "get_num_threads", {});
  return Value(rt::intra_op_threads());
}

Value b_set_num_threads(Interp&, CallArgs& a) {
  ArgReader r(a, "set_num_threads", {"int"});
  if (!r.required(0).is_int()) r.type_error(0, "int");
  if (r.get(0).as_int() <= 0) Interp::fail("RuntimeError", "set_num_threads expects a positive integer", a.span);
  rt::set_intra_op_threads(r.get(0).as_int());
  return Value();
}

// get_device: -1 for a host tensor, the device index otherwise.
int64_t device_index(const rt::Tensor& t) { return t.device().type == rt::DeviceType::cpu ? -1 : t.device().index; }

Value b_get_device(Interp&, CallArgs& a) {
  ArgReader r(a, "get_device", {"input"});
  return Value(device_index(tensor_arg(r, 0, "get_device")));
}

// PyTorch's legacy tensor type names, per dtype ("Float" of torch.FloatTensor).
constexpr std::pair<rt::DType, const char*> kTypeNames[] = {
    {rt::DType::float32, "Float"}, {rt::DType::float64, "Double"}, {rt::DType::float16, "Half"},
    {rt::DType::bfloat16, "BFloat16"}, {rt::DType::int64, "Long"}, {rt::DType::int32, "Int"}, {rt::DType::bool_, "Bool"},
    {rt::DType::uint8, "Byte"}, {rt::DType::int8, "Char"}, {rt::DType::int16, "Short"}};

std::string type_string(const rt::Tensor& t) {
  std::string kind;
  for (auto [dt, name] : kTypeNames)
    if (dt == t.dtype()) kind = name;
  const rt::DeviceType dev = t.device().type;
  const char* where = dev == rt::DeviceType::cuda ? "cuda." : dev == rt::DeviceType::xla ? "xla." :
                      dev == rt::DeviceType::xpu ? "xpu." : "";
  return fmt::format("torch.{}{}Tensor", where, kind);
}

}  // namespace

// A type string such as "torch.cuda.DoubleTensor" as (dtype, cuda?); ValueError for others (also used by
// set_default_tensor_type, torch_default_dtype.cpp).
std::pair<rt::DType, bool> parse_type_string(const std::string& s, const Span& where) {
  const bool cuda = s.starts_with("torch.cuda.");
  const std::string rest = s.substr(cuda ? 11 : 6);
  if (s.starts_with("torch."))
    for (auto [dt, name] : kTypeNames)
      if (rest == std::string(name) + "Tensor") return {dt, cuda};
  Interp::fail("ValueError", fmt::format("invalid type: '{}'", s), where);
}

namespace {

// x.type(): the type string; x.type(dtype) / x.type("torch.DoubleTensor"): x cast (and moved, for a cuda type
// string), x itself when nothing changes.
Value m_type(Interp&, CallArgs& a) {
  ArgReader r(a, "type", {"self", "dtype", "non_blocking"});
  const rt::Tensor& t = *tensor_of(r.get(0));
  if (!r.has(1) || r.get(1).is_none()) return make_str(type_string(t));
  std::optional<rt::DType> dt = script_dtype(r.get(1));
  std::optional<rt::Device> dev;
  if (!dt && r.get(1).is(ObjKind::Str)) {
    auto [parsed, cuda] = parse_type_string(r.get(1).as<Str>()->value, a.span);
    dt = parsed;
    if (cuda != (t.device().type == rt::DeviceType::cuda)) dev = cuda ? rt::Device::cuda(0) : rt::Device::cpu();
  }
  if (!dt) r.type_error(1, "a dtype or a type string");
  rt::Args args{rt::IValue(t), rt::IValue(*dt), dev ? rt::IValue(*dev) : rt::IValue(), rt::IValue(false),
                rt::IValue(false)};
  return wrap_result(rt::dispatch(rt::OpId::to, args)[0], a);
}

}  // namespace

void install_torch_predicates(Interp& in) {
  for (const Predicate& p : kPredicates) in.def_native(p.name, predicate_function(p));
  in.def_native("is_tensor", [](Interp&, CallArgs& a) {
    ArgReader r(a, "is_tensor", {"obj"});
    return Value(tensor_of(r.required(0)) != nullptr);
  });
  in.def_native("is_inference_mode_enabled", [](Interp&, CallArgs& a) {  // amps has no inference mode
    ArgReader r(a, "is_inference_mode_enabled", {});
    return Value(false);
  });
  in.def_native("result_type", b_result_type);
  in.def_native("promote_types", b_promote_types);
  in.def_native("can_cast", b_can_cast);
  in.def_native("broadcast_shapes", b_broadcast_shapes);
  in.def_native("get_num_threads", b_get_num_threads);
  in.def_native("set_num_threads", b_set_num_threads);
  in.def_native("get_device", b_get_device);
}

// The predicates as tensor methods (x.is_signed(), ...) and element_size, ndimension, nelement, get_device.
void add_predicate_methods(std::unordered_map<Atom, Value>& m) {
  for (const Predicate& p : kPredicates) {
    const Predicate pred = p;
    m[intern(p.name)] = make<Native>(p.name, [pred](Interp&, CallArgs& a) {
      ArgReader r(a, pred.name, {"self"});
      return Value(pred.test(*tensor_of(r.get(0)), a.span));
    });
  }
  auto add = [&](const char* name, int64_t (*f)(const rt::Tensor&)) {
    m[intern(name)] = make<Native>(name, [name, f](Interp&, CallArgs& a) {
      ArgReader r(a, name, {"self"});
      return Value(f(*tensor_of(r.get(0))));
    });
  };
  add("element_size", [](const rt::Tensor& t) { return int64_t(rt::dtype_size(t.dtype())); });
  add("ndimension", [](const rt::Tensor& t) { return t.dim(); });
  add("nelement", [](const rt::Tensor& t) { return t.numel(); });
  add("get_device", device_index);
  m[intern("type")] = make<Native>("type", m_type);
}

}  // namespace amps::interp
