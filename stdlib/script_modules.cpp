// Registration of the stdlib modules written in amps (see script_modules.hpp).
#include "stdlib/script_modules.hpp"

#include "stdlib/embedded.hpp"

namespace amps::stdlib {

void install_nn_natives(interp::Interp& in, interp::Module& mod);

void def_script_module(interp::Interp& in, const std::string& name, interp::ModuleInit natives) {
  in.def_module(name, [name, natives](interp::Interp& i, interp::Module& mod) {
    if (natives) natives(i, mod);
    i.exec_module_source(mod, "<stdlib " + name + ">", std::string(embedded_source(name)));
  });
}

void install_script_modules(interp::Interp& in) {
  def_script_module(in, "nn", install_nn_natives);
  def_script_module(in, "optim");
}

}  // namespace amps::stdlib
