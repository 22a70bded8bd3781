// The interactive REPL (libedit): prompts, continuation lines, history, completion, commands.
#pragma once

namespace amps::interp {

// Runs the REPL on the terminal until :quit or Ctrl-D; returns the exit status.
int run_repl();

}  // namespace amps::interp
