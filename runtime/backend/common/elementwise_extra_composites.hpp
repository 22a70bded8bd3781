// Elementwise ops PyTorch composes of others, defined by their math here (implicit composites: one definition is
// the kernel of every backend and, recorded op by op, the gradient): fmax/fmin (NaN-ignoring extrema), copysign,
// ldexp, isneginf/isposinf/isreal, positive, rsub, logical_xor, clamp_min/clamp_max, fill, round(decimals=) and
// the method x.polygamma(n).
#pragma once

#include "runtime/ivalue.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors fmax_math(Args& args);
Tensors fmin_math(Args& args);
Tensors copysign_math(Args& args);
Tensors ldexp_math(Args& args);
Tensors isneginf_math(Args& args);
Tensors isposinf_math(Args& args);
Tensors isreal_math(Args& args);
Tensors positive_math(Args& args);
Tensors rsub_math(Args& args);
Tensors logical_xor_math(Args& args);
Tensors clamp_min_math(Args& args);
Tensors clamp_max_math(Args& args);
Tensors fill_math(Args& args);
Tensors round_decimals_math(Args& args);
Tensors polygamma_method_math(Args& args);

}  // namespace amps::rt::common
