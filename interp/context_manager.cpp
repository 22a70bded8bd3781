// Native context managers (see context_manager.hpp): __enter__ / __exit__ / __call__ of ContextManagerObj, module
// `contextlib` (nullcontext, suppress) and the call forms of autocast: autocast(...), amp.autocast, cuda.amp / cpu.amp.
#include "interp/context_manager.hpp"

#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {
namespace {

ContextManagerObj& manager_of(const Value& v) { return *static_cast<ContextManagerObj*>(v.obj()); }

// manager.__enter__(): applies the state and returns enter_result.
Value m_enter(Interp& in, CallArgs& a) {
  ContextManagerObj& m = manager_of(a.pos.at(0));
  ArgReader r(a, "__enter__", {"self"});
  m.active.push_back(m.enter(in, a.span));
  return m.enter_result;
}

// manager.__exit__(exc_type, exc_value, traceback): restores the state the innermost __enter__ found. The error
// it is told about is not suppressed (exit_result is falsy).
Value m_exit(Interp&, CallArgs& a) {
  ContextManagerObj& m = manager_of(a.pos.at(0));
  ArgReader r(a, "__exit__", {"self", "exc_type", "exc_value", "traceback"});
  if (m.active.empty()) return m.exit_result;
  std::function<void()> restore = std::move(m.active.back());
  m.active.pop_back();
  restore();
  return m.exit_result;
}

// manager(fn): the decorator form.
Value m_call(Interp& in, CallArgs& a) {
  ArgReader r(a, "__call__", {"self", "fn"});
  return decorate_with(in, r.get(0), r.required(1), a.span);
}

// Runs [fn] with [call]'s arguments inside `with manager { }`.
Value call_inside(Interp& in, const Value& manager, const Value& fn, CallArgs& call) {
  ContextManagerObj& m = manager_of(manager);
  std::function<void()> restore = m.enter(in, call.span);
  Value result;
  try {
    result = in.call(fn, call);
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return result;
}

// ---------------------------------------------------------------- contextlib

// contextlib.nullcontext(enter_result=none): a manager that does nothing; `as` binds enter_result.
Value b_nullcontext(Interp&, CallArgs& a) {
  ArgReader r(a, "nullcontext", {"enter_result"});
  auto m = make_context_manager("nullcontext", [](Interp&, const Span&) { return [] {}; });
  m->enter_result = r.has(0) ? r.get(0) : Value();
  m->decorator = false;
  return m;
}

// ---------------------------------------------------------------- autocast objects

// An autocast object for device type [device] with [args] (dtype=, enabled=, cache_enabled=): validated now, as
// torch.autocast's constructor does; each __enter__ enters a region like the block `autocast DEV<...> { }`.
Value make_autocast(Interp& in, const Value& device, CallArgs& args) {
  if (!in.hooks.autocast_prepare) Interp::fail("RuntimeError", "autocast is not available in this interpreter", args.span);
  auto enter_region = in.hooks.autocast_prepare(in, device, args);
  auto m = make_context_manager("autocast", [enter_region](Interp&, const Span&) {
    std::shared_ptr<void> region = enter_region();
    return [region]() mutable { region.reset(); };
  });
  m->exit_result = Value(false);
  return m;
}

// autocast(device_type, dtype=none, enabled=true, cache_enabled=none), torch.autocast as a call (the block form
// `autocast DEV<...> { }` is the statement).
Value b_autocast(Interp& in, CallArgs& a) {
  ArgReader r(a, "autocast", {"device_type", "dtype", "enabled", "cache_enabled"});
  CallArgs rest{{}, {}, a.span};
  const char* names[] = {"dtype", "enabled", "cache_enabled"};
  for (size_t i = 1; i < 4; ++i)
    if (r.has(i)) rest.kw.emplace_back(intern(names[i - 1]), r.get(i));
  return make_autocast(in, r.required(0), rest);
}

// torch.cuda.amp.autocast / torch.cpu.amp.autocast(enabled=true, dtype=, cache_enabled=true): autocast for that
// device type, with its lower-precision default (float16 on cuda, bfloat16 on cpu) and the cache on.
Native::Fn device_autocast(const char* device, rt::DType default_dtype) {
  return [device, default_dtype](Interp& in, CallArgs& a) {
    ArgReader r(a, "autocast", {"enabled", "dtype", "cache_enabled"});
    CallArgs args{{}, {}, a.span};
    args.kw.emplace_back(intern("dtype"), r.has(1) ? r.get(1) : wrap_dtype(default_dtype));
    args.kw.emplace_back(intern("enabled"), r.has(0) ? r.get(0) : Value(true));
    args.kw.emplace_back(intern("cache_enabled"), r.has(2) ? r.get(2) : Value(true));
    return make_autocast(in, make_str(device), args);
  };
}

void init_device_amp(Interp& in, Module& m, const char* device, rt::DType default_dtype) {
  m.attrs[intern("autocast")] = make<Native>("autocast", device_autocast(device, default_dtype));
  if (std::string(device) == "cuda")
    if (Value scaler = in.lookup_builtin("GradScaler"); !scaler.is_undef()) m.attrs[intern("GradScaler")] = scaler;
}

}  // namespace

Value ContextManagerObj::get_attr(Interp&, Atom attr) {
  const std::string& a = *attr;
  Native::Fn fn = a == "__enter__" ? Native::Fn(m_enter)
                : a == "__exit__"  ? Native::Fn(m_exit)
                : a == "__call__" && decorator ? Native::Fn(m_call) : Native::Fn();
  if (!fn) return Value::undef();
  return make<BoundMethod>(Value(this), make<Native>(a, std::move(fn)));
}

Ref<ContextManagerObj> make_context_manager(std::string name, ContextManagerObj::Enter enter) {
  return make<ContextManagerObj>(std::move(name), std::move(enter));
}

Value decorate_with(Interp&, const Value& manager, const Value& fn, const Span& where) {
  ContextManagerObj& m = manager_of(manager);
  if (!fn.is(ObjKind::Function) && !fn.is(ObjKind::Native) && !fn.is(ObjKind::BoundMethod))
    Interp::fail("TypeError", fmt::format("@{} decorates a function, not a {}", m.name, type_name(fn)), where);
  return make<Native>(callee_name(fn), [manager, fn](Interp& inn, CallArgs& call) {
    const ContextManagerObj& m = manager_of(manager);
    return call_inside(inn, m.clone ? m.clone(inn, call.span) : manager, fn, call);
  });
}

void install_context_managers(Interp& in) {
  in.def_module("contextlib", [](Interp& i, Module& m) {
    m.attrs[intern("nullcontext")] = make_type(i, "nullcontext", b_nullcontext);
    m.attrs[intern("suppress")] = make_type(i, "suppress", b_suppress);
  });
  def_type(in, "autocast", b_autocast);
  in.def_module("cuda.amp", [](Interp& i, Module& m) { init_device_amp(i, m, "cuda", rt::DType::float16); });
  in.def_module("cpu.amp", [](Interp& i, Module& m) { init_device_amp(i, m, "cpu", rt::DType::bfloat16); });
}

}  // namespace amps::interp
