// layer_norm_backward's, batch_norm_backward's and group_norm_backward's definitions through the dispatching functions: their CUDA kernels,
// the CPU layer norm kernel where oneDNN does not take the operands, and the ops' differentiable decompositions
// (recorded op by op under create_graph).
#pragma once

#include "runtime/ivalue.hpp"

namespace amps::rt::common {

// (grad_input, grad_weight, grad_bias) of layer_norm for the op's complete, schema-ordered arguments; grad_weight
// is undefined without a weight, grad_bias unless bias_grad. The statistics are recomputed from the input.
Tensors layer_norm_backward_math(Args& args);
// (grad_input, grad_weight, grad_bias) of batch_norm (training or without running stats: the batch's statistics,
// recomputed; else the running ones, constants); grad_weight undefined without a weight, grad_bias unless bias_grad.
Tensors batch_norm_backward_math(Args& args);
// (grad_input, grad_weight, grad_bias) of group_norm; grad_weight undefined without a weight, grad_bias unless
// bias_grad.
Tensors group_norm_backward_math(Args& args);

// Every dim but 1 (the channel) of a tensor of [ndim] dims; [v] as [1, C, 1, ...] for such a tensor.
Dims all_but_channel(int64_t ndim);
Tensor per_channel(const Tensor& v, int64_t ndim);

}  // namespace amps::rt::common
