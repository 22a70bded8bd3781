// Script bindings of the AMP layer: `autocast` blocks, GradScaler, the `amp` module, cast tracing.
#pragma once

#include "interp/interp.hpp"

namespace amps::interp {

// Installs into [in] (called once by the Interp constructor, after the tensor builtins):
//  - the AutocastLayer in in.runtime() (amp/autocast_layer.hpp) and BlockHooks::autocast_enter for
//    `autocast DEV<dtype, enabled=, cache=> { }` (DEV a device value or a device-type string; `<>`
//    takes the device type's current autocast dtype, which is its default outside other regions), and
//    BlockHooks::autocast_prepare, the same in two steps for `autocast(...)` objects (context_manager.hpp);
//  - the AMPS_USE_BF16=1 / AMPS_USE_F16=1 whole-program precision layer (amp/precision_override.hpp),
//    read from the environment here, with a one-time warning when an autocast region is entered;
//  - with InterpConfig::trace_casts, every autocast decision printed to the err sink as
//    `FILE:LINE:COL: autocast: mm(float32, float32) -> bfloat16 [lower_precision_fp] under autocast cpu<bfloat16>`;
//  - the global GradScaler(init_scale=65536.0, growth_factor=2.0, backoff_factor=0.5,
//    growth_interval=2000, enabled=true, device=none); creating an enabled one makes it in.active_scaler;
//  - module `amp`: GradScaler, cast_policy(device_type, op), ops(device_type, policy), why(t),
//    get_autocast_dtype(device_type), is_autocast_enabled(device_type), is_autocast_cache_enabled(),
//    cast_cache_size() (entries in the weight-cast cache) and clear_autocast_cache().
//
// Optimizer protocol of scaler.step(opt, *args, **kwargs) / scaler.unscale_(opt), for any script object:
//  - parameters: `opt.param_groups` (a list of dicts whose "params" is a list of tensors) or else
//    `opt.params` (a list of tensors, or a method returning one); gradients are their `.grad`;
//  - ordinary optimizers: `opt.step(*args, **kwargs)` is called only when no gradient was inf/NaN, and
//    scaler.step returns its result (none when skipped); a closure= keyword is a RuntimeError (PyTorch);
//  - sync-free optimizers declare `supports_sync_free = true` and accept
//    `step(*args, found_inf=TENSOR, scale=TENSOR, **kwargs)`: they are always called, with the gradients
//    already unscaled, found_inf a 0-dim float32 tensor (> 0: skip on device) and scale the loss scale the
//    gradients were divided by (informational), so the scaler never reads found_inf on the host
//    (torch_xla's syncfree contract);
//  - amp-scaling optimizers declare `supports_amp_scaling = true` (PyTorch's _step_supports_amp_scaling;
//    it wins over supports_sync_free) and accept `step(*args, found_inf=TENSOR, grad_scale=TENSOR|none,
//    **kwargs)`: the scaler only checks the gradients, the optimizer divides them by grad_scale itself
//    (none: an explicit unscale_ already did) and skips on device where found_inf > 0 (stdlib
//    optim.SGD/Adam/AdamW with fused=true, and optim.syncfree.*).
void install_amp_builtins(Interp& in);

}  // namespace amps::interp
