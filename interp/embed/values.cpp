// The embedding API's values: constructors, handles, type queries and conversions.
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "interp/embed/handles.hpp"
#include "interp/tensor_value.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;

namespace {

// Misuse message naming the API function, the expected type and what was passed.
amps_status wrong_type(Interp& in, const char* fn, const char* expected, const Value& v) {
  return misuse(in, fmt::format("{}: expected {}, got {}", fn, expected, type_name(v)));
}

bool is_callable(const Value& v) {
  return v.is(ObjKind::Function) || v.is(ObjKind::Native) || v.is(ObjKind::BoundMethod) || v.is(ObjKind::Class);
}

}  // namespace

extern "C" {

amps_value* amps_none(void) { return new_handle(Value()); }
amps_value* amps_bool(int b) { return new_handle(Value(b != 0)); }
amps_value* amps_int(int64_t i) { return new_handle(Value(i)); }
amps_value* amps_float(double d) { return new_handle(Value(d)); }
amps_value* amps_str(const char* s, size_t len) { return new_handle(make_str(s ? std::string(s, len) : std::string())); }

amps_value* amps_list(size_t n, amps_value* const* items) {
  std::vector<Value> vals;
  for (size_t i = 0; i < n; ++i) vals.push_back(items && items[i] ? value_of(items[i]) : Value());
  return new_handle(make_list(std::move(vals)));
}

amps_value* amps_tuple(size_t n, amps_value* const* items) {
  std::vector<Value> vals;
  for (size_t i = 0; i < n; ++i) vals.push_back(items && items[i] ? value_of(items[i]) : Value());
  return new_handle(make_tuple(std::move(vals)));
}

amps_value* amps_dict(void) { return new_handle(make<Dict>()); }

amps_value* amps_dtype_value(amps_dtype dtype) {
  if (int(dtype) < 0 || int(dtype) >= amps::rt::dtype_count) return nullptr;
  return new_handle(wrap_dtype(amps::rt::DType(dtype)));
}

amps_value* amps_retain(const amps_value* v) { return v ? new_handle(value_of(v)) : nullptr; }
void amps_release(amps_value* v) { delete reinterpret_cast<Value*>(v); }

amps_type amps_typeof(const amps_value* v) {
  if (!v) return AMPS_TYPE_OTHER;
  const Value& x = value_of(v);
  switch (x.tag()) {
    case Value::Tag::Undef:
    case Value::Tag::None: return AMPS_TYPE_NONE;
    case Value::Tag::Bool: return AMPS_TYPE_BOOL;
    case Value::Tag::Int: return AMPS_TYPE_INT;
    case Value::Tag::Float: return AMPS_TYPE_FLOAT;
    case Value::Tag::Obj: break;
  }
  switch (x.obj()->kind()) {
    case ObjKind::Str: return AMPS_TYPE_STR;
    case ObjKind::Tensor: return AMPS_TYPE_TENSOR;
    case ObjKind::List: return AMPS_TYPE_LIST;
    case ObjKind::Tuple: return AMPS_TYPE_TUPLE;
    case ObjKind::Dict: return AMPS_TYPE_DICT;
    case ObjKind::DType: return AMPS_TYPE_DTYPE;
    case ObjKind::Device: return AMPS_TYPE_DEVICE;
    default: return is_callable(x) ? AMPS_TYPE_CALLABLE : AMPS_TYPE_OTHER;
  }
}

// Interned: the text lives as long as the process.
const char* amps_type_name(const amps_value* v) { return v ? intern(type_name(value_of(v)))->c_str() : "none"; }

amps_status amps_to_bool(amps_vm* vm, const amps_value* v, int* out) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_to_bool: value or out is NULL");
    if (!value_of(v).is_number()) return wrong_type(in, "amps_to_bool", "a bool, int or float", value_of(v));
    *out = value_of(v).to_double() != 0;
    return AMPS_OK;
  });
}

amps_status amps_to_int(amps_vm* vm, const amps_value* v, int64_t* out) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_to_int: value or out is NULL");
    const Value& x = value_of(v);
    if (x.is_float() && x.as_float() == std::trunc(x.as_float()) && std::abs(x.as_float()) < 9.2e18) {
      *out = int64_t(x.as_float());
      return AMPS_OK;
    }
    if (!x.is_int() && !x.is_bool()) return wrong_type(in, "amps_to_int", "an int, bool or integral float", x);
    *out = x.as_int();
    return AMPS_OK;
  });
}

amps_status amps_to_float(amps_vm* vm, const amps_value* v, double* out) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_to_float: value or out is NULL");
    const Value& x = value_of(v);
    if (const amps::rt::Tensor* t = tensor_of(x)) {
      if (t->numel() != 1) return misuse(in, fmt::format("amps_to_float: the tensor has {} elements, not 1", t->numel()));
      *out = t->item().to<double>();
      return AMPS_OK;
    }
    if (!x.is_number()) return wrong_type(in, "amps_to_float", "a number or a one-element tensor", x);
    *out = x.to_double();
    return AMPS_OK;
  });
}

amps_status amps_to_dtype(amps_vm* vm, const amps_value* v, amps_dtype* out) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_to_dtype: value or out is NULL");
    if (!value_of(v).is(ObjKind::DType)) return wrong_type(in, "amps_to_dtype", "a dtype", value_of(v));
    *out = amps_dtype(value_of(v).as<DTypeObj>()->dtype);
    return AMPS_OK;
  });
}

amps_status amps_device_value(amps_vm* vm, const char* spec, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!spec || !out) return misuse(in, "amps_device_value: spec or out is NULL");
    *out = new_handle(wrap_device(amps::rt::device_from_string(spec)));
    return AMPS_OK;
  });
}

amps_status amps_to_str(amps_vm* vm, const amps_value* v, const char** out, size_t* len) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_to_str: value or out is NULL");
    if (!value_of(v).is(ObjKind::Str)) return wrong_type(in, "amps_to_str", "a str", value_of(v));
    const std::string& s = value_of(v).as<Str>()->value;
    *out = s.c_str();
    if (len) *len = s.size();
    return AMPS_OK;
  });
}

amps_status amps_repr(amps_vm* vm, const amps_value* v, char** out) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_repr: value or out is NULL");
    std::string s = in.str(value_of(v));
    *out = static_cast<char*>(std::malloc(s.size() + 1));
    if (!*out) throw std::bad_alloc();
    std::memcpy(*out, s.c_str(), s.size() + 1);
    return AMPS_OK;
  });
}

}  // extern "C"
