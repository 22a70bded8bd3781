// install_stdlib: registers every part of the standard library in an interpreter.
#include "stdlib/install.hpp"

#include "stdlib/script_modules.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

void install_stdlib(interp::Interp& in) {
  install_data(in);
  install_io(in);
  install_progress(in);
  install_plot(in);
  install_script_modules(in);
}

}  // namespace amps::stdlib
