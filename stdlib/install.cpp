// install_stdlib: registers every part of the standard library in an interpreter.
//
// The rule for stdlib/ (no back doors, issue 6): the standard library is a client of the public
// embedding API like any host. Its files include only amps/amps.h, amps/amps.hpp, their own
// stdlib/ headers and third-party libraries, never interp/, runtime/ or amp/. Modules register as
// {name, fn} tables (amps_register_module / amps_register_globals), natives read their arguments
// and build results through amps_* values, tensors and host objects, and errors leave through
// amps_raise / amps_fail or by re-raising the failure of a call back into the vm.
// What the language itself provides (math, time, autograd, amp, tensors and their ops) is built
// into the interpreter (interp/), not registered here. The build enforces the rule: the stdlib
// target's include path holds only the public headers and stdlib/ (stdlib/CMakeLists.txt), and
// the test stdlib_public_api_only scans these sources for internal includes.
#include "stdlib/install.hpp"

#include "stdlib/script_modules.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

amps_status install_stdlib(amps_vm* vm) {
  Vm view = Vm::borrow(vm);
  try {
    install_data(view);
    install_io(view);
    install_progress(view);
    install_plot(view);
    install_open(view);
    install_os(view);
    install_glob(view);
    install_file_data(view);
    install_script_modules(view);
  } catch (const Failed& e) {
    return e.error.status;
  }
  return AMPS_OK;
}

}  // namespace amps::stdlib
