// Helpers shared by the stdlib bindings: path arguments under the sandbox, string maps, lengths.
#include <cstdio>
#include <cstdlib>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

void internal_error(const char* file, int line, const std::string& message) {
  std::fprintf(stderr, "%s:%d: internal error: %s\n", file, line, message.c_str());
  std::abort();
}

std::string checked_path(Vm& vm, const Args& r, size_t i, const char* fn) {
  const Value& v = r.required(i);
  if (!v.is(AMPS_TYPE_STR)) r.type_error(i, "a str (a file path)");
  if (vm.sandboxed()) fail("PermissionError", fmt::format("{}(): file access is disabled in this sandboxed interpreter", fn));
  std::string path = *vm.to_str(v);
  if (path.empty()) fail("ValueError", fmt::format("{}(): the path is empty", fn));
  return path;
}

std::map<std::string, std::string> string_map(Vm& vm, const Value& v, const std::string& what) {
  if (!v.is(AMPS_TYPE_DICT)) fail("TypeError", fmt::format("{} must be a dict, not {}", what, v.type_name()));
  std::map<std::string, std::string> out;
  for (size_t i = 0, n = size_t(vm.len(v)); i < n; ++i) {
    auto [k, val] = vm.dict_entry(v, i);
    if (!k.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("{} keys must be str, not {}", what, k.type_name()));
    out[*vm.to_str(k)] = vm.str(val);
  }
  return out;
}

int64_t length_of(Vm& vm, const Value& v) {
  if (v.is(AMPS_TYPE_LIST) || v.is(AMPS_TYPE_TUPLE)) return vm.len(v);
  Value m = vm.find_attr(v, "__len__");
  if (!m) fail("TypeError", fmt::format("object of type '{}' has no len()", v.type_name()));
  Value n = vm.call(m).get();
  if (!n.is(AMPS_TYPE_INT) || *vm.to_int(n) < 0) fail("TypeError", "__len__() should return a non-negative int");
  return *vm.to_int(n);
}

std::string repr_of(Vm& vm, const Value& v) { return *vm.to_str(vm.call(vm.builtin("repr"), {v}).get()); }

void register_module(Vm& vm, const char* name, const amps_reg* table, const char* source) {
  if (auto err = vm.register_module_table(name, table, source)) throw Failed(*err);
}

void register_globals(Vm& vm, const amps_reg* table) {
  if (auto err = vm.register_globals_table(table)) throw Failed(*err);
}

bool is_contiguous(const amps_tensor_info& t) {
  int64_t expect = 1;
  for (size_t i = t.ndim; i-- > 0;) {
    if (t.shape[i] != 1 && t.strides[i] != expect) return false;
    expect *= t.shape[i];
  }
  return true;
}

}  // namespace amps::stdlib
