// 3-D pooling as implicit composites of the 2-D ops (see implicit_composites.hpp): a box window is separable, so
// [N, C, D, H, W] is pooled over (H, W) per depth slice, then over D with a [kd, 1] window on [N, C, D, OH*OW].
// The max of a box is the max over depth of the slices' maxima, and the first maximum in PyTorch's (d, h, w) scan
// order is what the two first-maximum scans pick; an average's divisor is the product of its per-axis counts
// (count_include_pad either way), so the two averages multiply out to the 3-D one.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors max_pool3d_math(Args& args);
Tensors max_pool3d_with_indices_math(Args& args);
Tensors avg_pool3d_math(Args& args);
Tensors adaptive_avg_pool3d_math(Args& args);

}  // namespace amps::rt::common
