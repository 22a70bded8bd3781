// The `amps` command line: options, running scripts and the REPL, exit codes (LANGUAGE §5).
#pragma once

namespace amps::interp {

// Runs the CLI; returns the process exit status (0 ok, 1 script error, 2 bad command line).
int cli_main(int argc, char** argv);

}  // namespace amps::interp
