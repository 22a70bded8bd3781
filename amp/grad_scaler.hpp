// GradScaler: torch.amp.GradScaler's dynamic loss scaling as a small per-optimizer state machine.
#pragma once

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "runtime/tensor.hpp"

namespace amps::amp {

// What the scaler needs from an optimizer. The script binding adapts any script optimizer object
// (interp/amp_binding.hpp); a C++ optimizer can implement it directly. The protocol:
//  - identity(): a stable key for the per-optimizer state (PyTorch's id(optimizer)).
//  - params(): every parameter of every param group; the scaler reads and unscales p.grad() in place.
//  - supports_sync_free(): the optimizer skips on device. Then the scaler never reads found_inf on the
//    host: after unscaling it calls step(found_inf, scale) with found_inf a 0-dim float32 tensor on the
//    scale's device (> 0: inf/NaN gradients, keep parameters and state unchanged) and scale the 0-dim
//    loss scale the gradients have ALREADY been divided by (information only; do not divide again).
//    This is torch_xla's syncfree contract (the scaler unscales, the optimizer gets found_inf).
//  - supports_amp_scaling(): PyTorch's contract for fused optimizers (_step_supports_amp_scaling); it wins
//    over supports_sync_free(). The scaler only checks the gradients for inf/NaN (one read, no write) and
//    calls step(found_inf, grad_scale): the optimizer divides each gradient by grad_scale itself (writing it
//    back unscaled) and skips on device when found_inf > 0. grad_scale is undefined when an explicit
//    unscale_() already divided the gradients. Saves the unscale pass over every gradient.
//  - otherwise step(undefined, undefined) is called only when no gradient was inf/NaN.
class ScalerOptimizer {
 public:
  virtual ~ScalerOptimizer() = default;
  virtual const void* identity() const = 0;
  virtual std::vector<rt::Tensor> params() = 0;
  virtual bool supports_sync_free() const { return false; }
  virtual bool supports_amp_scaling() const { return false; }
  virtual void step(const rt::Tensor& found_inf, const rt::Tensor& scale) = 0;
};

struct GradScalerOptions {
  double init_scale = 65536.0;
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
  bool enabled = true;
};

// state_dict(): the five values PyTorch saves ("scale", "growth_factor", "backoff_factor",
// "growth_interval", "_growth_tracker").
struct GradScalerState {
  double scale;
  double growth_factor;
  double backoff_factor;
  int64_t growth_interval;
  int64_t growth_tracker;
};

enum class OptState : uint8_t { ready, unscaled, stepped };

// Semantics, defaults and error messages of torch.amp.GradScaler (gradscaler_semantics.md). The scale
// (float32) and growth tracker (int32) are 0-dim tensors created lazily on the device of the first
// scaled tensor; unscale_ and update run device kernels (_amp_foreach_non_finite_check_and_unscale_,
// _amp_update_scale_) and never read a value on the host. step() reads found_inf once per device
// (.item(), counted by Context::count_host_sync) unless the optimizer is sync-free. Misuse throws
// rt::Error with PyTorch's kind (AssertionError, RuntimeError, ValueError) and message. Disabled, every
// method is a passthrough: scale returns its input, step just steps, get_scale() is 1.0.
class GradScaler {
 public:
  // AssertionError "The growth factor must be > 1.0." / "The backoff factor must be < 1.0." (enabled only).
  explicit GradScaler(GradScalerOptions opts = {});

  bool is_enabled() const { return opts_.enabled; }
  // outputs * scale (scale moved to outputs' device); lazily creates the scale on that device.
  rt::Tensor scale(const rt::Tensor& outputs);
  // Divides [opt]'s gradients by the scale in place and records per-device found_inf; READY -> UNSCALED.
  void unscale_(ScalerOptimizer& opt);
  // Unscales if needed, then steps unless found_inf (sync-free optimizers always step, on device;
  // amp-scaling ones are only checked, and unscale inside their step);
  // -> STEPPED. Returns whether opt.step() was called. [has_closure]: a closure= keyword was passed.
  bool step(ScalerOptimizer& opt, bool has_closure = false);
  // Growth/backoff from every optimizer's found_inf (_amp_update_scale_), or sets the scale to
  // [new_scale]; every optimizer returns to READY.
  void update();
  void update(double new_scale);
  void update(const rt::Tensor& new_scale);

  double get_scale() const;
  int64_t growth_tracker() const;
  double get_growth_factor() const { return opts_.growth_factor; }
  void set_growth_factor(double f) { opts_.growth_factor = f; }
  double get_backoff_factor() const { return opts_.backoff_factor; }
  void set_backoff_factor(double f) { opts_.backoff_factor = f; }
  int64_t get_growth_interval() const { return opts_.growth_interval; }
  void set_growth_interval(int64_t n) { opts_.growth_interval = n; }

  // nullopt when disabled (PyTorch's empty dict).
  std::optional<GradScalerState> state_dict() const;
  // nullopt = an empty dict: RuntimeError naming a disabled source. No-op when disabled.
  void load_state_dict(const std::optional<GradScalerState>& sd);

  // ---- inspection (tests, amp bindings)
  OptState stage(const ScalerOptimizer& opt) const;
  const rt::Tensor& scale_tensor() const { return scale_; }   // undefined before the first scale()
  const rt::Tensor& growth_tracker_tensor() const { return growth_tracker_; }

 private:
  struct PerOptimizer {
    OptState stage = OptState::ready;
    std::vector<std::pair<rt::Device, rt::Tensor>> found_inf_per_device;
  };
  void lazy_init(rt::Device device);
  void check_initialized(const char* funcname) const;
  PerOptimizer& state_of(const ScalerOptimizer& opt) { return per_optimizer_[opt.identity()]; }
  std::vector<std::pair<rt::Device, rt::Tensor>> unscale_grads(ScalerOptimizer& opt, const rt::Tensor& inv_scale,
                                                              bool allow_fp16);
  bool step_with_host_check(ScalerOptimizer& opt, const PerOptimizer& st);
  void step_with_amp_scaling(ScalerOptimizer& opt, PerOptimizer& st);
  rt::Tensor combined_found_inf() const;

  GradScalerOptions opts_;
  int64_t init_growth_tracker_ = 0;
  rt::Tensor scale_;           // 0-dim float32
  rt::Tensor growth_tracker_;  // 0-dim int32
  std::map<const void*, PerOptimizer> per_optimizer_;
};

}  // namespace amps::amp
