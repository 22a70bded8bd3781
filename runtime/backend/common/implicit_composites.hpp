// Ops defined by their math, as PyTorch's CompositeImplicitAutograd ops: scaled_dot_product_attention (its math
// backend), kl_div, huber_loss, roll and repeat_interleave. Each is written with the dispatching functions, so the one definition serves
// as the kernel of every backend (run below the autograd layer: nothing is recorded) and as the op's
// differentiable decomposition (runtime/autograd/rules.cpp: recorded op by op, so gradients of any order follow).
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors sdpa_math(Args& args);
Tensors kl_div_math(Args& args);
Tensors huber_loss_math(Args& args);
Tensors roll_math(Args& args);
Tensors repeat_interleave_math(Args& args);

// An implicit composite [Math] as a backend kernel: it runs on the op's complete arguments (below the autograd
// layer, so nothing is recorded).
template <Tensors (*Math)(Args&)> Tensors composite_kernel(const ArgReader& a, const KernelContext&) {
  Args args = a.args();
  return Math(args);
}

// Registers the three (and einsum, einsum.hpp) as kernels in [t] (the CPU and CUDA tables alike).
void register_implicit_composites(cpu::KernelTable& t);

}  // namespace amps::rt::common
