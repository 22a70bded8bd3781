// Stdlib modules written in amps (stdlib/*.amps, embedded at build time): nn and optim.
#pragma once

#include <string>

#include "amps/amps.h"
#include "interp/interp.hpp"

namespace amps::stdlib {

// Registers module `name` through the embedding API (amps_register_module): the functions of
// the {name, fn} table `natives` (optional), then the embedded stdlib/NAME.amps as its body.
void def_script_module(interp::Interp& in, const std::string& name, const amps_reg* natives = nullptr);

// Registers nn (with its C++ helpers) and optim.
void install_script_modules(interp::Interp& in);

}  // namespace amps::stdlib
