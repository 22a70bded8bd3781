// Activations defined by their math (implicit composites, see implicit_composites.hpp): elu, selu, celu, hardtanh,
// relu6, hardsigmoid, hardswish, mish, logsigmoid, softsign, and normalize (F.normalize). Each is written with the
// dispatching functions so one definition is every backend's kernel and the op's differentiable decomposition;
// where PyTorch's gradient at a kink is a convention (hardtanh's 0 at its bounds, hardswish's -0.5 at -3), the
// branches are laid out so the decomposition's gradient is the same.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors elu_math(Args& args);
Tensors selu_math(Args& args);
Tensors celu_math(Args& args);
Tensors hardtanh_math(Args& args);
Tensors relu6_math(Args& args);
Tensors hardsigmoid_math(Args& args);
Tensors hardswish_math(Args& args);
Tensors mish_math(Args& args);
Tensors logsigmoid_math(Args& args);
Tensors softsign_math(Args& args);
Tensors normalize_math(Args& args);

}  // namespace amps::rt::common
