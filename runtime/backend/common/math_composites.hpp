// Elementwise math defined by formulas, as implicit composites (see implicit_composites.hpp): logaddexp,
// logaddexp2, hypot, sinc, deg2rad, rad2deg, xlogy, logit, heaviside, float_power, mvlgamma, torch.special's entr,
// ndtr, ndtri and xlog1py, and the shrink/threshold
// activations hardshrink, softshrink and threshold. Where a formula has a singular point (sinc at 0, xlogy at
// x = 0, equal infinities in logaddexp) the other branch reads a safe stand-in, so its gradient stays finite.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors logaddexp_math(Args& args);
Tensors logaddexp2_math(Args& args);
Tensors hypot_math(Args& args);
Tensors sinc_math(Args& args);
Tensors deg2rad_math(Args& args);
Tensors rad2deg_math(Args& args);
Tensors xlogy_math(Args& args);
Tensors logit_math(Args& args);
Tensors heaviside_math(Args& args);
Tensors float_power_math(Args& args);
Tensors mvlgamma_math(Args& args);
Tensors special_entr_math(Args& args);
Tensors special_ndtr_math(Args& args);
Tensors special_ndtri_math(Args& args);
Tensors special_xlog1py_math(Args& args);
Tensors hardshrink_math(Args& args);
Tensors softshrink_math(Args& args);
Tensors threshold_math(Args& args);

}  // namespace amps::rt::common
