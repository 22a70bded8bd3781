// The `__future__` module: `from __future__ import print_function` (Python 2 compatibility lines at the top of many
// scripts). Every feature it names is always on in Python 3 and in amps, so importing one changes nothing; the
// names are there (as none, not Python's _Feature records; barry_as_FLUFL, which would change the syntax, is left
// out) and any other name is Python's ImportError.
#include "interp/builtins.hpp"

namespace amps::interp {

void install_future_module(Interp& in) {
  in.def_module("__future__", [](Interp&, Module& m) {
    for (const char* feature : {"nested_scopes", "generators", "division", "absolute_import", "with_statement",
                                "print_function", "unicode_literals", "generator_stop",
                                "annotations"})
      m.attrs[intern(feature)] = Value();
  });
}

}  // namespace amps::interp
