// Differentiable forms of fused ops: while recording, these replace the fused kernel with primitives
// whose rules give the gradient (the kernels still run whenever no gradient is needed).
#pragma once

#include "runtime/ivalue.hpp"

namespace amps::rt::autograd {

// Each takes the op's complete, schema-ordered arguments and returns its outputs.
Tensors decompose_dropout(Args& args);              // native_dropout, which keeps its mask
Tensors decompose_cross_entropy(Args& args);        // log_softmax + nll_loss (+ label smoothing)
Tensors decompose_cosine_similarity(Args& args);
Tensors decompose_cosine_embedding_loss(Args& args);

}  // namespace amps::rt::autograd
