// Python's exception classes: the built-in hierarchy (BaseException > Exception > ValueError, ...), exception
// instances, and the bridge between them and AmpsError: raising an instance, the instance of a caught error,
// matching `except T` clauses.
#pragma once

#include <optional>
#include <string_view>

#include "interp/interp.hpp"

namespace amps::interp {

// An instance of BaseException or a subclass: an ordinary Instance (attributes, methods, isinstance, type()) that
// also remembers where it was last raised, so `raise e` keeps the original position.
struct ExcInstance : Instance {
  using Instance::Instance;
  // Span, stack and text of the raise that was last caught (its exception() is none: no reference cycle).
  std::optional<AmpsError> origin;
  // For an error raised natively by kind (Interp::fail): str() is its message as given, while args is (message,).
  std::optional<std::string> native_text;
  // The function whose handler caught it last ("<script>" at top level): the last frame of its printed stack
  // when it is another error's cause.
  std::string caught_in;
};

// The instance's ExcInstance view, or null when [v] is not an exception instance.
inline ExcInstance* as_exception(const Value& v) {
  if (!v.is(ObjKind::Instance) || !v.as<Instance>()->cls->exception) return nullptr;
  return static_cast<ExcInstance*>(v.as<Instance>());
}

// Defines the built-in exception classes as globals (once per interpreter).
void install_exception_classes(Interp& in);

// The class of error kind [kind]: the built-in class of that name (IOError: OSError), else a subclass of Exception
// made once per interpreter (amps' own kinds, host-raised kinds).
Class& exception_class(Interp& in, std::string_view kind);

// A new instance of exception class [cls] with args [args] (before any init runs).
Ref<ExcInstance> new_exception(Class& cls, std::vector<Value> args);

// The AmpsError that `raise v` throws at [where]: [v] is an exception instance, or a class (instantiated with no
// arguments); TypeError otherwise. [cause] is the `from` clause's value (undef: none given).
AmpsError raise_error(Interp& in, const Value& v, const Value& cause, const Span& where);

// The instance of a caught error: the raised one, or one made now for an error raised natively by kind (stored
// into [err], so a re-raise and later handlers see the same instance).
Value exception_value(Interp& in, AmpsError& err);

// Sets __context__ of [raised]'s instance (made now for an error raised natively) to the instance of [handled], the
// error whose handler was running when it was raised, unless it has one already or they are the same error.
void set_context(Interp& in, AmpsError& raised, AmpsError& handled);

// Whether [err] is an instance of [cls] (an exception class or a tuple of them), as an `except` clause tests; a
// TypeError when an item is not an exception class.
bool error_matches(Interp& in, const AmpsError& err, const Value& cls, const Span& where);

// Whether [err]'s class is the built-in [kind] or derives from it (StopIteration, SystemExit).
bool error_is(Interp& in, const AmpsError& err, std::string_view kind);

// Whether [err] is a SystemExit or an instance of a subclass of it (the CLI and REPL end with its code).
bool is_system_exit(const AmpsError& err);

// What every exception has beyond its own attributes (kind, message, line, column, __cause__, __context__,
// __suppress_context__, __traceback__, StopIteration.value, SystemExit.code); undef for other names.
Value exception_attr(Interp& in, const Value& self, Atom name);

// contextlib.suppress(*exceptions): a context manager that swallows errors of those classes.
Value b_suppress(Interp& in, CallArgs& a);

// KeyError(key) at [where]: its args hold the key itself, str() its repr (missing dict keys).
[[noreturn]] void raise_key_error(Interp& in, const Value& key, const Span& where);

}  // namespace amps::interp
