// The embedding API's native functions: {name, fn} registration tables, the calls' argument and
// result accessors, and the AMP cast rules applied to tensor arguments inside autocast regions.
#include <fmt/format.h>

#include "amp/autocast_layer.hpp"
#include "interp/builtins.hpp"
#include "interp/embed/handles.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/ivalue.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;
namespace rt = amps::rt;

namespace {

amps::amp::Policy policy_of(amps_cast_rule r) {
  switch (r) {
    case AMPS_CAST_LOWER: return amps::amp::Policy::lower_precision_fp;
    case AMPS_CAST_FP32: return amps::amp::Policy::fp32;
    case AMPS_CAST_PROMOTE: return amps::amp::Policy::promote;
    case AMPS_CAST_NONE: break;
  }
  return amps::amp::Policy::none;
}

// Hands the tensor arguments (positional, then keyword) to the interpreter's autocast layer as
// the arguments of one op, and writes its casts back.
void apply_cast(Interp& in, amps_cast_rule rule, CallArgs& a) {
  if (rule == AMPS_CAST_NONE) return;
  auto* layer = in.runtime().find_layer<amps::amp::AutocastLayer>();
  if (!layer) return;
  std::vector<Value*> slots;
  rt::Args args;
  auto collect = [&](Value& v) {
    if (const rt::Tensor* t = tensor_of(v)) slots.push_back(&v), args.emplace_back(*t);
  };
  for (Value& v : a.pos) collect(v);
  for (auto& kv : a.kw) collect(kv.second);
  layer->cast_for_policy(args, policy_of(rule));
  for (size_t i = 0; i < slots.size(); ++i)
    if (!args[i].tensor().is_same(*tensor_of(*slots[i]))) *slots[i] = wrap(args[i].tensor());
}

// Checks a table: rows until the NULL name, each with a function and a known cast rule.
std::string check_table(const amps_reg* table) {
  for (const amps_reg* r = table; r && r->name; ++r) {
    if (!r->fn) return fmt::format("row '{}' has no function", r->name);
    if (int(r->cast) < AMPS_CAST_NONE || int(r->cast) > AMPS_CAST_PROMOTE)
      return fmt::format("row '{}' has cast rule {}, not an amps_cast_rule", r->name, int(r->cast));
  }
  return "";
}

}  // namespace

namespace amps::interp::embed {

Span call_site(Interp& in) {
  EmbedState& st = state(in);
  return st.active ? st.active->args.span : Span{};
}

void run_host(Interp& in, amps_args* call, const std::function<std::string()>& what, const Span& where,
              const std::function<amps_status(amps_vm*)>& fn) {
  EmbedState& st = state(in);
  amps_args* outer = std::exchange(st.active, call ? call : st.active);
  st.pending = nullptr;
  ++st.depth;
  amps_status s = AMPS_OK;
  try {
    s = fn(handle_of(in));
  } catch (...) {
    --st.depth, st.active = outer;
    throw;
  }
  --st.depth, st.active = outer;
  std::exception_ptr pending = std::exchange(st.pending, nullptr);
  if (call && call->raised) throw *call->raised;
  if (s == AMPS_OK) return;
  if (pending) std::rethrow_exception(pending);
  const char* msg = st.err.message;
  Interp::fail("RuntimeError", fmt::format("{} failed ({}){}{}", what(), amps_status_name(s), msg && *msg ? ": " : "", msg ? msg : ""), where);
}

Native::Fn bind_row(const amps_reg& row) {
  return [fn = row.fn, cast = row.cast, user = row.user, what = std::string(row.name) + "()"](Interp& in, CallArgs& a) {
    apply_cast(in, cast, a);
    amps_args call{a, Value(), user, std::nullopt};
    run_host(in, &call, [&] { return what; }, a.span, [&](amps_vm* vm) { return fn(vm, &call); });
    return call.result;
  };
}

}  // namespace amps::interp::embed

extern "C" {

amps_status amps_register_globals(amps_vm* vm, const amps_reg* table) {
  return guarded(vm, [&](Interp& in) {
    std::string why = table ? check_table(table) : "table is NULL";
    if (!why.empty()) return misuse(in, "amps_register_globals: " + why);
    for (const amps_reg* r = table; r->name; ++r) in.def_native(r->name, bind_row(*r));
    return AMPS_OK;
  });
}

amps_status amps_register_module(amps_vm* vm, const char* name, const amps_reg* table, const char* source) {
  return guarded(vm, [&](Interp& in) {
    std::string why = !name || !*name ? "the module name is empty" : check_table(table);
    if (!why.empty()) return misuse(in, "amps_register_module: " + why);
    std::vector<std::pair<std::string, Native::Fn>> fns;
    for (const amps_reg* r = table; r && r->name; ++r) fns.emplace_back(r->name, bind_row(*r));
    std::optional<std::string> body = source ? std::optional<std::string>(source) : std::nullopt;
    in.def_module(name, [fns, body, file = fmt::format("<{}>", name)](Interp& i, Module& m) {
      for (auto& [n, fn] : fns) m.attrs[intern(n)] = make<Native>(n, fn);
      if (body) i.exec_module_source(m, file, *body);
    });
    return AMPS_OK;
  });
}

size_t amps_arg_count(const amps_args* call) { return call ? call->args.pos.size() : 0; }

const amps_value* amps_arg(const amps_args* call, size_t i) {
  return call && i < call->args.pos.size() ? borrowed(call->args.pos[i]) : nullptr;
}

const amps_value* amps_kwarg(const amps_args* call, const char* name) {
  if (!call || !name) return nullptr;
  Atom key = intern(name);
  for (auto& [k, v] : call->args.kw)
    if (k == key) return borrowed(v);
  return nullptr;
}

size_t amps_kwarg_count(const amps_args* call) { return call ? call->args.kw.size() : 0; }

const amps_value* amps_kwarg_at(const amps_args* call, size_t i, const char** name) {
  if (!call || i >= call->args.kw.size()) return nullptr;
  if (name) *name = call->args.kw[i].first->c_str();
  return borrowed(call->args.kw[i].second);
}

// ArgReader checks the call (so the TypeErrors match the builtins'); the slots point into it.
amps_status amps_args_bind(amps_args* call, const char* fn, const char* const* params, size_t n, const amps_value** out) {
  if (!call || !fn || (n && (!params || !out))) return AMPS_ERROR_MISUSE;
  std::vector<const char*> names(params, params + n);
  for (const char* p : names)
    if (!p) return AMPS_ERROR_MISUSE;
  try {
    ArgReader check(call->args, fn, names);
  } catch (const AmpsError& e) {
    call->raised = e;
    return AMPS_ERROR_RUNTIME;
  }
  for (size_t i = 0; i < n; ++i) out[i] = i < call->args.pos.size() ? borrowed(call->args.pos[i]) : nullptr;
  for (auto& [k, v] : call->args.kw)
    for (size_t i = 0; i < n; ++i)
      if (*k == names[i]) out[i] = borrowed(v);
  return AMPS_OK;
}

void* amps_args_user(const amps_args* call) { return call ? call->user : nullptr; }

void amps_return(amps_args* call, const amps_value* v) {
  if (call) call->result = v ? value_of(v) : Value();
}

amps_status amps_raise(amps_args* call, const char* kind, const char* message) {
  if (call) call->raised = AmpsError(kind && *kind ? kind : "RuntimeError", message ? message : "", call->args.span);
  return AMPS_ERROR_RUNTIME;
}

}  // extern "C"
