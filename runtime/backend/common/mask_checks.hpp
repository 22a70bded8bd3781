// The checks PyTorch 1.13 makes of a uint8 mask (deprecated there, read as bool) in masked_select, masked_fill and
// masked_scatter, shared by the CPU and CUDA kernels and composites.
#pragma once

#include "runtime/tensor.hpp"

namespace amps::rt::common {

// A uint8 [mask] must hold only 0 and 1 ("Mask tensor can take 0 and 1 values only"); other dtypes pass. Reads
// the mask's maximum on the host (a device sync for a cuda uint8 mask, as in PyTorch).
void check_byte_mask(const Tensor& mask);

}  // namespace amps::rt::common
