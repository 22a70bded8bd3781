// torch.cuda's memory statistics and cache control as attributes of the `cuda` device value.
#pragma once

#include "interp/interp.hpp"
#include "runtime/device.hpp"

namespace amps::interp {

// `cuda.<name>` for torch.cuda's memory functions (memory_allocated, max_memory_allocated, memory_reserved,
// max_memory_reserved, reset_peak_memory_stats, reset_max_memory_allocated, empty_cache) on [d]'s device by
// default; undef for any other name.
Value cuda_memory_attr(Interp& in, Atom name, rt::Device d);

// torch.cuda's device queries and seeding (device_count, current_device, is_bf16_supported, manual_seed,
// manual_seed_all, seed, is_initialized): cuda_device_info.cpp. Undef for other names.
Value cuda_device_attr(Interp& in, Atom name);

}  // namespace amps::interp
