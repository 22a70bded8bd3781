// Helpers shared by the stdlib bindings: path arguments under the sandbox, string maps, lengths.
#include <fmt/format.h>

#include "runtime/error.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

using namespace amps::interp;

std::string checked_path(Interp& in, const ArgReader& r, size_t i, const char* fn) {
  const Value& v = r.required(i);
  if (!v.is(ObjKind::Str)) r.type_error(i, "a str (a file path)");
  if (in.config().sandbox)
    Interp::fail("PermissionError", fmt::format("{}(): file access is disabled in this sandboxed interpreter", fn), r.span());
  if (v.as<Str>()->value.empty()) Interp::fail("ValueError", fmt::format("{}(): the path is empty", fn), r.span());
  return v.as<Str>()->value;
}

std::map<std::string, std::string> string_map(Interp& in, const Value& v, const std::string& what) {
  if (!v.is(ObjKind::Dict)) throw rt::Error("TypeError", fmt::format("{} must be a dict, not {}", what, type_name(v)));
  std::map<std::string, std::string> out;
  for (auto& [k, val] : v.as<Dict>()->entries) {
    if (!k.is(ObjKind::Str)) throw rt::Error("TypeError", fmt::format("{} keys must be str, not {}", what, type_name(k)));
    out[k.as<Str>()->value] = in.str(val);
  }
  return out;
}

void def(Module& m, const char* name, Native::Fn fn) { m.attrs[intern(name)] = make<Native>(name, std::move(fn)); }

int64_t length_of(Interp& in, const Value& v, const Span& where) {
  if (v.is(ObjKind::List)) return int64_t(v.as<List>()->items.size());
  if (v.is(ObjKind::Tuple)) return int64_t(v.as<Tuple>()->items.size());
  Value m = in.find_attr(v, intern("__len__"));
  if (m.is_undef()) Interp::fail("TypeError", fmt::format("object of type '{}' has no len()", type_name(v)), where);
  Value n = in.call(m, std::vector<Value>{});
  if (!n.is_int() || n.as_int() < 0) Interp::fail("TypeError", "__len__() should return a non-negative int", where);
  return n.as_int();
}

}  // namespace amps::stdlib

namespace amps::stdlib {
interp::Value bound(interp::Object* self, const char* name, interp::Native::Fn fn) {
  return interp::make<interp::BoundMethod>(interp::Value(self), interp::make<interp::Native>(name, std::move(fn)));
}
}  // namespace amps::stdlib
