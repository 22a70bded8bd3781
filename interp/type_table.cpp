// The type objects of one interpreter (type_table.hpp): the core types' fixed slots, types made by name, the
// Python module each built-in type reports, and type(v) for every kind of value.
#include "interp/type_table.hpp"

#include <fmt/format.h>

#include "interp/interp.hpp"

namespace amps::interp {

const std::array<const char*, TypeTable::kCoreCount> TypeTable::kCoreNames = {
    "NoneType", "bool", "int", "float", "str", "list", "tuple", "dict", "range", "slice", "function",
    "builtin_function_or_method", "method", "type", "module", "Tensor", "dtype", "device"};

namespace {

// Python's __module__ of the built-in types amps names after PyTorch's or the standard library's; every other
// built-in type is in `builtins`, as in Python.
struct PyModule {
  std::string_view name, module;
};
constexpr PyModule kPyModules[] = {
    {"Tensor", "torch"},
    {"dtype", "torch"},
    {"device", "torch"},
    {"iinfo", "torch"},
    {"finfo", "torch"},
    {"Generator", "torch._C"},
    {"GradScaler", "torch.cuda.amp.grad_scaler"},
    {"no_grad", "torch.autograd.grad_mode"},
    {"enable_grad", "torch.autograd.grad_mode"},
    {"set_grad_enabled", "torch.autograd.grad_mode"},
    {"inference_mode", "torch.autograd.grad_mode"},
    {"detect_anomaly", "torch.autograd.anomaly_mode"},
    {"set_detect_anomaly", "torch.autograd.anomaly_mode"},
    {"autocast", "torch.amp.autocast_mode"},
    {"nullcontext", "contextlib"},
    {"suppress", "contextlib"},
    {"TextIOWrapper", "_io"},
};

std::string python_module(std::string_view name) {
  for (const PyModule& m : kPyModules)
    if (m.name == name) return std::string(m.module);
  return "builtins";
}

// The constructor of a type Python will not make from a script: TypeError, as Python's.
Native::Fn no_constructor(std::string full_name) {
  return [full_name](Interp&, CallArgs& a) -> Value {
    Interp::fail("TypeError", fmt::format("cannot create '{}' instances", full_name), a.span);
  };
}

// NoneType(): none, as Python's type(None)().
Value none_type(Interp&, CallArgs& a) {
  if (!a.pos.empty() || !a.kw.empty()) Interp::fail("TypeError", "NoneType takes no arguments", a.span);
  return Value();
}

}  // namespace

BuiltinType* TypeTable::named(std::string_view name) {
  auto it = by_name_.find(std::string(name));
  if (it != by_name_.end()) return it->second.get();
  std::string module = python_module(name);
  std::string full = module == "builtins" ? std::string(name) : module + "." + std::string(name);
  Native::Fn ctor = name == "NoneType" ? Native::Fn(none_type) : no_constructor(full);
  auto t = make<BuiltinType>(std::string(name), std::move(ctor), std::move(module), Ref<BuiltinType>());
  BuiltinType* raw = t.get();
  by_name_.emplace(std::string(name), std::move(t));
  return raw;
}

void TypeTable::add(Ref<BuiltinType> t) {
  for (size_t c = 0; c < kCoreCount; ++c)
    if (t->name == kCoreNames[c]) core_[c] = t.get();
  std::string name = t->name;   // read before the move: an assignment evaluates its right side first
  by_name_[name] = std::move(t);
}

const Object* TypeTable::type_of(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::Undef:
    case Value::Tag::None: return core(NoneType);
    case Value::Tag::Bool: return core(Bool);
    case Value::Tag::Int: return core(Int);
    case Value::Tag::Float: return core(Float);
    case Value::Tag::Obj: break;
  }
  return object_type(v);
}

const Object* TypeTable::object_type(const Value& v) {
  switch (v.obj()->kind()) {
    case ObjKind::Str: return core(Str);
    case ObjKind::List: return core(List);
    case ObjKind::Tuple: return core(Tuple);
    case ObjKind::Dict: return core(Dict);
    case ObjKind::Range: return core(Range);
    case ObjKind::Slice: return core(Slice);
    case ObjKind::Function: return core(Function);
    case ObjKind::Native: return core(v.as<Native>()->is_type ? Type : BuiltinFunction);
    case ObjKind::BoundMethod: return core(v.as<BoundMethod>()->fn.is(ObjKind::Native) ? BuiltinFunction : Method);
    case ObjKind::Class: return core(Type);
    case ObjKind::Instance: return v.as<Instance>()->cls.get();   // exceptions too (interp/exceptions.hpp)
    case ObjKind::Module: return core(Module);
    case ObjKind::Tensor: return core(Tensor);
    case ObjKind::DType: return core(DType);
    case ObjKind::Device: return core(Device);
    default: return named(v.obj()->type_name());   // iterators, generators, files, scalers, host objects, ...
  }
}

Value make_type(Interp& in, std::string_view name, Native::Fn fn, std::string_view base) {
  TypeTable& table = in.types();
  Ref<BuiltinType> b = base.empty() ? Ref<BuiltinType>() : Ref<BuiltinType>(table.named(base));
  auto t = make<BuiltinType>(std::string(name), std::move(fn), python_module(name), std::move(b));
  Value out = t;
  table.add(std::move(t));
  return out;
}

Value def_type(Interp& in, std::string_view name, Native::Fn fn, std::string_view base) {
  Value t = make_type(in, name, std::move(fn), base);
  in.def_global(name, t);
  return t;
}

Value type_of(Interp& in, const Value& v) { return Value(const_cast<Object*>(in.types().type_of(v))); }

bool is_builtin_instance(Interp& in, const Value& v, const BuiltinType& t) {
  const Object* type = in.types().type_of(v);
  if (type == &t) return true;
  if (t.script_class && type->kind() == ObjKind::Class) return *static_cast<const Class*>(type)->name == t.name;
  auto* native = type->kind() == ObjKind::Native ? static_cast<const Native*>(type) : nullptr;
  return native && native->is_type && static_cast<const BuiltinType*>(native)->is_subtype_of(&t);
}

}  // namespace amps::interp
