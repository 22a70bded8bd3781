// The `set` builtin: Python's set, a class written in amps (stdlib/py_set.amps), imported on the first call so that
// scripts without sets pay nothing at start-up. `isinstance(x, set)` works through the native's name, as for the
// other built-in types.
#include "interp/builtins.hpp"

namespace amps::interp {

void install_set_builtin(Interp& in) {
  in.def_native("set", [](Interp& inn, CallArgs& a) {
    if (!inn.has_module("py_set"))
      Interp::fail("NameError", "set() needs amps' standard library (stdlib/py_set.amps), which this interpreter was "
                                "created without; install it (amps_new does) or use a dict's keys", a.span);
    Value mod = inn.import_module({intern("py_set")}, a.span);
    return inn.call(*mod.as<Module>()->attrs.find(intern("set")), a);
  });
}

}  // namespace amps::interp
