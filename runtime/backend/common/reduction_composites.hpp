// Reductions defined by their math (implicit composites, see implicit_composites.hpp): nansum, nanmean,
// count_nonzero, aminmax, median (all elements and along a dim) and kthvalue, with PyTorch's results, NaN rules and
// gradients (median of all elements spreads its gradient evenly over the elements equal to it; along a dim, and for
// kthvalue, the gradient goes to the returned index).
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors nansum_math(Args& args);
Tensors nanmean_math(Args& args);
Tensors count_nonzero_math(Args& args);
Tensors aminmax_math(Args& args);
Tensors median_math(Args& args);
Tensors median_dim_math(Args& args);
Tensors kthvalue_math(Args& args);

}  // namespace amps::rt::common
