// The type objects of one interpreter: what `type(x)`, `x.__class__` and `isinstance` see for every value.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

#include "interp/objects.hpp"

namespace amps::interp {

// Owns every BuiltinType of an interpreter. The types of the core values (none, numbers, containers, functions,
// tensors, dtypes, devices) sit in fixed slots, so type() and isinstance() on them cost a switch and no allocation;
// other native objects' types (list_iterator, TextIOWrapper, ...) are found by their type name, made on first use.
// Only the thread holding the interpreter lock touches the table.
class TypeTable {
 public:
  // type(v), borrowed from the table (or from the instance: its class).
  const Object* type_of(const Value& v);
  // Registers [t] under its name; a core name fills its fixed slot too.
  void add(Ref<BuiltinType> t);
  // The type named [name] (Python's __name__), made on first use with no constructor.
  BuiltinType* named(std::string_view name);

 private:
  enum Core : uint8_t {
    NoneType, Bool, Int, Float, Str, List, Tuple, Dict, Range, Slice, Function, BuiltinFunction, Method, Type, Module,
    Tensor, DType, Device, kCoreCount
  };
  static const std::array<const char*, kCoreCount> kCoreNames;
  BuiltinType* core(Core c) { return core_[c] ? core_[c] : (core_[c] = named(kCoreNames[c])); }
  const Object* object_type(const Value& v);

  std::array<BuiltinType*, kCoreCount> core_{};     // borrowed from by_name_
  std::unordered_map<std::string, Ref<BuiltinType>> by_name_;
};

// A built-in type constructed by [fn], registered in [in]'s table (its Python module comes from one table in
// type_table.cpp); [base] names the type it derives from (bool: "int"), defined before it.
Value make_type(Interp& in, std::string_view name, Native::Fn fn, std::string_view base = {});
// make_type, bound to the global [name] too.
Value def_type(Interp& in, std::string_view name, Native::Fn fn, std::string_view base = {});

// type(v) as a value (interp/type_table.cpp).
Value type_of(Interp& in, const Value& v);

// isinstance(v, t) for a built-in type [t]: v's type is t or derives from it.
bool is_builtin_instance(Interp& in, const Value& v, const BuiltinType& t);

}  // namespace amps::interp
