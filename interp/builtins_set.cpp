// The `set` builtin: Python's set, a class written in amps (stdlib/py_set.amps), imported on the first call so that
// scripts without sets pay nothing at start-up. Until then `set` is a built-in type that stands for the class
// (`<class 'set'>`, `type(set) is type`); its first call rebinds the builtin `set` to the class itself, so that
// `type(s) is set` holds and later calls go straight to it. `isinstance(x, set)` against the stand-in (read before
// the first call) holds for the class's instances too.
#include "interp/builtins.hpp"

namespace amps::interp {

void install_set_builtin(Interp& in) {
  Value stand_in = def_type(in, "set", [](Interp& inn, CallArgs& a) {
    if (!inn.has_module("py_set"))
      Interp::fail("NameError", "set() needs amps' standard library (stdlib/py_set.amps), which this interpreter was "
                                "created without; install it (amps_new does) or use a dict's keys", a.span);
    Value mod = inn.import_module({intern("py_set")}, a.span);
    Value cls = *mod.as<Module>()->attrs.find(intern("set"));
    inn.def_global("set", cls);
    return inn.call(cls, a);
  });
  stand_in.as<BuiltinType>()->script_class = true;
}

}  // namespace amps::interp
