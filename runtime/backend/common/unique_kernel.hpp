// _unique2 (torch.unique's op), registered on every backend: the values are read on the host (a sync on a device,
// as PyTorch's unique), ordered there, and the three results moved back to the input's device.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

void register_unique_kernel(cpu::KernelTable& t);

}  // namespace amps::rt::common
