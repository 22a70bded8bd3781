// Native context managers: objects with `__enter__` / `__exit__` for the `with` statement that, like PyTorch's
// no_grad(), autocast(...) and set_grad_enabled(mode), are also decorators (`@no_grad()`).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "interp/interp.hpp"

namespace amps::interp {

struct ContextManagerObj : Opaque {
  // Applies the manager's state (at `__enter__`); returns what restores the state it found, which the matching
  // `__exit__` runs. Each `__enter__` calls it anew, so one object may be entered again while it is active.
  using Enter = std::function<std::function<void()>(Interp&, const Span&)>;
  // A fresh manager with the same arguments, for each call of a decorated function (PyTorch's clone()).
  using Clone = std::function<Value(Interp&, const Span&)>;

  ContextManagerObj(std::string name, Enter enter) : name(std::move(name)), enter(std::move(enter)) {}
  std::string type_name() const override { return name; }
  Value get_attr(Interp& in, Atom attr) override;

  std::string name;            // what type() and messages call it: "no_grad", "autocast", ...
  Enter enter;
  Value enter_result;          // what `__enter__` returns (`as` binds it): none for PyTorch's managers
  Value exit_result;           // what `__exit__` returns: a falsy value, so errors propagate
  bool decorator = true;       // callable on a function (`@no_grad()`); detect_anomaly objects are not
  Clone clone;                 // null: each decorated call enters this very object
  std::vector<std::function<void()>> active;   // one restore per `__enter__` not yet exited, innermost last
};

Ref<ContextManagerObj> make_context_manager(std::string name, ContextManagerObj::Enter enter);

// [fn] wrapped so that each call runs inside `with manager { }` (a fresh clone when the manager has one);
// [fn] must be a function, else TypeError "@NAME decorates a function, not a TYPE".
Value decorate_with(Interp& in, const Value& manager, const Value& fn, const Span& where);

// Globals and modules of the built-in context managers that no other binding owns: module `contextlib`
// (nullcontext), the call form of `autocast(device_type, dtype=, enabled=, cache_enabled=)`, `amp.autocast`, and
// `cuda.amp` / `cpu.amp` (autocast with those devices' defaults; cuda.amp.GradScaler). Called by the Interp
// constructor after the AMP builtins (it uses BlockHooks::autocast_prepare).
void install_context_managers(Interp& in);

}  // namespace amps::interp
