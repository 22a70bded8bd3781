// The embedding API's internal side: what the opaque handles of amps.h are, and its per-vm state.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "amps/amps.h"
#include "interp/interp.hpp"

// amps_vm is never defined: an amps_vm* is an Interp*, and an amps_value* a heap (or borrowed)
// interp::Value*. amps_args is the one handle with its own layout.
struct amps_args {
  amps::interp::CallArgs& args;
  amps::interp::Value result;
  void* user;
  std::optional<amps::interp::AmpsError> raised;   // set by amps_raise / amps_args_bind
};

namespace amps::interp {

// Per-interpreter state of the API: the last error (its strings back the amps_error pointers),
// the failure a host callback may hand back to the script, how many host entries are in
// progress (natives calling back into the vm nest) and the native call running innermost.
struct EmbedState {
  amps_error err{};
  std::string kind, message, file, diagnostic;
  // The exception behind the last failed API call (or amps_fail): a native or hook that returns
  // AMPS_ERROR_RUNTIME right after it re-raises it unchanged (kind, position, call stack).
  std::exception_ptr pending;
  int depth = 0;
  amps_args* active = nullptr;
  // The bound-method functions of each host class, made once per vm.
  std::unordered_map<const amps_class*, std::vector<Value>> methods;
};

namespace embed {

inline Interp& interp_of(amps_vm* vm) { return *reinterpret_cast<Interp*>(vm); }
inline amps_vm* handle_of(Interp& in) { return reinterpret_cast<amps_vm*>(&in); }
inline Value& value_of(amps_value* v) { return *reinterpret_cast<Value*>(v); }
inline const Value& value_of(const amps_value* v) { return *reinterpret_cast<const Value*>(v); }
// A new host-owned handle to [v].
inline amps_value* new_handle(Value v) { return reinterpret_cast<amps_value*>(new Value(std::move(v))); }
inline const amps_value* borrowed(const Value& v) { return reinterpret_cast<const amps_value*>(&v); }
// Takes the value out of a handle a host callback returned (NULL: undef) and frees the handle.
Value adopt(amps_value* v);

// The vm's API state, created on first use (interpreters made by the CLI meet the API late).
EmbedState& state(Interp& in);

// Records a failure on [in] and returns [s]; the kind "MisuseError" marks API misuse.
amps_status set_error(Interp& in, amps_status s, const AmpsError& e);
amps_status misuse(Interp& in, const std::string& message);

// Runs [body] (returning amps_status) as one API entry on [vm]: clears the last error, makes the
// vm's runtime context current (outermost entries only), and turns every exception into a status,
// a recorded error and the pending failure.
amps_status guarded(amps_vm* vm, const std::function<amps_status(Interp&)>& body);

// The position errors raised by API helpers get: the innermost native call's, else none (the
// script construct that called into the host adds its own).
Span call_site(Interp& in);

// Runs a host callback ([what] names it in messages) as a nested entry and turns a failure status
// into the amps error it stands for: the one raised on [call], the pending failure, or a
// RuntimeError "[what] failed (STATUS): last error".
void run_host(Interp& in, amps_args* call, const std::function<std::string()>& what, const Span& where,
              const std::function<amps_status(amps_vm*)>& fn);

// The interpreter-side function of one registration row: casts, calls the host, raises its errors.
Native::Fn bind_row(const amps_reg& row);

// The InterpConfig and runtime settings amps_config asks for (throws AmpsError on a bad config).
InterpConfig interp_config(const amps_config& c);
void apply_runtime_config(Interp& in, const amps_config& c);

// A one-pass iterator over [iterable], walking it as Interp::iterate does (throws AmpsError).
Value iterator_of(Interp& in, const Value& iterable, const Span& where);

}  // namespace embed
}  // namespace amps::interp
