// AutocastLayer: region state, per-op policy application, the cast cache, tracing and provenance.
#include "amp/autocast_layer.hpp"

#include "runtime/autograd_meta.hpp"
#include "runtime/error.hpp"
#include "runtime/schema.hpp"

namespace amps::amp {
namespace {

using rt::DeviceType;
using rt::DType;
using rt::IValue;
using rt::OpId;

// Calls f(tensor) for every tensor argument, list elements included.
template <typename F> void each_tensor(const rt::Args& args, F&& f) {
  for (const IValue& v : args) {
    if (v.is_tensor() && v.tensor().defined()) f(v.tensor());
    if (v.kind() == IValue::Kind::tensor_list)
      for (const rt::Tensor& t : v.tensors()) f(t);
  }
}

// The device type an op runs on: its first tensor that is not a 0-dim cpu tensor (those may join
// any device, as in PyTorch), else its first tensor; none for factories.
std::optional<DeviceType> op_device_type(const rt::Args& args) {
  std::optional<DeviceType> first, main;
  each_tensor(args, [&](const rt::Tensor& t) {
    if (!first) first = t.device().type;
    if (!main && !(t.dim() == 0 && t.device().type == DeviceType::cpu)) main = t.device().type;
  });
  return main ? main : first;
}

// Why a call runs without autocast (PyTorch registers only out-of-place overloads), or null.
const char* skip_reason(OpId op, const rt::Args& args) {
  if (rt::op_has(op, rt::opflag::inplace)) return "in-place";
  int out = rt::op_parsed_schema(op).out_index;
  if (out >= 0 && size_t(out) < args.size() && args[size_t(out)].is_tensor()) return "out=";
  return nullptr;
}

bool is_view(const rt::Tensor& t) { return t.autograd_meta() && t.autograd_meta()->view_base.defined(); }

}  // namespace

bool is_eligible(const rt::Tensor& t, DeviceType dev) {
  if (!t.defined() || !t.is_floating_point() || t.dtype() == DType::float64 || t.impl()->is_wrapped_number)
    return false;
  DeviceType on = t.device().type;
  return on == dev || (dev == DeviceType::cuda && on == DeviceType::xla);
}

AutocastLayer::AutocastLayer()
    : cache_(std::make_shared<CastCache>()), provenance_(std::make_shared<ProvenanceLog>()) {
  for (int d = 0; d < rt::device_type_count; ++d) {
    state_[size_t(d)].dtype = default_autocast_dtype(DeviceType(d));
    for (int op = 0; op < rt::op_count; ++op) policies_[size_t(d)][size_t(op)] = policy_for(DeviceType(d), OpId(op));
  }
  refresh_any_enabled();
}

std::shared_ptr<rt::DispatchLayer> AutocastLayer::fork(const std::shared_ptr<rt::DispatchLayer>&) const {
  return std::make_shared<AutocastLayer>(*this);
}

AutocastLayer::Saved AutocastLayer::enter(DeviceType d, bool enabled, DType dtype, bool cache_enabled) {
  Saved s{d, state_[size_t(d)], cache_enabled_};
  state_[size_t(d)] = DeviceAutocast{enabled, dtype};
  cache_enabled_ = cache_enabled;
  ++nesting_;
  refresh_any_enabled();
  return s;
}

void AutocastLayer::exit(const Saved& s) {
  if (--nesting_ == 0) cache_->clear();
  state_[size_t(s.device)] = s.prev;
  cache_enabled_ = s.prev_cache_enabled;
  refresh_any_enabled();
}

void AutocastLayer::refresh_any_enabled() {
  any_enabled_ = false;
  for (const DeviceAutocast& s : state_) any_enabled_ = any_enabled_ || s.enabled;
  set_passthrough(!any_enabled_);
}

rt::Tensors AutocastLayer::call(OpId op, rt::Args& args, const rt::Next& next) {
  if (!any_enabled_) return next(op, args);
  std::optional<DeviceType> dev = op_device_type(args);
  if (!dev || !state_[size_t(*dev)].enabled) return next(op, args);
  CastDecision d = decide(op, args, *dev);
  if (d.policy == Policy::banned) {
    finish(d, args, {});
    AMPS_FAIL("{}", banned_message(op));
  }
  rt::Tensors out = d.policy == Policy::none ? next(op, args) : run_listed(op, args, next, *dev, d.policy);
  finish(d, args, out);
  return out;
}

CastDecision AutocastLayer::decide(OpId op, const rt::Args& args, DeviceType dev) const {
  CastDecision d{op, dev, policy(dev, op), state_[size_t(dev)].dtype, {}, std::nullopt, skip_reason(op, args)};
  if (d.skipped) d.policy = Policy::none;
  each_tensor(args, [&](const rt::Tensor& t) { d.input_dtypes.push_back(t.dtype()); });
  d.site = site_ ? site_() : 0;
  return d;
}

// Records the outcome: output dtype, trace callback, provenance of fresh outputs (an op that returns
// one of its inputs, like contiguous() of a contiguous tensor, keeps that input's provenance).
void AutocastLayer::finish(CastDecision& d, const rt::Args& args, const rt::Tensors& out) {
  if (!out.empty() && out[0].defined()) d.output_dtype = out[0].dtype();
  if (trace_) trace_(d);
  if (d.skipped) return;
  for (const rt::Tensor& t : out) {
    bool is_input = false;
    each_tensor(args, [&](const rt::Tensor& a) { is_input = is_input || a.is_same(t); });
    if (t.defined() && !is_input) provenance_->record(t, d);
  }
}

rt::Tensors AutocastLayer::run_listed(OpId op, rt::Args& args, const rt::Next& next, DeviceType dev, Policy p) {
  switch (p) {
    case Policy::lower_precision_fp: cast_args(args, dev, state_[size_t(dev)].dtype); break;
    case Policy::fp32: cast_args(args, dev, DType::float32); break;
    case Policy::fp32_set_opt_dtype:
    case Policy::fp32_append_dtype: set_fp32_dtype(op, args, dev); break;
    case Policy::promote: cast_args(args, dev, promote_type(args, dev)); break;
    case Policy::none:
    case Policy::banned: break;
  }
  rt::ExcludeLayerGuard self(this);
  return next(op, args);
}

void AutocastLayer::cast_for_policy(rt::Args& args, Policy p) {
  std::optional<DeviceType> dev = any_enabled_ ? op_device_type(args) : std::nullopt;
  if (!dev || !state_[size_t(*dev)].enabled) return;
  if (p == Policy::lower_precision_fp) cast_args(args, *dev, state_[size_t(*dev)].dtype);
  if (p == Policy::fp32) cast_args(args, *dev, DType::float32);
  if (p == Policy::promote) cast_args(args, *dev, promote_type(args, *dev));
}

void AutocastLayer::cast_args(rt::Args& args, DeviceType dev, DType dtype) {
  for (IValue& v : args) {
    if (v.is_tensor() && v.tensor().defined()) v = IValue(cached_cast(v.tensor(), dev, dtype));
    if (v.kind() == IValue::Kind::tensor_list)
      for (rt::Tensor& t : v.tensors()) t = cached_cast(t, dev, dtype);
  }
}

// PyTorch's cached_cast: only lower-precision casts of float32 leaves that require grad (and are not
// views) are cached, and only while the region's cache flag is on.
rt::Tensor AutocastLayer::cached_cast(const rt::Tensor& t, DeviceType dev, DType dtype) {
  if (!is_eligible(t, dev) || t.dtype() == dtype) return t;
  bool cacheable = cache_enabled_ && dtype == state_[size_t(dev)].dtype && t.dtype() == DType::float32 &&
                   t.requires_grad() && t.is_leaf() && !is_view(t);
  if (!cacheable) return cast(t, dtype, false);
  if (rt::Tensor hit = cache_->find(t, dtype); hit.defined()) return hit;
  rt::Tensor c = cast(t, dtype, true);
  cache_->insert(t, c);
  return c;
}

// The `to` op through the remaining layers (autograd records it). A cached cast is made with grad mode
// on (PyTorch issue #158232): one first made under no_grad must still carry history for later use.
rt::Tensor AutocastLayer::cast(const rt::Tensor& t, DType dtype, bool force_grad) {
  rt::ExcludeLayerGuard self(this);
  std::optional<rt::GradModeGuard> grad;
  if (force_grad) grad.emplace(true);
  rt::Args a{IValue(t), IValue(dtype)};
  return rt::dispatch(OpId::to, a)[0];
}

// PyTorch's promote_type/prioritize: start at the region dtype; any float32 wins; float64 is ignored
// (it is never eligible); a lower dtype other than the region's is an error.
DType AutocastLayer::promote_type(const rt::Args& args, DeviceType dev) const {
  const DType lower = state_[size_t(dev)].dtype;
  DType current = lower;
  each_tensor(args, [&](const rt::Tensor& t) {
    if (!is_eligible(t, dev)) return;
    if (current == DType::float32 || t.dtype() == DType::float32) current = DType::float32;
    else if (t.dtype() != lower) AMPS_FAIL("Unexpected floating ScalarType in at::autocast::prioritize");
  });
  return current;
}

// fp32_set_opt_dtype / fp32_append_dtype: dtype=float32 when the first argument is eligible and the
// caller gave no dtype (an explicit dtype is respected; an ineligible first argument changes nothing).
void AutocastLayer::set_fp32_dtype(OpId op, rt::Args& args, DeviceType dev) const {
  int di = rt::op_parsed_schema(op).find_arg("dtype");
  if (di < 0 || args.empty() || !args[0].is_tensor() || !is_eligible(args[0].tensor(), dev)) return;
  if (args[size_t(di)].is_none()) args[size_t(di)] = IValue(DType::float32);
}

std::shared_ptr<AutocastLayer> install_autocast(rt::Context& ctx) {
  for (const rt::Context::LayerEntry& e : ctx.layers())
    if (auto p = std::dynamic_pointer_cast<AutocastLayer>(e.layer)) return p;
  auto layer = std::make_shared<AutocastLayer>();
  ctx.add_layer(layer, rt::layer_order::autocast);
  return layer;
}

}  // namespace amps::amp
