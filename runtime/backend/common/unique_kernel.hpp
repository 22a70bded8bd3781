// _unique2, unique_dim and unique_consecutive (torch.unique's and torch.unique_consecutive's ops), registered on every
// backend: the values are read on the host (a sync on a device, as PyTorch's unique) and grouped there; the results
// live on the input's device.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

void register_unique_kernel(cpu::KernelTable& t);

}  // namespace amps::rt::common
