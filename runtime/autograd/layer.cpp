// AutogradLayer: records an OpNode for every differentiable op whose inputs require grad, plus the
// tensor-level API (retain_grad, hooks, grad_fn names, custom-function nodes).
#include <algorithm>
#include <span>

#include "runtime/autograd/anomaly.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/autograd/grad_fn_names.hpp"
#include "runtime/autograd/rules.hpp"
#include "runtime/autograd/view_inplace.hpp"
#include "runtime/backend/common/derived_inplace.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/schema.hpp"
#include "runtime/small_pool.hpp"
#include "runtime/views.hpp"

namespace amps::rt::autograd {
namespace {

bool is_list_op(const Args& args) { return !args.empty() && args[0].kind() == IValue::Kind::tensor_list; }

// The tensors of the gradient slots (see BackwardCtx), in place in [args] (null for non-tensor
// arguments): list elements for cat/stack, else one per argument. Pointers, not copies: a copy would
// cost two locked reference-count updates per input per recorded op.
PoolVector<const Tensor*> slot_tensors(const Args& args) {
  PoolVector<const Tensor*> t;
  if (is_list_op(args)) {
    t.reserve(args[0].tensors().size());
    for (const Tensor& x : args[0].tensors()) t.push_back(&x);
    return t;
  }
  t.reserve(args.size());
  for (const IValue& v : args) t.push_back(v.is_tensor() ? &v.tensor() : nullptr);
  return t;
}

// Views among [args] whose base changed in place since their history was set get the base's current history.
void refresh_views(const Args& args) {
  for (const IValue& v : args) {
    if (v.is_tensor()) refresh_view_history(v.tensor());
    if (v.kind() == IValue::Kind::tensor_list)
      for (const Tensor& t : v.tensors()) refresh_view_history(t);
  }
}

bool any_requires_grad(const Args& args) {
  for (const IValue& v : args) {
    if (v.is_tensor() && v.tensor().defined() && v.tensor().requires_grad()) return true;
    if (v.kind() == IValue::Kind::tensor_list)
      for (const Tensor& t : v.tensors())
        if (t.requires_grad()) return true;
  }
  return false;
}

bool aliases_input(const Tensor& t, std::span<const Tensor* const> inputs) {
  for (const Tensor* i : inputs)
    if (i && i->defined() && i->is_same(t)) return true;
  return false;
}

void check_inplace_target(const Tensor& self) {
  AMPS_CHECK(!(self.is_leaf() && self.requires_grad()),
             "a leaf Variable that requires grad is being used in an in-place operation.");
  const AutogradMeta* m = self.autograd_meta();
  AMPS_CHECK(!(m && m->view_base.defined() && m->view_base.is_leaf() && m->view_base.requires_grad()),
             "a view of a leaf Variable that requires grad is being used in an in-place operation.");
}

// Argument 0 of an in-place op: one tensor, or a list of them (the fused optimizer steps).
void check_inplace_targets(const IValue& v) {
  if (v.is_tensor()) check_inplace_target(v.tensor());
  if (v.kind() == IValue::Kind::tensor_list)
    for (const Tensor& t : v.tensors()) check_inplace_target(t);
}

// An in-place op without a gradient (eq_, bitwise_and_, ...) would leave input's history in place although its
// values no longer derive from it: refused while input requires grad.
void check_no_gradient_needed(OpId op, const IValue& self) {
  if (!self.is_tensor() || !self.tensor().defined() || !self.tensor().requires_grad()) return;
  std::string_view id = op_id_name(op);
  AMPS_FAIL("{}: the derivative for '{}' is not implemented, and input requires grad; apply it to input.detach(), "
            "or use the out-of-place {}", op_name(op), id.substr(0, id.size() - 1), id.substr(0, id.size() - 1));
}

void check_no_out(OpId op, const Args& args) {
  int o = op_parsed_schema(op).out_index;
  AMPS_CHECK(o < 0 || !args[size_t(o)].is_tensor(), "{}(): functions with out=... arguments don't support "
             "automatic differentiation, but one of the arguments requires grad.", op_name(op));
}

}  // namespace

// The node of one recorded op: its rule, its non-tensor arguments and the tensors the rule saves.
class OpNode final : public GradNode {
 public:
  OpNode(OpId op, const Rule& rule, const Args& args) : op_(op), rule_(rule), reader_(op, args_) {
    args_.reserve(args.size());
    for (const IValue& v : args) {  // in place: no IValue temporary to copy, move and destroy
      if (v.is_tensor() || v.kind() == IValue::Kind::tensor_list) args_.emplace_back();
      else args_.push_back(v);
    }
    if (rule.saves & kInputBits) saved_in_.resize(args.size());  // else left empty: nothing to save
  }
  std::string_view name() const override { return name_.empty() ? op_name(op_) : name_; }
  // The PyTorch name of the node (set once the kernel has run: some names depend on its result).
  void set_name(std::string_view name) { name_ = name; }
  // What implicit composite [name] shows for its result: the innermost named composite keeps its name.
  void name_by_composite(std::string_view name) {
    if (named_by_composite_) return;
    name_ = name;
    named_by_composite_ = true;
  }

  Tensors apply(Tensors& grads, const std::vector<bool>& needs) override {
    BackwardCtx c(*this, grads, needs);
    Tensors r = rule_.backward(c);
    r.resize(next.size());
    return r;
  }

  void release() override {
    for (SavedTensor& s : saved_in_) s.release();
    for (SavedTensor& s : saved_out_) s.release();
  }

  // Saves what the rule names: inputs (the pre-op clone of self for in-place ops is saved earlier) and
  // outputs, which remember [self] (this node) to get it back as their history when unpacked.
  void save(const Args& args, const Tensors& outs, bool inplace, const std::shared_ptr<OpNode>& self) {
    for (size_t i = inplace ? 1 : 0; i < saved_in_.size() && i < 32; ++i)
      if ((rule_.saves & in_(int(i))) && args[i].is_tensor()) saved_in_[i] = SavedTensor(args[i].tensor(), false);
    if (!(rule_.saves & ~kInputBits)) return;
    saved_out_.resize(outs.size());
    for (size_t k = 0; k < outs.size() && k < 32; ++k)
      if (rule_.saves & out_(int(k))) saved_out_[k] = SavedTensor::output(outs[k], uint32_t(k), self);
  }

  static constexpr uint64_t kInputBits = 0xffffffffu;  // the in_(i) bits of Rule::saves

  OpId op_;
  std::string_view name_;  // static storage (grad_fn_names.cpp)
  bool named_by_composite_ = false;
  const Rule& rule_;
  Args args_;  // non-tensor arguments; tensors replaced by None
  ArgReader reader_;
  PoolVector<SavedTensor> saved_in_, saved_out_;
};

BackwardCtx::BackwardCtx(OpNode& node, Tensors& grads, const std::vector<bool>& needs)
    : a(node.reader_), node_(node), grads_(grads), needs_(needs) {}

Tensor BackwardCtx::g(size_t k) const {
  if (k < grads_.size() && grads_[k].defined()) return grads_[k];
  const TensorMeta& m = node_.out_meta[k];
  return zeros(m.sizes, m.dtype, m.device);
}

bool BackwardCtx::flowed(size_t k) const { return k < grads_.size() && grads_[k].defined(); }

Tensor BackwardCtx::in(size_t i) const {
  if (i < node_.saved_in_.size() && node_.saved_in_[i].defined()) return node_.saved_in_[i].unpack(node_);
  const IValue& v = node_.args_[i];
  AMPS_ASSERT(v.is_number(), "{}: argument {} was not saved for backward", node_.name(), i);
  return wrap_number(v.scalar());
}

Tensor BackwardCtx::out(size_t k) const {
  AMPS_ASSERT(k < node_.saved_out_.size() && node_.saved_out_[k].defined(), "{}: output {} was not saved",
              node_.name(), k);
  return node_.saved_out_[k].unpack(node_);
}

const TensorMeta& BackwardCtx::meta(size_t i) const { return node_.in_meta[i]; }
bool BackwardCtx::has(size_t i) const { return i < node_.in_meta.size() && node_.in_meta[i].defined; }

namespace {

// Names the recorded-op node behind [t] for a composite (see OpNode::name_by_composite), unless it is one of
// the nodes in [before] (an input's history handed back unchanged).
void name_new_node(const Tensor& t, std::span<const Node* const> before, std::string_view name) {
  const AutogradMeta* m = t.defined() ? t.autograd_meta() : nullptr;
  auto* node = m ? dynamic_cast<OpNode*>(m->grad_fn.get()) : nullptr;
  if (node && std::find(before.begin(), before.end(), node) == before.end()) node->name_by_composite(name);
}

class AutogradLayer final : public DispatchLayer {
 public:
  std::string_view name() const override { return "autograd"; }
  // The source position of the op being recorded, as text, for anomaly mode (anomaly.hpp).
  void set_site_provider(std::function<std::string()> fn) { site_ = std::move(fn); }

  Tensors call(OpId op, Args& args, const Next& next) override {
    const bool grad_mode = current_context().grad_enabled();
    if (grad_mode) refresh_views(args);
    if (grad_mode && op_has(op, opflag::inplace)) check_inplace_targets(args[0]);
    const Rule* rule = rule_for(op);
    if (grad_mode && !rule && op_has(op, opflag::inplace)) check_no_gradient_needed(op, args[0]);
    if (!grad_mode || !rule || !any_requires_grad(args)) {
      Tensors outs = below(op, args, next);
      if (grad_mode) remember_bases(op, args, outs);
      return outs;
    }
    check_no_out(op, args);
    if (rule->decompose) {
      // X_ sharing the decomposition of X: X on a clone of input, then copy_ into it (derived_inplace.hpp); the
      // node behind the result shows X's name, as PyTorch's FracBackward0 for frac_.
      if (std::optional<OpId> base = common::inplace_base(op)) return decompose_inplace(op, *base, args);
      return decompose(op, *rule, args);
    }
    return record(op, *rule, args, next);
  }

 private:
  // Runs [run] (a decomposition, recorded op by op); [name], PyTorch's name for the composite when not empty, goes to
  // the nodes behind its results that the run created (not those of inputs handed back as they were).
  template <typename Run> static Tensors named_run(std::string_view name, const Args& args, Run&& run) {
    if (name.empty()) return run();
    PoolVector<const Node*> before;
    for (const IValue& v : args)
      if (v.is_tensor() && v.tensor().defined() && v.tensor().autograd_meta())
        before.push_back(v.tensor().autograd_meta()->grad_fn.get());
    Tensors outs = run();
    for (const Tensor& t : outs) name_new_node(t, before, name);
    return outs;
  }

  static Tensors decompose(OpId op, const Rule& rule, Args& args) {
    return named_run(composite_node_name(op, args), args, [&] { return rule.decompose(args); });
  }

  // X_ through X's decomposition (derived_inplace.hpp); the input's new node shows X's name.
  static Tensors decompose_inplace(OpId op, OpId base, Args& args) {
    std::string_view name = composite_node_name(base, args);
    if (name.empty()) name = recorded_node_name(base, args, Tensors());
    return named_run(name, args, [&] { return common::decompose_inplace(op, base, args); });
  }

  Tensors below(OpId op, Args& args, const Next& next) {
    ExcludeLayerGuard self(this);
    return next(op, args);
  }

  Tensors record(OpId op, const Rule& rule, Args& args, const Next& next) {
    const bool inplace = op_has(op, opflag::inplace);
    auto node = std::allocate_shared<OpNode>(PoolAllocator<OpNode>{}, op, rule, args);
    // Pointers into [args], which the kernel below does not reassign (dispatch_backend only clears an
    // out= argument, and ops recorded here have none: check_no_out).
    PoolVector<const Tensor*> inputs = slot_tensors(args);
    if (inplace && (rule.saves & in_(0))) node->saved_in_[0] = SavedTensor(inputs[0]->clone(), false);
    connect_inputs(*node, inputs);  // before running: an in-place op's self still has its old history
    Tensors outs = below(op, args, next);
    node->set_name(recorded_node_name(op, args, outs));
    if (anomaly_enabled()) node->forward_site = std::make_unique<std::string>(site_ ? site_() : std::string());
    node->save(args, outs, inplace, node);
    if (inplace && is_view_inplace(*inputs[0])) {
      bind_outputs(node, inputs, outs, inplace);
      rebase_view(*inputs[0], node);  // after bind_outputs: replaces the view's history
    } else {
      bind_outputs(std::move(node), inputs, outs, inplace);
    }
    remember_bases(op, args, outs);
    return outs;
  }

  // Outputs get the node as history, except non-floating ones and inputs returned unchanged (`to` a
  // dtype the tensor already has). The last output takes [node] over (no reference-count update).
  static void bind_outputs(std::shared_ptr<OpNode> node, std::span<const Tensor* const> inputs, const Tensors& outs,
                           bool inplace) {
    node->out_meta.reserve(outs.size());
    for (const Tensor& t : outs) push_meta(node->out_meta, t);
    std::shared_ptr<GradNode> fn = std::move(node);
    for (size_t k = outs.size(); k-- > 0;) {
      const Tensor& t = outs[k];
      if (!t.defined() || !t.is_floating_point() || (!inplace && aliases_input(t, inputs))) continue;
      if (k == 0) set_history(t, std::move(fn), 0);
      else set_history(t, fn, uint32_t(k));
    }
  }

  std::function<std::string()> site_;

  // Views of floating tensors made in grad mode remember their base, so an in-place op on the view
  // can rebase the base's history (detach() is the exception: it leaves the graph on purpose).
  static void remember_bases(OpId op, const Args& args, const Tensors& outs) {
    if (!op_has(op, opflag::view) || op == OpId::detach || !args[0].is_tensor()) return;
    const Tensor& in = args[0].tensor();
    if (!in.defined() || !in.is_floating_point() || outs.empty() || outs[0].is_same(in)) return;
    const AutogradMeta* im = in.autograd_meta();
    AutogradMeta& om = const_cast<Tensor&>(outs[0]).ensure_autograd_meta();
    om.view_base = im && im->view_base.defined() ? im->view_base : in;
    om.view_version = outs[0].version();
  }
};

}  // namespace

void install(Context& ctx) {
  if (!ctx.find_layer<AutogradLayer>()) ctx.add_layer(std::make_shared<AutogradLayer>(), layer_order::autograd);
}

void set_anomaly_site_provider(Context& ctx, std::function<std::string()> fn) {
  if (auto* layer = ctx.find_layer<AutogradLayer>()) layer->set_site_provider(std::move(fn));
}

void retain_grad(const Tensor& t) {
  AMPS_CHECK(t.requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  if (t.is_leaf()) return;
  AutogradMeta& m = const_cast<Tensor&>(t).ensure_autograd_meta();
  m.retains_grad = true;
  auto node = std::static_pointer_cast<GradNode>(m.grad_fn);
  if (node->retained.size() <= m.output_nr) node->retained.resize(m.output_nr + 1);
  node->retained[m.output_nr] = t.impl_ptr();
}

void register_hook(const Tensor& t, std::function<Tensor(const Tensor&)> hook) {
  AMPS_CHECK(t.requires_grad(), "cannot register a hook on a tensor that doesn't require gradient");
  AutogradMeta& m = const_cast<Tensor&>(t).ensure_autograd_meta();
  if (t.is_leaf()) return m.hooks.push_back(std::move(hook));
  auto node = std::static_pointer_cast<GradNode>(m.grad_fn);
  if (node->pre_hooks.size() <= m.output_nr) node->pre_hooks.resize(m.output_nr + 1);
  node->pre_hooks[m.output_nr].push_back(std::move(hook));
}

void name_result_node(const Tensor& result, const Tensor& input, std::string_view name) {
  const AutogradMeta* m = input.defined() ? input.autograd_meta() : nullptr;
  const Node* before = m ? m->grad_fn.get() : nullptr;
  name_new_node(result, std::span<const Node* const>(&before, 1), name);
}

std::string grad_fn_name(const Tensor& t) {
  const AutogradMeta* m = t.defined() ? t.autograd_meta() : nullptr;
  return m && m->grad_fn ? std::string(m->grad_fn->name()) : std::string();
}

Tensors record_function(const std::string& name, const Tensors& inputs, Tensors outputs, CustomBackward backward) {
  bool any = false;
  for (const Tensor& t : inputs) any = any || (t.defined() && t.requires_grad());
  if (!current_context().grad_enabled() || !any) return outputs;
  auto node = std::make_shared<FunctionNode>(name, std::move(backward));
  PoolVector<const Tensor*> in;
  in.reserve(inputs.size());
  for (const Tensor& t : inputs) in.push_back(&t);
  connect_inputs(*node, in);
  for (size_t k = 0; k < outputs.size(); ++k) {
    Tensor& t = outputs[k];
    push_meta(node->out_meta, t);
    if (!t.defined() || !t.is_floating_point()) continue;
    if (aliases_input(t, in)) t = native::alias(t);
    set_history(t, node, uint32_t(k));
  }
  return outputs;
}

}  // namespace amps::rt::autograd
