// GradScaler: lazy scale tensors, unscale_ with per-device found_inf, the step state machine, update.
#include "amp/grad_scaler.hpp"

#include <fmt/format.h>

#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::amp {
namespace {

using rt::DType;
using rt::IValue;
using rt::OpId;
using rt::Tensor;
using FoundInfs = std::vector<std::pair<rt::Device, Tensor>>;

[[noreturn]] void assertion(std::string msg) { throw rt::Error("AssertionError", std::move(msg)); }

Tensor run(OpId op, rt::Args args) { return rt::dispatch(op, args)[0]; }

// Sum of found_inf flags moved to [device] (> 0: some gradient was inf/NaN).
Tensor sum_on(const std::vector<Tensor>& flags, rt::Device device) {
  Tensor total = flags[0].to(device);
  for (size_t i = 1; i < flags.size(); ++i) total = rt::add(total, flags[i].to(device));
  return total;
}

// Gradients grouped by (device, dtype), in first-seen order: one unscale kernel call per group.
struct Bucket {
  rt::Device device;
  DType dtype;
  std::vector<Tensor> grads;
};

void add_to_bucket(std::vector<Bucket>& buckets, const Tensor& g) {
  for (Bucket& b : buckets)
    if (b.device == g.device() && b.dtype == g.dtype()) return b.grads.push_back(g);
  buckets.push_back(Bucket{g.device(), g.dtype(), {g}});
}

}  // namespace

GradScaler::GradScaler(GradScalerOptions opts) : opts_(opts) {
  if (!opts_.enabled) return;
  if (!(opts_.growth_factor > 1.0)) assertion("The growth factor must be > 1.0.");
  if (!(opts_.backoff_factor < 1.0)) assertion("The backoff factor must be < 1.0.");
}

void GradScaler::lazy_init(rt::Device device) {
  if (scale_.defined()) return;
  rt::GradModeGuard no_grad(false);
  scale_ = rt::full({}, opts_.init_scale, DType::float32, device);
  growth_tracker_ = rt::full({}, init_growth_tracker_, DType::int32, device);
}

void GradScaler::check_initialized(const char* funcname) const {
  if (!scale_.defined())
    assertion(fmt::format("Attempted {} but _scale is None.  This may indicate your script did not use "
                          "scaler.scale(loss or outputs) earlier in the iteration.", funcname));
}

Tensor GradScaler::scale(const Tensor& outputs) {
  if (!opts_.enabled) return outputs;
  lazy_init(outputs.device());
  return rt::mul(outputs, scale_.to(outputs.device()));
}

void GradScaler::unscale_(ScalerOptimizer& opt) {
  if (!opts_.enabled) return;
  check_initialized("unscale_");
  PerOptimizer& st = state_of(opt);
  if (st.stage == OptState::unscaled)
    AMPS_FAIL("unscale_() has already been called on this optimizer since the last update().");
  if (st.stage == OptState::stepped) AMPS_FAIL("unscale_() is being called after step().");
  rt::GradModeGuard no_grad(false);
  // The reciprocal is taken in float64, then rounded to float32, as PyTorch does.
  Tensor inv_scale = run(OpId::reciprocal, {IValue(scale_.to(DType::float64))}).to(DType::float32);
  st.found_inf_per_device = unscale_grads(opt, inv_scale, false);
  st.stage = OptState::unscaled;
}

// Checks every gradient for inf/NaN and multiplies it by [inv_scale] in place; returns one fresh
// found_inf flag per device that had gradients. ValueError on a float16 gradient unless [allow_fp16].
FoundInfs GradScaler::unscale_grads(ScalerOptimizer& opt, const Tensor& inv_scale, bool allow_fp16) {
  std::vector<Bucket> buckets;
  for (const Tensor& p : opt.params()) {
    Tensor g = p.grad();
    if (!g.defined()) continue;
    if (!allow_fp16 && g.dtype() == DType::float16)
      throw rt::Error("ValueError", "Attempting to unscale FP16 gradients.");
    add_to_bucket(buckets, g);
  }
  FoundInfs found;
  for (Bucket& b : buckets) {
    auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.first == b.device; });
    if (it == found.end()) it = found.insert(found.end(), {b.device, rt::full({}, 0.0, DType::float32, b.device)});
    rt::Args args{IValue(b.grads), IValue(it->second), IValue(inv_scale.to(b.device))};
    rt::dispatch(OpId::_amp_foreach_non_finite_check_and_unscale_, args);
  }
  return found;
}

bool GradScaler::step(ScalerOptimizer& opt, bool has_closure) {
  if (!opts_.enabled) {
    opt.step(Tensor(), Tensor());
    return true;
  }
  if (has_closure) AMPS_FAIL("Closure use is not currently supported if GradScaler is enabled.");
  check_initialized("step");
  if (state_of(opt).stage == OptState::stepped) AMPS_FAIL("step() has already been called since the last update().");
  if (opt.supports_amp_scaling()) {
    step_with_amp_scaling(opt, state_of(opt));
    return true;
  }
  if (state_of(opt).stage == OptState::ready) unscale_(opt);
  PerOptimizer& st = state_of(opt);
  if (st.found_inf_per_device.empty()) assertion("No inf checks were recorded for this optimizer.");
  bool stepped = true;
  if (opt.supports_sync_free()) {
    std::vector<Tensor> flags;
    for (auto& [device, flag] : st.found_inf_per_device) flags.push_back(flag);
    opt.step(sum_on(flags, scale_.device()), scale_);
  } else {
    stepped = step_with_host_check(opt, st);
  }
  st.stage = OptState::stepped;
  return stepped;
}

// PyTorch's _check_inf_per_device (unscale with inv_scale 1: the kernels then only read, float16 allowed)
// unless an explicit unscale_ already ran; the optimizer divides by the scale it is given.
void GradScaler::step_with_amp_scaling(ScalerOptimizer& opt, PerOptimizer& st) {
  Tensor grad_scale;
  if (st.stage == OptState::ready) {
    rt::GradModeGuard no_grad(false);
    st.found_inf_per_device = unscale_grads(opt, rt::full({}, 1.0, DType::float32, scale_.device()), true);
    grad_scale = scale_;
  }
  if (st.found_inf_per_device.empty()) assertion("No inf checks were recorded for this optimizer.");
  std::vector<Tensor> flags;
  for (auto& [device, flag] : st.found_inf_per_device) flags.push_back(flag);
  opt.step(sum_on(flags, scale_.device()), grad_scale);
  st.stage = OptState::stepped;
}

// The one host read of the ordinary path: found_inf per device (.item() counts the sync).
bool GradScaler::step_with_host_check(ScalerOptimizer& opt, const PerOptimizer& st) {
  double total = 0;
  for (const auto& [device, flag] : st.found_inf_per_device) total += flag.item<double>();
  if (total != 0) return false;
  opt.step(Tensor(), Tensor());
  return true;
}

void GradScaler::update() {
  if (!opts_.enabled) return;
  check_initialized("update");
  std::vector<Tensor> flags;
  for (auto& [id, st] : per_optimizer_)
    for (auto& [device, flag] : st.found_inf_per_device) flags.push_back(flag);
  if (flags.empty()) assertion("No inf checks were recorded prior to update.");
  rt::GradModeGuard no_grad(false);
  rt::Args args{IValue(scale_), IValue(growth_tracker_), IValue(sum_on(flags, scale_.device())),
                IValue(opts_.growth_factor), IValue(opts_.backoff_factor), IValue(opts_.growth_interval)};
  rt::dispatch(OpId::_amp_update_scale_, args);
  per_optimizer_.clear();
}

void GradScaler::update(double new_scale) {
  if (!opts_.enabled) return;
  check_initialized("update");
  rt::GradModeGuard no_grad(false);
  scale_.fill_(new_scale);
  per_optimizer_.clear();
}

// The value is copied: later changes to [new_scale] do not reach the scaler.
void GradScaler::update(const Tensor& new_scale) {
  if (!opts_.enabled) return;
  check_initialized("update");
  const char* reason = "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                       "torch.FloatTensor with requires_grad=False.";
  if (new_scale.device().type != scale_.device().type || new_scale.numel() != 1 || new_scale.requires_grad())
    assertion(reason);
  rt::GradModeGuard no_grad(false);
  scale_.copy_(new_scale.reshape({}));
  per_optimizer_.clear();
}

double GradScaler::get_scale() const {
  if (!opts_.enabled) return 1.0;
  return scale_.defined() ? scale_.item<double>() : opts_.init_scale;
}

int64_t GradScaler::growth_tracker() const {
  if (!opts_.enabled) return 0;
  return growth_tracker_.defined() ? growth_tracker_.item<int64_t>() : init_growth_tracker_;
}

std::optional<GradScalerState> GradScaler::state_dict() const {
  if (!opts_.enabled) return std::nullopt;
  return GradScalerState{get_scale(), opts_.growth_factor, opts_.backoff_factor, opts_.growth_interval,
                         growth_tracker()};
}

void GradScaler::load_state_dict(const std::optional<GradScalerState>& sd) {
  if (!opts_.enabled) return;
  if (!sd) AMPS_FAIL("The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler.");
  rt::GradModeGuard no_grad(false);
  opts_.init_scale = sd->scale;
  if (scale_.defined()) scale_.fill_(sd->scale);
  opts_.growth_factor = sd->growth_factor;
  opts_.backoff_factor = sd->backoff_factor;
  opts_.growth_interval = sd->growth_interval;
  init_growth_tracker_ = sd->growth_tracker;
  if (growth_tracker_.defined()) growth_tracker_.fill_(sd->growth_tracker);
}

OptState GradScaler::stage(const ScalerOptimizer& opt) const {
  auto it = per_optimizer_.find(opt.identity());
  return it == per_optimizer_.end() ? OptState::ready : it->second.stage;
}

}  // namespace amps::amp
