// Stdlib modules written in amps (stdlib/*.amps, embedded at build time): nn and optim.
#pragma once

#include "amps/amps.hpp"

namespace amps::stdlib {

// Registers module [name] through the embedding API (amps_register_module): the functions of
// the {name, fn} table [natives] (optional), then the embedded stdlib/NAME.amps as its body.
void def_script_module(Vm& vm, const char* name, const amps_reg* natives = nullptr);

// Registers nn (with its C++ helpers) and optim; throws Failed when a registration fails.
void install_script_modules(Vm& vm);

}  // namespace amps::stdlib
