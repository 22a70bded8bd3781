// Grad mode for scripts: the hook behind no_grad / enable_grad / set_grad_enabled(mode) blocks, the builtins
// is_grad_enabled() and set_grad_enabled(mode), and the @no_grad / @enable_grad function decorators.
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/context.hpp"

namespace amps::interp {
namespace {

// set_grad_enabled(mode): records gradients from now on (mode true) or not, until changed again; the block
// form `set_grad_enabled(mode) { }` restores the previous mode after its body instead.
Value b_set_grad_enabled(Interp& in, CallArgs& a) {
  ArgReader r(a, "set_grad_enabled", {"mode"});
  const Value& mode = r.required(0);
  if (!mode.is_bool())
    Interp::fail("TypeError", fmt::format("set_grad_enabled() expects a bool (true or false), got {}", type_name(mode)), r.span());
  in.runtime().set_grad_enabled(mode.as_bool());
  return Value();
}

Value b_is_grad_enabled(Interp& in, CallArgs& a) {
  ArgReader r(a, "is_grad_enabled", {});
  return Value(in.runtime().grad_enabled());
}

// The decorator @no_grad (enabled false) or @enable_grad (true): fn with every call run in that grad mode.
Value grad_mode_decorator(bool enabled) {
  const char* name = enabled ? "enable_grad" : "no_grad";
  return make<Native>(name, [enabled, name](Interp&, CallArgs& a) {
    ArgReader r(a, name, {"fn"});
    Value fn = r.required(0);
    if (!fn.is(ObjKind::Function) && !fn.is(ObjKind::Native) && !fn.is(ObjKind::BoundMethod))
      Interp::fail("TypeError", fmt::format("@{} decorates a function, not a {}", name, type_name(fn)), r.span());
    return make<Native>(callee_name(fn), [enabled, fn](Interp& in, CallArgs& call) {
      rt::GradModeGuard guard(enabled);
      return in.call(fn, call);
    });
  });
}

}  // namespace

void install_grad_mode_builtins(Interp& in) {
  in.hooks.grad_mode_enter = [](Interp&, bool enabled) -> std::shared_ptr<void> {
    return std::make_shared<rt::GradModeGuard>(enabled);
  };
  in.def_native("set_grad_enabled", b_set_grad_enabled);
  in.def_native("is_grad_enabled", b_is_grad_enabled);
  in.def_global("no_grad", grad_mode_decorator(false));
  in.def_global("enable_grad", grad_mode_decorator(true));
}

}  // namespace amps::interp
