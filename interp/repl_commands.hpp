// REPL commands for exploring casts: `:policy DEVICE`, `:explain EXPR`, `:trace on|off`.
#pragma once

#include <string>

#include "interp/interp.hpp"

namespace amps::interp {

// Runs `line` if it is one of the cast-exploration commands; returns false otherwise.
// Output goes to the interpreter's sinks; errors are reported, never thrown.
bool run_cast_command(Interp& in, const std::string& line);

// One-line summaries of the commands, for :help.
extern const char* kCastCommandsHelp;

}  // namespace amps::interp
