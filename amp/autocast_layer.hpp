// AutocastLayer: the dispatch layer that applies the per-device cast policies inside autocast regions.
#pragma once

#include <array>
#include <functional>
#include <memory>

#include "amp/cast_cache.hpp"
#include "amp/policy.hpp"
#include "amp/provenance.hpp"
#include "runtime/dispatch.hpp"

namespace amps::amp {

// Autocast state of one device type (PyTorch's per-device enabled flag and autocast dtype).
struct DeviceAutocast {
  bool enabled = false;
  rt::DType dtype = rt::DType::bfloat16;  // the region's lower-precision dtype
};

// One interpreter's autocast: installed in its rt::Context at layer_order::autocast, so it sees every
// op before autograd records it. All state lives in the layer object (no globals); fork() gives a
// DataParallel worker a copy of the state that shares the cast cache and provenance log.
//
// Per op (autocast_lists.md): only ops whose tensors live on a device type with an enabled region are
// touched; in-place ops and out= calls run unchanged; the op's Policy picks the casts. Eligible tensors
// are floating, not float64, not wrapped Python numbers, on that device type. Casts dispatch the `to` op
// with this layer excluded, so autograd records them and gradients reach the float32 weights; the listed
// op itself also runs with this layer excluded (nested dispatches are not autocast again).
class AutocastLayer : public rt::DispatchLayer {
 public:
  AutocastLayer();
  std::string_view name() const override { return "autocast"; }
  rt::Tensors call(rt::OpId op, rt::Args& args, const rt::Next& next) override;
  std::shared_ptr<rt::DispatchLayer> fork(const std::shared_ptr<rt::DispatchLayer>& self) const override;

  // ---- state (torch.is_autocast_enabled / get_autocast_dtype / is_autocast_cache_enabled)
  const DeviceAutocast& state(rt::DeviceType d) const { return state_[size_t(d)]; }
  bool cache_enabled() const { return cache_enabled_; }
  int nesting() const { return nesting_; }

  // What enter() replaced; exit() puts it back.
  struct Saved {
    rt::DeviceType device;
    DeviceAutocast prev;
    bool prev_cache_enabled;
  };
  // PyTorch's autocast.__enter__: sets [d]'s flag and dtype and the cache flag, and counts the region
  // (also when [enabled] is false: a disabled region still nests).
  Saved enter(rt::DeviceType d, bool enabled, rt::DType dtype, bool cache_enabled);
  // __exit__: clears the cast cache when the outermost region (of any device type) exits; restores [s].
  void exit(const Saved& s);

  // ---- this interpreter's policies: the device tables, optionally overridden per op (user cast
  // registrations such as amp.register_float_function use this; the tables themselves never change).
  Policy policy(rt::DeviceType d, rt::OpId op) const { return policies_[size_t(d)][size_t(op)]; }
  void set_policy(rt::DeviceType d, rt::OpId op, Policy p) { policies_[size_t(d)][size_t(op)] = p; }

  // Casts [args] as policy [p] would for a listed op (cache and promote rules included) when a region
  // is enabled for their device type, else leaves them; for functions outside the op table: host
  // functions registered with a cast rule (amps.h amps_cast_rule) and amp's half/float/promote_function.
  void cast_for_policy(rt::Args& args, Policy p);

  // ---- cast cache (torch.clear_autocast_cache)
  size_t cache_size() const { return cache_->size(); }
  void clear_cache() { cache_->clear(); }

  // ---- tracing and provenance
  using TraceFn = std::function<void(const CastDecision&)>;
  // Reports every decision inside enabled regions to [fn] (empty: off).
  void set_trace(TraceFn fn) { trace_ = std::move(fn); }
  // [fn] names the current source position as a token the host can format (decision.site).
  void set_site_provider(std::function<uint64_t()> fn) { site_ = std::move(fn); }
  // The decision that produced [t], when an autocast region made it.
  std::optional<CastDecision> provenance(const rt::Tensor& t) const { return provenance_->find(t); }

 private:
  rt::Tensors run_listed(rt::OpId op, rt::Args& args, const rt::Next& next, rt::DeviceType dev, Policy p);
  void cast_args(rt::Args& args, rt::DeviceType dev, rt::DType dtype);
  rt::Tensor cached_cast(const rt::Tensor& t, rt::DeviceType dev, rt::DType dtype);
  rt::Tensor cast(const rt::Tensor& t, rt::DType dtype, bool force_grad);
  rt::DType promote_type(const rt::Args& args, rt::DeviceType dev) const;
  void set_fp32_dtype(rt::OpId op, rt::Args& args, rt::DeviceType dev) const;
  CastDecision decide(rt::OpId op, const rt::Args& args, rt::DeviceType dev) const;
  void finish(CastDecision& d, const rt::Args& args, const rt::Tensors& out);
  void refresh_any_enabled();

  std::array<DeviceAutocast, rt::device_type_count> state_;
  std::array<std::array<Policy, rt::op_count>, rt::device_type_count> policies_;
  bool cache_enabled_ = true;
  bool any_enabled_ = false;  // fast path: no region enabled, every op passes straight through
  int nesting_ = 0;           // regions of all device types, as PyTorch's autocast nesting counter
  std::shared_ptr<CastCache> cache_;
  std::shared_ptr<ProvenanceLog> provenance_;
  TraceFn trace_;
  std::function<uint64_t()> site_;
};

// Whether [t] is autocast-eligible for device type [dev] (autocast_lists.md §2.1; cuda also takes xla
// tensors, as PyTorch's is_autocast_eligible does).
bool is_eligible(const rt::Tensor& t, rt::DeviceType dev);

// A region for the guard's lifetime: enter() in the constructor, exit() in the destructor.
class AutocastGuard {
 public:
  AutocastGuard(std::shared_ptr<AutocastLayer> layer, rt::DeviceType d, bool enabled, rt::DType dtype,
                bool cache_enabled)
      : layer_(std::move(layer)), saved_(layer_->enter(d, enabled, dtype, cache_enabled)) {}
  ~AutocastGuard() { layer_->exit(saved_); }
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  std::shared_ptr<AutocastLayer> layer_;
  AutocastLayer::Saved saved_;
};

// The AutocastLayer of [ctx], installed at layer_order::autocast first when it has none.
std::shared_ptr<AutocastLayer> install_autocast(rt::Context& ctx);

}  // namespace amps::amp
