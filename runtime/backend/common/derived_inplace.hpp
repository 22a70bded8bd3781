// In-place forms derived from their out-of-place op, as PyTorch's structured in-place kernels: X_(input, ...)
// computes X(input, ...) and writes the result into input under PyTorch's in-place rules (the result type must be
// castable to input's dtype, and only the other operands broadcast). One kernel serves every op listed in
// derived_inplace.cpp, on every backend (the out-of-place op picks its device's kernel).
#pragma once

#include <optional>

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// The out-of-place op whose gradient rule in-place op [op] shares (X for X_); nullopt for other ops and for the
// in-place ops with rules of their own (copy_, zero_, fill_ and the random fills: they overwrite their input).
std::optional<OpId> inplace_base(OpId op);

// Fails with PyTorch's message unless [result] of in-place op [op] can be written into [self]: float results
// into integer or bool tensors, and non-bool results into bool tensors, are refused; the result's shape must be
// self's (self itself does not broadcast); float_power_ needs a float64 self.
void check_inplace_result(OpId op, const Tensor& self, const Tensor& result);

// The in-place op X_ while recording gradients when X is defined by its math (an implicit composite): X on a
// recorded clone of input (the saved tensors of X's steps keep input's old value), then copy_ into input, so
// the graph is X's steps followed by copy_'s rule.
Tensors decompose_inplace(OpId op, OpId base, Args& args);

// Registers the derived kernel for each derived in-place op in [t] (the CPU and CUDA tables alike).
void register_derived_inplace_kernels(cpu::KernelTable& t);

}  // namespace amps::rt::common
