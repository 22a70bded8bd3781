// Registration of the stdlib modules written in amps (see script_modules.hpp).
#include "stdlib/script_modules.hpp"

#include "interp/embed/handles.hpp"
#include "runtime/error.hpp"
#include "stdlib/embedded.hpp"

namespace amps::stdlib {

extern const amps_reg nn_natives[];   // nn_native.cpp

void def_script_module(interp::Interp& in, const std::string& name, const amps_reg* natives) {
  std::string source(embedded_source(name));
  amps_status s = amps_register_module(interp::embed::handle_of(in), name.c_str(), natives, source.c_str());
  AMPS_ASSERT(s == AMPS_OK, "stdlib module {}: {}", name, amps_last_error(interp::embed::handle_of(in))->message);
}

void install_script_modules(interp::Interp& in) {
  def_script_module(in, "nn", nn_natives);
  def_script_module(in, "optim");
}

}  // namespace amps::stdlib
