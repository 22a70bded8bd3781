// Order statistics and histograms defined by their math (implicit composites, see implicit_composites.hpp):
// quantile and nanquantile (PyTorch's five interpolations; quantile is on PyTorch's fp32 autocast list for the CPU),
// bincount and histc. bincount and histc read their input's extremes on the host to size the output, as PyTorch's.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors quantile_math(Args& args);
Tensors nanquantile_math(Args& args);
Tensors bincount_math(Args& args);
Tensors histc_math(Args& args);

}  // namespace amps::rt::common
