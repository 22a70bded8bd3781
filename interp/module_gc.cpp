// Python's gc module, honest to amps' memory model: values are freed by reference counting the moment the last
// reference goes; reference cycles are freed when the interpreter ends. There is no cycle collector, so
// gc.collect() finds nothing to free and returns 0 (Python's count of unreachable objects it found); enable/disable
// switch a flag that isenabled() reports, which is all Python's switch changes for code that does not allocate cycles.
#include "interp/builtins.hpp"
#include "interp/interp.hpp"

namespace amps::interp {

void install_gc_module(Interp& in) {
  in.def_module("gc", [](Interp&, Module& m) {
    auto enabled = std::make_shared<bool>(true);
    m.attrs[intern("collect")] = make<Native>("collect", [](Interp&, CallArgs& a) {
      ArgReader r(a, "collect", {"generation"});
      if (r.has(0) && !(r.get(0).is_int() && r.get(0).as_int() >= 0 && r.get(0).as_int() <= 2))
        Interp::fail("ValueError", "invalid generation", a.span);
      return Value(int64_t(0));
    });
    m.attrs[intern("enable")] = make<Native>("enable", [enabled](Interp&, CallArgs& a) {
      ArgReader r(a, "enable", {});
      *enabled = true;
      return Value();
    });
    m.attrs[intern("disable")] = make<Native>("disable", [enabled](Interp&, CallArgs& a) {
      ArgReader r(a, "disable", {});
      *enabled = false;
      return Value();
    });
    m.attrs[intern("isenabled")] = make<Native>("isenabled", [enabled](Interp&, CallArgs& a) {
      ArgReader r(a, "isenabled", {});
      return Value(*enabled);
    });
  });
}

}  // namespace amps::interp
