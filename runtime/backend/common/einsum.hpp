// einsum(equation, tensors): PyTorch's Einstein summation, as an implicit composite (implicit_composites.hpp):
// labels summed out of one operand are summed first, then operands are contracted left to right, each pair as one
// batched matrix product (bmm over the shared kept labels) of permuted, reshaped views. Size-1 dims broadcast
// against a label's size; `...` stands for the same leading broadcast dims in every operand. A label repeated
// within one operand (a diagonal) is refused.
#pragma once

#include "runtime/ivalue.hpp"

namespace amps::rt::common {

Tensors einsum_math(Args& args);

}  // namespace amps::rt::common
