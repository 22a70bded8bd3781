// The one entry point that registers the standard library in an interpreter.
#pragma once

#include "amps/amps.h"

namespace amps::stdlib {

// Registers nn, optim, data, plot (modules) and save/load/load_metadata/progress/log_csv (globals)
// in [vm] through the embedding API; call once, before running code. Fails only when a
// registration does (the status and amps_last_error say why).
amps_status install_stdlib(amps_vm* vm);

}  // namespace amps::stdlib
