// autograd.Function for scripts: `class F(autograd.Function) { fn forward(ctx, ...) {...}
// fn backward(ctx, ...) {...} }` and `F.apply(...)`, with ctx.save_for_backward /
// ctx.saved_tensors / ctx.needs_input_grad, as in torch.autograd.Function.
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/descriptors.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"
#include "runtime/functions.hpp"

namespace amps::interp {
namespace {

// The ctx class: a plain instance plus save_for_backward.
Ref<Class> ctx_class() {
  auto cls = make<Class>(intern("FunctionCtx"), Ref<Class>());
  cls->attrs[intern("save_for_backward")] = make<Native>("save_for_backward", [](Interp& in, CallArgs& a) {
    std::vector<Value> saved(a.pos.begin() + 1, a.pos.end());
    in.set_attr(a.pos[0], intern("saved_tensors"), make_tuple(std::move(saved)), a.span);
    return Value();
  });
  cls->attrs[intern("mark_non_differentiable")] = make<Native>("mark_non_differentiable", [](Interp&, CallArgs&) { return Value(); });
  return cls;
}

std::vector<Value> as_items(const Value& v) {
  if (v.is(ObjKind::Tuple)) return v.as<Tuple>()->items;
  if (v.is(ObjKind::List)) return v.as<List>()->items;
  return {v};
}

// One gradient per tensor input, from backward's result (one entry per forward argument).
rt::Tensors input_grads(const Value& result, const std::vector<size_t>& tensor_pos, const std::string& name, const Span& where) {
  std::vector<Value> items = as_items(result);
  size_t nargs = tensor_pos.empty() ? 0 : tensor_pos.back() + 1;
  if (items.size() < nargs)
    Interp::fail("RuntimeError", fmt::format("function {}Backward returned an incorrect number of gradients (expected at least {}, got {})",
                                             name, nargs, items.size()), where);
  rt::Tensors grads;
  for (size_t p : tensor_pos) {
    const rt::Tensor* g = tensor_of(items[p]);
    if (!g && !items[p].is_none()) Interp::fail("TypeError", fmt::format("{}.backward must return tensors or none, not {}", name, type_name(items[p])), where);
    grads.push_back(g ? *g : rt::Tensor());
  }
  return grads;
}

// forward/backward as written (PyTorch's @staticmethod on them unwrapped); null stays null.
const Value* static_function(const Value* v) {
  Descriptor* d = v ? as_descriptor(*v) : nullptr;
  return d && d->kind == Descriptor::Kind::Static ? &d->fn : v;
}

// F.apply(*args): forward without recording, then one graph node whose backward calls F.backward.
Value apply(Interp& in, CallArgs& a) {
  Value cls = a.pos.at(0);
  std::string name = *cls.as<Class>()->name;
  const Value* fwd = static_function(cls.as<Class>()->lookup(intern("forward")));
  const Value* bwd = static_function(cls.as<Class>()->lookup(intern("backward")));
  if (!fwd || !bwd) Interp::fail("NotImplementedError", fmt::format("{} must define forward(ctx, ...) and backward(ctx, ...)", name), a.span);
  Value ctx = make<Instance>(ctx_class());
  std::vector<Value> args(a.pos.begin() + 1, a.pos.end());
  std::vector<size_t> tensor_pos;
  rt::Tensors inputs;
  std::vector<Value> needs;
  for (size_t i = 0; i < args.size(); ++i) {
    const rt::Tensor* t = tensor_of(args[i]);
    needs.push_back(Value(t && t->requires_grad()));
    if (t) tensor_pos.push_back(i), inputs.push_back(*t);
  }
  in.set_attr(ctx, intern("needs_input_grad"), make_tuple(needs), a.span);
  CallArgs fa;
  fa.pos.push_back(ctx);
  fa.pos.insert(fa.pos.end(), args.begin(), args.end());
  fa.kw = a.kw;
  fa.span = a.span;
  Value out;
  {
    rt::GradModeGuard no_record(false);
    out = in.call(*fwd, fa);
  }
  std::vector<Value> outs = as_items(out);
  rt::Tensors out_tensors;
  for (auto& o : outs)
    if (const rt::Tensor* t = tensor_of(o)) out_tensors.push_back(*t);
  Value backward = *bwd;
  Span where = a.span;
  Interp* interp = &in;
  auto recorded = rt::autograd::record_function(name + "Backward", inputs, out_tensors, [interp, backward, ctx, out_tensors, tensor_pos, name, where](const rt::Tensors& grads) {
    CallArgs ba;
    ba.pos.push_back(ctx);
    for (size_t i = 0; i < grads.size(); ++i)
      ba.pos.push_back(wrap(grads[i].defined() ? grads[i] : rt::zeros_like(out_tensors[i])));
    ba.span = where;
    return input_grads(interp->call(backward, ba), tensor_pos, name, where);
  });
  size_t k = 0;
  for (auto& o : outs)
    if (tensor_of(o)) o = wrap(recorded[k++]);
  return out.is(ObjKind::Tuple) || out.is(ObjKind::List) ? make_tuple(std::move(outs)) : outs[0];
}

}  // namespace

// The autograd.Function base class scripts subclass.
Value make_function_class() {
  auto cls = make<Class>(intern("Function"), Ref<Class>());
  auto native = make<Native>("apply", apply);
  native->classmethod = true;
  cls->attrs[intern("apply")] = Value(native);
  return cls;
}

}  // namespace amps::interp
