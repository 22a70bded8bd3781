// Stdlib modules written in amps (stdlib/*.amps, embedded at build time): nn and optim.
#pragma once

#include <string>

#include "interp/interp.hpp"

namespace amps::stdlib {

// Registers module `name` whose body is the embedded stdlib/NAME.amps; `natives` (optional)
// runs first so the script can use the module's C++ functions.
void def_script_module(interp::Interp& in, const std::string& name, interp::ModuleInit natives = {});

// Registers nn (with its C++ helpers) and optim.
void install_script_modules(interp::Interp& in);

}  // namespace amps::stdlib
