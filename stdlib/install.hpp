// The one entry point hosts call to register the standard library in an interpreter.
#pragma once

#include "interp/interp.hpp"

namespace amps::stdlib {

// Registers data, plot (modules) and save/load/progress/log_csv (globals) in `in`; call once,
// right after constructing the interpreter and before running code.
void install_stdlib(interp::Interp& in);

}  // namespace amps::stdlib
