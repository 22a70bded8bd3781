// The embedding API's internal side: what the opaque handles of amps.h are, and its per-vm state.
#pragma once

#include <optional>
#include <string>

#include "amps/amps.h"
#include "interp/interp.hpp"

// amps_vm is never defined: an amps_vm* is an Interp*, and an amps_value* a heap (or borrowed)
// interp::Value*. amps_args is the one handle with its own layout.
struct amps_args {
  amps::interp::CallArgs& args;
  amps::interp::Value result;
  void* user;
  std::optional<amps::interp::AmpsError> raised;   // set by amps_raise
};

namespace amps::interp {

// Per-interpreter state of the API: the last error (its strings back the amps_error pointers)
// and how many host entries are in progress (natives calling back into the vm nest).
struct EmbedState {
  amps_error err{};
  std::string kind, message, file, diagnostic;
  int depth = 0;
};

namespace embed {

inline Interp& interp_of(amps_vm* vm) { return *reinterpret_cast<Interp*>(vm); }
inline amps_vm* handle_of(Interp& in) { return reinterpret_cast<amps_vm*>(&in); }
inline Value& value_of(amps_value* v) { return *reinterpret_cast<Value*>(v); }
inline const Value& value_of(const amps_value* v) { return *reinterpret_cast<const Value*>(v); }
// A new host-owned handle to [v].
inline amps_value* new_handle(Value v) { return reinterpret_cast<amps_value*>(new Value(std::move(v))); }
inline const amps_value* borrowed(const Value& v) { return reinterpret_cast<const amps_value*>(&v); }

// The vm's API state, created on first use (interpreters made by the CLI meet the API late).
EmbedState& state(Interp& in);

// Records a failure on [in] and returns [s]; the kind "MisuseError" marks API misuse.
amps_status set_error(Interp& in, amps_status s, const AmpsError& e);
amps_status misuse(Interp& in, const std::string& message);

// Runs [body] (returning amps_status) as one API entry on [vm]: clears the last error, makes the
// vm's runtime context current, and turns every exception into a status and a recorded error.
amps_status guarded(amps_vm* vm, const std::function<amps_status(Interp&)>& body);

// The InterpConfig and runtime settings amps_config asks for (throws AmpsError on a bad config).
InterpConfig interp_config(const amps_config& c);
void apply_runtime_config(Interp& in, const amps_config& c);

// Registration row for a native written against the interpreter's C++ value API (the stdlib):
// F's AmpsError / rt::Error exceptions become amps errors as for any native.
template <Value (*F)(Interp&, CallArgs&)>
amps_status cxx_native(amps_vm* vm, amps_args* call) {
  call->result = F(interp_of(vm), call->args);
  return AMPS_OK;
}

}  // namespace embed
}  // namespace amps::interp
