// Context layer bookkeeping, the thread-local current-context pointer and the RAII guards.
#include "runtime/context.hpp"

#include <algorithm>

#include "runtime/dispatch.hpp"

namespace amps::rt {

namespace detail {
thread_local constinit Context* t_current = nullptr;

Context& thread_default_context() {
  thread_local Context ctx;
  return ctx;
}
}  // namespace detail

namespace {

using detail::t_current;

Context::LayerEntry* find_entry(Context& ctx, const DispatchLayer* layer) {
  for (Context::LayerEntry& e : ctx.layers())
    if (e.layer.get() == layer) return &e;
  return nullptr;
}

}  // namespace

Context::Context() = default;
Context::~Context() = default;

void Context::add_layer(std::shared_ptr<DispatchLayer> layer, int order) {
  auto pos = std::upper_bound(layers_.begin(), layers_.end(), order,
                              [](int o, const LayerEntry& e) { return o < e.order; });
  layers_.insert(pos, LayerEntry{std::move(layer), order, true});
}

void Context::remove_layer(const DispatchLayer* layer) {
  for (LayerEntry& e : layers_)
    if (e.layer.get() == layer) retired_layers_.push_back(e.layer);
  std::erase_if(layers_, [&](const LayerEntry& e) { return e.layer.get() == layer; });
}

ContextGuard::ContextGuard(Context& ctx) : prev_(t_current) { t_current = &ctx; }
ContextGuard::~ContextGuard() { t_current = prev_; }

GradModeGuard::GradModeGuard(bool enabled) : ctx_(current_context()), prev_(ctx_.grad_enabled()) {
  ctx_.set_grad_enabled(enabled);
}
GradModeGuard::~GradModeGuard() { ctx_.set_grad_enabled(prev_); }

ExcludeLayerGuard::ExcludeLayerGuard(const DispatchLayer* layer) : ctx_(current_context()), layer_(layer) {
  if (Context::LayerEntry* e = find_entry(ctx_, layer_)) {
    prev_ = e->enabled;
    e->enabled = false;
  }
}

ExcludeLayerGuard::~ExcludeLayerGuard() {
  if (Context::LayerEntry* e = find_entry(ctx_, layer_)) e->enabled = prev_;
}

}  // namespace amps::rt
