// layer_norm_backward's definition through the dispatching functions: the CUDA kernel, the CPU kernel where oneDNN
// does not take the operands, and the op's differentiable decomposition (recorded op by op under create_graph).
#pragma once

#include "runtime/ivalue.hpp"

namespace amps::rt::common {

// (grad_input, grad_weight, grad_bias) of layer_norm for the op's complete, schema-ordered arguments; grad_weight
// is undefined without a weight, grad_bias unless bias_grad. The statistics are recomputed from the input.
Tensors layer_norm_backward_math(Args& args);

}  // namespace amps::rt::common
