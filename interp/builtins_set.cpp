// The `set` builtin: Python's set, a class written in amps (stdlib/py_set.amps), imported on the first call so that
// scripts without sets pay nothing at start-up. That call rebinds the builtin `set` to the class itself, so that
// `type(s) is set` holds and later calls go straight to it; `isinstance(x, set)` against a `set` read before the
// first call (this native) still holds through the native's name.
#include "interp/builtins.hpp"

namespace amps::interp {

void install_set_builtin(Interp& in) {
  in.def_native("set", [](Interp& inn, CallArgs& a) {
    if (!inn.has_module("py_set"))
      Interp::fail("NameError", "set() needs amps' standard library (stdlib/py_set.amps), which this interpreter was "
                                "created without; install it (amps_new does) or use a dict's keys", a.span);
    Value mod = inn.import_module({intern("py_set")}, a.span);
    Value cls = *mod.as<Module>()->attrs.find(intern("set"));
    inn.def_global("set", cls);
    return inn.call(cls, a);
  });
}

}  // namespace amps::interp
