// The autograd binding: the recording layer in the interpreter's runtime, grad mode, the tensor
// methods backward/retain_grad/register_hook and attribute grad_fn, and the `autograd` module.
#include <fmt/format.h>

#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/warnings.hpp"
#include "interp/context_manager.hpp"
#include "interp/tensor_value.hpp"
#include "interp/diagnostics.hpp"
#include "runtime/autograd/anomaly.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/autograd/node.hpp"
#include "runtime/autograd_meta.hpp"

namespace amps::interp {

Value make_function_class();   // custom_function.cpp
namespace {

namespace ag = rt::autograd;

// A tensor's grad_fn: prints as <MulBackward0>; `name()` gives the node's name, `next_functions` PyTorch's
// ((node or none, input_nr), ...) per input (AccumulateGrad for a leaf, none for an input without gradient), and an
// AccumulateGrad's `variable` its leaf.
struct GradFnObj : Opaque {
  explicit GradFnObj(std::shared_ptr<rt::Node> n) : node(std::move(n)) {}
  std::string type_name() const override { return std::string(node->name()); }
  std::string repr() const override { return "<" + std::string(node->name()) + ">"; }
  Value get_attr(Interp&, Atom name) override {
    auto* g = dynamic_cast<rt::autograd::GradNode*>(node.get());
    if (*name == "next_functions" && g) {
      std::vector<Value> edges;
      for (size_t i = 0; i < g->next.size(); ++i) {
        const rt::autograd::Edge& e = g->next[i];
        if (i < g->in_meta.size() && !g->in_meta[i].defined) continue;  // a slot of a non-tensor argument
        edges.push_back(make_tuple({e.fn ? Value(make<GradFnObj>(e.fn)) : Value(), Value(int64_t(e.nr))}));
      }
      return make_tuple(std::move(edges));
    }
    if (auto* acc = dynamic_cast<rt::autograd::AccumulateGrad*>(node.get()); acc && *name == "variable")
      return wrap(acc->variable);
    if (*name != "name") return Value::undef();
    std::string n(node->name());
    return make<Native>("name", [n](Interp&, CallArgs&) { return make_str(n); });
  }
  bool equals(const Object& o) const override {
    auto* g = dynamic_cast<const GradFnObj*>(&o);
    return g && g->node == node;
  }
  size_t hash() const override { return std::hash<const void*>()(node.get()); }
  std::shared_ptr<rt::Node> node;
};

// A tensor, or a list/tuple of tensors, as tensors; none gives an empty list.
rt::Tensors tensor_list(Interp& in, const Value& v, const Span& where) {
  rt::Tensors r;
  if (v.is_none() || v.is_undef()) return r;
  if (const rt::Tensor* t = tensor_of(v)) return {*t};
  in.iterate(v, where, [&](Value item) {
    if (item.is_none()) r.push_back(rt::Tensor());
    else r.push_back(to_tensor(item, where));
    return true;
  });
  return r;
}

std::optional<bool> opt_bool(Interp& in, const ArgReader& r, size_t i) {
  if (!r.has(i) || r.get(i).is_none()) return std::nullopt;
  return in.truthy(r.get(i));
}

const rt::Tensor& self_tensor(CallArgs& a) { return a.pos.front().as<TensorObj>()->tensor; }

// t.backward(gradient=none, retain_graph=none, create_graph=false, inputs=none)
Value m_backward(Interp& in, CallArgs& a) {
  rt::Tensor self = self_tensor(a);
  a.pos.erase(a.pos.begin());
  ArgReader r(a, "backward", {"gradient", "retain_graph", "create_graph", "inputs"});
  rt::Tensors grads = r.has(0) ? tensor_list(in, r.get(0), a.span) : rt::Tensors();
  ag::backward({self}, grads, opt_bool(in, r, 1), r.bool_or(2, false),
               r.has(3) ? tensor_list(in, r.get(3), a.span) : rt::Tensors());
  return Value();
}

Value m_retain_grad(Interp&, CallArgs& a) {
  ag::retain_grad(self_tensor(a));
  return Value();
}

// t.register_hook(fn): fn(grad) runs before the gradient is used; a tensor result replaces it.
Value m_register_hook(Interp& in, CallArgs& a) {
  rt::Tensor self = self_tensor(a);
  if (a.pos.size() != 2) Interp::fail("TypeError", "register_hook() takes exactly one argument (the hook)", a.span);
  Value fn = a.pos[1];
  Span where = a.span;
  ag::register_hook(self, [&in, fn, where](const rt::Tensor& g) {
    Value r = in.call(fn, std::vector<Value>{wrap(g)});
    if (r.is_none()) return rt::Tensor();
    return to_tensor(r, where);
  });
  return Value();
}

// autograd.grad(outputs, inputs, grad_outputs=none, retain_graph=none, create_graph=false, allow_unused=false)
Value f_grad(Interp& in, CallArgs& a) {
  ArgReader r(a, "grad", {"outputs", "inputs", "grad_outputs", "retain_graph", "create_graph", "allow_unused"});
  rt::Tensors outs = tensor_list(in, r.required(0), a.span), ins = tensor_list(in, r.required(1), a.span);
  rt::Tensors seeds = r.has(2) ? tensor_list(in, r.get(2), a.span) : rt::Tensors();
  rt::Tensors g = ag::grad(outs, ins, seeds, opt_bool(in, r, 3), r.bool_or(4, false), r.bool_or(5, false));
  std::vector<Value> items;
  for (const rt::Tensor& t : g) items.push_back(t.defined() ? wrap(t) : Value());
  return make_tuple(std::move(items));
}

// autograd.backward(tensors, grad_tensors=none, retain_graph=none, create_graph=false, inputs=none)
Value f_backward(Interp& in, CallArgs& a) {
  ArgReader r(a, "backward", {"tensors", "grad_tensors", "retain_graph", "create_graph", "inputs"});
  rt::Tensors grads = r.has(1) ? tensor_list(in, r.get(1), a.span) : rt::Tensors();
  ag::backward(tensor_list(in, r.required(0), a.span), grads, opt_bool(in, r, 2), r.bool_or(3, false),
               r.has(4) ? tensor_list(in, r.get(4), a.span) : rt::Tensors());
  return Value();
}

// The anomaly-mode arguments (mode, check_nan) of [a] read as [fn]'s: mode a bool, and check_nan=false refused with
// the mode on (anomaly mode's one check is for NaN gradients).
bool anomaly_mode_arg(CallArgs& a, const char* fn) {
  ArgReader r(a, fn, {"mode", "check_nan"});
  Value mode = r.required(0);
  if (!mode.is_bool()) Interp::fail("TypeError", fmt::format("{}(): mode must be a bool, not {}", fn, type_name(mode)), a.span);
  if (!r.bool_or(1, true) && mode.as_bool())
    Interp::fail("ValueError", fmt::format("{}(): check_nan=false is not supported: anomaly mode's only check is for NaN gradients", fn), a.span);
  return mode.as_bool();
}

// Turns anomaly mode on or off now; returns what turns it back to the mode it found.
std::function<void()> switch_anomaly_mode(bool on) {
  const bool prev = ag::anomaly_enabled();
  ag::set_detect_anomaly(on);
  return [prev] { ag::set_detect_anomaly(prev); };
}

// torch.set_anomaly_enabled(mode, check_nan=true): anomaly mode on or off (runtime/autograd/anomaly.hpp: backward
// names the node whose gradient holds NaN and where its forward op ran).
Value f_set_anomaly_enabled(Interp&, CallArgs& a) {
  ag::set_detect_anomaly(anomaly_mode_arg(a, "set_anomaly_enabled"));
  return Value();
}

// autograd.set_detect_anomaly(mode, check_nan=true): sets the mode now, as set_anomaly_enabled; as a context manager
// (`with autograd.set_detect_anomaly(true) { }`) its __exit__ puts back the mode it found.
Value f_set_detect_anomaly(Interp&, CallArgs& a) {
  std::function<void()> restore = switch_anomaly_mode(anomaly_mode_arg(a, "set_detect_anomaly"));
  auto m = make_context_manager("set_detect_anomaly", [restore](Interp&, const Span&) { return restore; });
  m->decorator = false;
  return m;
}

// autograd.detect_anomaly(check_nan=true): a context manager with anomaly mode on inside; warns when made, as
// PyTorch's does.
Value f_detect_anomaly(Interp& in, CallArgs& a) {
  ArgReader r(a, "detect_anomaly", {"check_nan"});
  if (!r.bool_or(0, true))
    Interp::fail("ValueError", "detect_anomaly(): check_nan=false is not supported: anomaly mode's only check is for NaN gradients", a.span);
  emit_warning(in, "UserWarning", "Anomaly Detection has been enabled. This mode will increase the runtime and should "
               "only be enabled for debugging.", a.span);
  auto m = make_context_manager("detect_anomaly", [](Interp&, const Span&) { return switch_anomaly_mode(true); });
  m->decorator = false;
  return m;
}

Value f_is_anomaly_enabled(Interp&, CallArgs& a) {
  ArgReader r(a, "is_anomaly_enabled", {});
  return Value(ag::anomaly_enabled());
}

// The part of torch.autograd written in amps (stdlib/autograd_tools.amps: autograd.functional, gradcheck,
// gradgradcheck, Variable), when the stdlib is installed. That module imports this one, which import_module has
// cached before running this initialiser, so it sees grad and backward already.
void attach_script_part(Interp& in, Module& m) {
  if (!in.has_module("autograd_tools")) return;
  Value tools = in.import_module({intern("autograd_tools")}, {});
  for (const char* name : {"functional", "gradcheck", "gradgradcheck", "Variable"})
    if (const Value* v = tools.as<Module>()->attrs.find(intern(name))) m.attrs[intern(name)] = *v;
}

void install_module(Interp& in, Module& m) {
  m.attrs[intern("Function")] = make_function_class();
  m.attrs[intern("grad")] = make<Native>("grad", f_grad);
  m.attrs[intern("backward")] = make<Native>("backward", f_backward);
  m.attrs[intern("set_detect_anomaly")] = make_type(in, "set_detect_anomaly", f_set_detect_anomaly);
  m.attrs[intern("detect_anomaly")] = make_type(in, "detect_anomaly", f_detect_anomaly);
  for (const char* name : {"no_grad", "enable_grad", "set_grad_enabled", "inference_mode"})   // torch.autograd's names
    m.attrs[intern(name)] = in.lookup_builtin(name);
  m.attrs[intern("is_anomaly_enabled")] = make<Native>("is_anomaly_enabled", f_is_anomaly_enabled);
  attach_script_part(in, m);
}

}  // namespace

// Called by tensor_methods.cpp when it builds the tensor method table.
void add_autograd_methods(std::unordered_map<Atom, Value>& m) {
  m[intern("backward")] = make<Native>("backward", m_backward);
  m[intern("retain_grad")] = make<Native>("retain_grad", m_retain_grad);
  m[intern("register_hook")] = make<Native>("register_hook", m_register_hook);
}

Value grad_fn_value(const rt::Tensor& t) {
  const rt::AutogradMeta* m = t.autograd_meta();
  return m && m->grad_fn ? Value(make<GradFnObj>(m->grad_fn)) : Value();
}

void install_autograd_builtins(Interp& in) {
  rt::autograd::install(in.runtime());
  ag::set_anomaly_site_provider(in.runtime(), [&in] {
    const Stmt* s = in.current_stmt();
    return s ? format_position(s->span) : std::string();
  });
  in.def_native("set_anomaly_enabled", f_set_anomaly_enabled);  // torch.set_anomaly_enabled
  in.def_native("is_anomaly_enabled", f_is_anomaly_enabled);
  in.def_native("is_anomaly_check_nan_enabled", f_is_anomaly_enabled);
  install_grad_mode_builtins(in);
  in.def_module("autograd", install_module);
}

}  // namespace amps::interp
