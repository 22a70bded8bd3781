// Dispatch of the built-in types' methods (`xs.append`, `s.split`): the tables live in methods_<type>.cpp.
#include "interp/methods.hpp"

#include <fmt/format.h>

namespace amps::interp {
namespace {

const MethodTable* table_for(const Value& v) {
  if (v.is(ObjKind::List)) return &list_methods();
  if (v.is(ObjKind::Dict)) return &dict_methods();
  if (v.is(ObjKind::Str)) return &str_methods();
  if (v.is(ObjKind::Tuple)) return &tuple_methods();
  return nullptr;
}

// The table and object kind of a builtin constructor named [type] ("str", "list", ...), or null.
const MethodTable* constructor_table(const std::string& type, ObjKind& kind) {
  if (type == "list") return kind = ObjKind::List, &list_methods();
  if (type == "dict") return kind = ObjKind::Dict, &dict_methods();
  if (type == "str") return kind = ObjKind::Str, &str_methods();
  if (type == "tuple") return kind = ObjKind::Tuple, &tuple_methods();
  return nullptr;
}

// Methods reached through a builtin constructor: `dict.fromkeys(keys)`, and unbound methods such as `str.lower`
// (`sorted(names, key=str.lower)`), which take the receiver as their first argument.
Value constructor_method(const Value& self, Atom name) {
  if (!self.is(ObjKind::Native)) return Value::undef();
  const std::string type = self.as<Native>()->name;
  if (type == "dict" && *name == "fromkeys") return make<Native>("fromkeys", dict_fromkeys);
  ObjKind kind;
  const MethodTable* t = constructor_table(type, kind);
  auto it = t ? t->find(*name) : MethodTable::const_iterator();
  if (!t || it == t->end()) return Value::undef();
  MethodFn fn = it->second;
  std::string method = *name;
  return make<Native>(type + "." + method, [fn, kind, type, method](Interp& in, CallArgs& a) {
    if (a.pos.empty()) Interp::fail("TypeError", fmt::format("unbound method {}.{}() needs an argument", type, method), a.span);
    Value self = a.pos.front();
    if (!self.is(kind))
      Interp::fail("TypeError", fmt::format("descriptor '{}' for '{}' objects doesn't apply to a '{}' object", method, type,
                                            type_name(self)), a.span);
    a.pos.erase(a.pos.begin());
    return fn(in, self, a);
  });
}

}  // namespace

std::string str_arg(const ArgReader& r, size_t i, const std::string& what) {
  const Value& v = r.required(i);
  if (!v.is(ObjKind::Str))
    Interp::fail("TypeError", fmt::format("{}{}must be str, not {}", what, what.empty() ? "" : " ", type_name(v)), r.span());
  return v.as<Str>()->value;
}

void clamp_range(const ArgReader& r, size_t i, int64_t n, int64_t& start, int64_t& end, bool none_ok) {
  for (size_t k = i; k < i + 2; ++k)
    if (r.has(k) && !(none_ok && r.get(k).is_none()) && !r.get(k).is_int() && !r.get(k).is_bool())
      Interp::fail("TypeError", none_ok ? "slice indices must be integers or None or have an __index__ method"
                                        : "slice indices must be integers or have an __index__ method", r.span());
  start = r.int_or(i, 0);
  end = r.int_or(i + 1, n);
  if (end > n) end = n;
  if (end < 0) end = std::max<int64_t>(0, end + n);
  if (start < 0) start = std::max<int64_t>(0, start + n);
}

const Value& one_arg(const CallArgs& a, const char* qualname) {
  if (!a.kw.empty()) Interp::fail("TypeError", fmt::format("{}() takes no keyword arguments", qualname), a.span);
  if (a.pos.size() != 1) Interp::fail("TypeError", fmt::format("{}() takes exactly one argument ({} given)", qualname, a.pos.size()), a.span);
  return a.pos[0];
}

void no_args(const CallArgs& a, const char* qualname) {
  if (!a.pos.empty()) Interp::fail("TypeError", fmt::format("{}() takes no arguments ({} given)", qualname, a.pos.size()), a.span);
  if (!a.kw.empty()) Interp::fail("TypeError", fmt::format("{}() takes no keyword arguments", qualname), a.span);
}

Value builtin_method(Interp&, const Value& self, Atom name) {
  const MethodTable* t = table_for(self);
  if (!t) return constructor_method(self, name);
  auto it = t->find(*name);
  if (it == t->end()) return Value::undef();
  MethodFn fn = it->second;
  return make<BoundMethod>(self, make<Native>(*name, [fn](Interp& in, CallArgs& a) {
    Value self = a.pos.front();
    a.pos.erase(a.pos.begin());
    return fn(in, self, a);
  }));
}

}  // namespace amps::interp
