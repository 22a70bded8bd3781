// The embedding API's functions that install the standard library: amps_new, amps_open_stdlib.
// Kept apart from the rest of the API because they link the stdlib.
#include <cstdio>

#include "interp/embed/handles.hpp"
#include "runtime/error.hpp"
#include "stdlib/install.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;

namespace {

// Creation failures have no vm to record them on: they go to the config's diagnostic sink.
amps_status creation_failed(const amps_config& c, amps_status s, const std::string& kind, const std::string& msg) {
  std::string text = "amps_new: " + kind + ": " + msg + "\n";
  if (c.diagnostic) c.diagnostic(c.user, text.data(), text.size());
  else std::fputs(text.c_str(), stderr);
  return s;
}

}  // namespace

extern "C" {

amps_status amps_new(const amps_config* cfg, amps_vm** out) {
  amps_config c{};
  if (cfg) c = *cfg;
  if (!out) return creation_failed(c, AMPS_ERROR_MISUSE, "MisuseError", "out is NULL");
  *out = nullptr;
  try {
    auto in = std::make_unique<Interp>(interp_config(c));
    apply_runtime_config(*in, c);
    if (!c.no_stdlib && amps::stdlib::install_stdlib(handle_of(*in)) != AMPS_OK)
      return creation_failed(c, AMPS_ERROR_RUNTIME, "InternalError", std::string("installing the stdlib failed: ") + amps_last_error(handle_of(*in))->message);
    *out = handle_of(*in.release());
    return AMPS_OK;
  } catch (const AmpsError& e) {
    return creation_failed(c, AMPS_ERROR_MISUSE, e.kind(), e.message());
  } catch (const amps::rt::Error& e) {
    return creation_failed(c, AMPS_ERROR_MISUSE, e.kind(), e.message());
  } catch (const std::bad_alloc&) {
    return creation_failed(c, AMPS_ERROR_MEMORY, "MemoryError", "out of memory");
  }
}

amps_status amps_open_stdlib(amps_vm* vm) {
  return guarded(vm, [](Interp& in) { return amps::stdlib::install_stdlib(handle_of(in)); });
}

}  // extern "C"
