// Kernels that run an op's CPU kernel on the host, for device backends without a kernel of their own: the
// linear-algebra decompositions and solves (cholesky, inverse, qr, svd, linalg_det/slogdet/solve/solve_triangular/
// eigh/lu_factor_ex, linalg_matrix_exp) on CUDA, whose results and errors (a matrix that is not positive-definite,
// a singular one) are then exactly the CPU's, and the factories whose values come from the host (arange, the random
// ones: a seed gives the same numbers on every device). Tensor arguments are copied to the host, the results to the device the op runs on; a
// call that copied a device tensor down counts a host sync (Context::count_host_sync): PyTorch's CUDA linalg
// synchronizes too, to check the factorization's info.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// [op]'s CPU kernel on [args] with every tensor copied to the host; each result moved to [kc].device, keeping
// requires_grad (a factory's requires_grad=True).
Tensors run_on_host(OpId op, const Args& args, const KernelContext& kc);
// run_on_host as a kernel: registered for any op (ArgReader::op() says which).
Tensors k_on_host(const ArgReader& a, const KernelContext& kc);

// The linalg ops registered by register_host_fallback_kernels, every float dtype.
inline constexpr OpId kHostFallbackOps[] = {OpId::cholesky, OpId::inverse, OpId::qr, OpId::svd, OpId::linalg_det,
                                           OpId::linalg_slogdet, OpId::linalg_solve, OpId::linalg_solve_triangular,
                                           OpId::linalg_eigh, OpId::linalg_lu_factor_ex, OpId::linalg_matrix_exp,
                                           OpId::poisson, OpId::binomial};

// The ops without a device kernel whose CPU kernel serves every dtype: the running extremes, the binary search and
// the grid samplers (which raise PyTorch's not-implemented errors for integer inputs themselves).
inline constexpr OpId kHostFallbackAnyDTypeOps[] = {OpId::cummax, OpId::cummin, OpId::searchsorted,
                                                   OpId::grid_sampler_2d, OpId::grid_sampler_3d,
                                                   OpId::grid_sampler_2d_backward, OpId::grid_sampler_3d_backward,
                                                   OpId::scatter_reduce};

// Registers k_on_host for kHostFallbackOps and kHostFallbackAnyDTypeOps in [t] (a device backend's table). On CPU
// tensors it reduces to the CPU kernel itself, which is how the tests check the argument and result plumbing
// without a device.
void register_host_fallback_kernels(cpu::KernelTable& t);

}  // namespace amps::rt::common
