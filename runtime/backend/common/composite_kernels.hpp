// Kernels composed of other ops of the same backend, for backends without a native kernel of their own (CUDA):
// slice/select_backward, norm, logsumexp, all, any, the pointwise losses (mse, l1, smooth_l1, binary_cross_entropy
// and its logits form), prelu, cosine_similarity, cosine_embedding_loss, group_norm, trace, index_copy(_), cdist;
// and isclose, diagonal_backward, nonzero/argwhere and _unique2 (unique_kernel.hpp), composed on every backend.
// Each runs its steps through dispatch_backend (below the autograd and autocast layers), with the CPU kernel's
// checks, messages and result dtypes; the arithmetic is done in the input's dtype (float for half types) as
// PyTorch's CUDA kernels do, where the CPU kernels use double. No step reads a device value on the host but
// nonzero's and _unique2's (their results' shapes are the values').
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Registers the composite kernels in [t] (a backend's table); tests call them on CPU tensors through their own
// table and compare with the CPU backend's native kernels.
void register_composite_kernels(cpu::KernelTable& t);
// Registers the ops that are composite on every backend (isclose, and the implicit composites of
// implicit_composites.hpp), for the CPU and CUDA tables alike.
void register_portable_kernels(cpu::KernelTable& t);

}  // namespace amps::rt::common
