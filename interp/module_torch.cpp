// The `torch` module: PyTorch's namespace over amps' own names, so a script keeps `torch.zeros(...)`,
// `device = torch.device(...)`, `torch.cuda.is_available()`, `import torch.nn as nn`, `torch.utils.data.DataLoader`.
// Names resolve on first use (Module::on_missing): torch's dtype names (torch.float is float32, torch.int int32,
// torch.long int64, torch.bool the dtype; Python's float/int/bool stay Python's in amps' globals), the stdlib modules
// under their torch names, then amps' global of the same name. Python's own builtins and the error kinds are not
// torch's and stay out (`torch.print` is an AttributeError, as in PyTorch).
#include <string_view>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {
namespace {

// Python's builtins among amps' globals: not attributes of torch.
bool python_builtin(std::string_view n) {
  static const std::string_view names[] = {
      "print", "len", "range", "str", "repr", "type", "isinstance", "issubclass", "enumerate", "zip", "sorted",
      "reversed", "getattr", "setattr", "hasattr", "vars", "iter", "next", "map", "filter", "slice", "divmod", "chr",
      "ord", "hex", "oct", "bin", "callable", "hash", "id", "format", "object", "set", "list", "tuple", "dict", "open",
      "exit", "quit", "args", "classmethod", "staticmethod", "property", "input", "super", "float", "int", "bool",
      "__name__"};
  for (std::string_view p : names)
    if (p == n) return true;
  return false;
}

// torch's capitalised names are tensor types (Tensor, FloatTensor, ...) and Generator; amps' other capitalised
// globals (error kinds, GradScaler) are not torch's top-level names.
bool torch_capitalised(std::string_view n) {
  return n == "Tensor" || n == "Generator" || (n.size() > 6 && n.substr(n.size() - 6) == "Tensor");
}

// torch.<name> for a dtype name that Python's builtins shadow in amps' globals.
Value torch_dtype(std::string_view n) {
  if (n == "float") return wrap_dtype(rt::DType::float32);
  if (n == "int") return wrap_dtype(rt::DType::int32);
  if (n == "bool") return wrap_dtype(rt::DType::bool_);
  return Value::undef();
}

// The stdlib module that torch.<name> names, or "" for none.
std::string_view stdlib_module(std::string_view n) {
  static const std::pair<std::string_view, std::string_view> names[] = {
      {"nn", "nn"}, {"optim", "optim"}, {"autograd", "autograd"}, {"distributions", "distributions"},
      {"linalg", "linalg"}, {"special", "special"}, {"amp", "amp"}, {"distributed", "dist"}};
  for (auto& [torch_name, module] : names)
    if (torch_name == n) return module;
  return "";
}

// torch.utils: data (torch.utils.data), checkpoint (torch.utils.checkpoint's checkpoint and
// checkpoint_sequential, which amps keeps in nn.utils).
Value torch_utils() {
  auto utils = make<Module>("torch.utils");
  utils->on_missing = [](Interp& inn, Atom name) -> Value {
    if (*name == "data") return inn.import_module({intern("data")}, {});
    if (*name != "checkpoint") return Value::undef();
    const Value nn_utils = inn.find_attr(inn.import_module({intern("nn")}, {}), intern("utils"));
    auto ckpt = make<Module>("torch.utils.checkpoint");
    for (const char* fn : {"checkpoint", "checkpoint_sequential"}) ckpt->attrs[intern(fn)] = inn.find_attr(nn_utils, intern(fn));
    return ckpt;
  };
  return utils;
}

Value torch_attr(Interp& in, Atom name) {
  const std::string_view n = *name;
  if (Value d = torch_dtype(n); !d.is_undef()) return d;
  if (std::string_view m = stdlib_module(n); !m.empty()) return in.import_module({intern(std::string(m))}, {});
  if (n == "utils") return torch_utils();
  if (python_builtin(n) || (!n.empty() && n[0] >= 'A' && n[0] <= 'Z' && !torch_capitalised(n))) return Value::undef();
  return in.lookup_builtin(n);
}

}  // namespace

void install_torch_module(Interp& in) {
  in.def_module("torch", [](Interp&, Module& m) { m.on_missing = torch_attr; });
}

}  // namespace amps::interp
