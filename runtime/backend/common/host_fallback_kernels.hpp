// Kernels that run an op's CPU kernel on host copies of its tensors, for backends with no native kernel of
// their own: the linear-algebra decompositions (cholesky, inverse, qr, svd) on CUDA. Their results and
// errors (a matrix that is not positive-definite, a singular one) are exactly the CPU's. Each call copies
// its inputs to the host and the results back, and counts a host sync (Context::count_host_sync): PyTorch's
// CUDA linalg synchronizes too, to check the factorization's info.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// The ops registered by register_host_fallback_kernels, every float dtype.
inline constexpr OpId kHostFallbackOps[] = {OpId::cholesky, OpId::inverse, OpId::qr, OpId::svd};

// Registers the host-fallback kernels in [t] (a device backend's table). On CPU tensors they reduce to the CPU
// kernel itself, which is how the tests check the argument and result plumbing without a device.
void register_host_fallback_kernels(cpu::KernelTable& t);

}  // namespace amps::rt::common
