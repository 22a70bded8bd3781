// Linear-algebra ops defined by their math (implicit composites, see implicit_composites.hpp), with PyTorch's
// checks and messages: det, logdet and slogdet over the linalg_det / linalg_slogdet kernels; linalg_qr, linalg_svd,
// linalg_svdvals and linalg_eigvalsh over qr, svd and linalg_eigh; cholesky_solve, cholesky_inverse and
// triangular_solve over linalg_solve_triangular; the pseudo-inverse family (linalg_pinv, pinverse,
// linalg_matrix_rank, linalg_lstsq) over the SVD. (The linalg norms: linalg_norm_composites.hpp.)
// Their gradients follow from the parts' (as PyTorch's CompositeImplicitAutograd ops).
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors det_math(Args& args);
Tensors logdet_math(Args& args);
Tensors slogdet_math(Args& args);
Tensors linalg_eigvalsh_math(Args& args);
Tensors linalg_qr_math(Args& args);
Tensors linalg_svd_math(Args& args);
Tensors linalg_svdvals_math(Args& args);
Tensors cholesky_solve_math(Args& args);
Tensors cholesky_inverse_math(Args& args);
Tensors triangular_solve_math(Args& args);
Tensors linalg_pinv_math(Args& args);
Tensors pinverse_math(Args& args);
Tensors linalg_matrix_rank_math(Args& args);
Tensors linalg_lstsq_math(Args& args);

}  // namespace amps::rt::common
