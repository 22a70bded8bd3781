// Grad mode for scripts: the hook behind no_grad / enable_grad / set_grad_enabled(mode) blocks; PyTorch's context
// managers no_grad(), enable_grad(), set_grad_enabled(mode) and inference_mode(mode=true) for `with` (each also a
// decorator: `@no_grad()`); the decorators @no_grad / @enable_grad written without `()`; is_grad_enabled() and
// is_inference_mode_enabled().
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/context_manager.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/context.hpp"

namespace amps::interp {
namespace {

// Whether an inference_mode(true) region is active in this interpreter (is_inference_mode_enabled()).
struct InferenceFlag {
  bool on = false;
};

// Sets grad mode to [enabled] on the context current at __enter__; the restore puts back the mode it found there.
std::function<void()> enter_grad_mode(bool enabled) {
  rt::Context* c = &rt::current_context();
  const bool prev = c->grad_enabled();
  c->set_grad_enabled(enabled);
  return [c, prev] { c->set_grad_enabled(prev); };
}

// no_grad() / enable_grad(): PyTorch's context managers (and decorators, `@no_grad()`); with a function, as the
// decorator written without parentheses (`@no_grad`), the function with every call run in that mode.
Native::Fn grad_mode_factory(bool enabled) {
  const char* name = enabled ? "enable_grad" : "no_grad";
  return [enabled, name](Interp& in, CallArgs& a) -> Value {
    ArgReader r(a, name, {"fn"});
    auto m = make_context_manager(name, [enabled](Interp&, const Span&) { return enter_grad_mode(enabled); });
    return r.has(0) ? decorate_with(in, m, r.get(0), a.span) : Value(m);
  };
}

// set_grad_enabled(mode) as torch.set_grad_enabled: sets the mode now, until changed again; as a context manager
// its __exit__ puts back the mode it found (its __enter__ does nothing), so `with set_grad_enabled(false) { }`
// restores the mode after the block.
Value set_grad_enabled_now(bool mode) {
  std::function<void()> restore = enter_grad_mode(mode);
  auto m = make_context_manager("set_grad_enabled", [restore](Interp&, const Span&) { return restore; });
  m->clone = [mode](Interp&, const Span&) { return set_grad_enabled_now(mode); };
  return m;
}

Value b_set_grad_enabled(Interp&, CallArgs& a) {
  ArgReader r(a, "set_grad_enabled", {"mode"});
  const Value& mode = r.required(0);
  if (!mode.is_bool())
    Interp::fail("TypeError", fmt::format("set_grad_enabled() expects a bool (true or false), got {}", type_name(mode)), r.span());
  return set_grad_enabled_now(mode.as_bool());
}

Value b_is_grad_enabled(Interp&, CallArgs& a) {
  ArgReader r(a, "is_grad_enabled", {});
  return Value(rt::current_context().grad_enabled());
}

// inference_mode(mode=true): for amps, no_grad that is_inference_mode_enabled() reports (amps has no inference
// tensors); inference_mode(false) records gradients, as PyTorch's, which sets grad mode to `not mode`.
Value b_inference_mode(const std::shared_ptr<InferenceFlag>& flag, CallArgs& a) {
  ArgReader r(a, "inference_mode", {"mode"});
  const Value mode = r.has(0) ? r.get(0) : Value(true);
  if (!mode.is_bool())
    Interp::fail("TypeError", fmt::format("inference_mode(): mode must be a bool (true or false), not {}", type_name(mode)), a.span);
  const bool on = mode.as_bool();
  return make_context_manager("inference_mode", [flag, on](Interp&, const Span&) -> std::function<void()> {
    std::function<void()> grad = enter_grad_mode(!on);
    const bool prev = std::exchange(flag->on, on);
    return [flag, prev, grad] { flag->on = prev, grad(); };
  });
}

}  // namespace

void install_grad_mode_builtins(Interp& in) {
  in.hooks.grad_mode_enter = [](Interp&, bool enabled) -> std::shared_ptr<void> {
    return std::make_shared<rt::GradModeGuard>(enabled);
  };
  auto flag = std::make_shared<InferenceFlag>();
  def_type(in, "set_grad_enabled", b_set_grad_enabled);
  in.def_native("is_grad_enabled", b_is_grad_enabled);
  def_type(in, "no_grad", grad_mode_factory(false));
  def_type(in, "enable_grad", grad_mode_factory(true));
  def_type(in, "inference_mode", [flag](Interp&, CallArgs& a) { return b_inference_mode(flag, a); });
  in.def_native("is_inference_mode_enabled", [flag](Interp&, CallArgs& a) {
    ArgReader r(a, "is_inference_mode_enabled", {});
    return Value(flag->on);
  });
}

}  // namespace amps::interp
