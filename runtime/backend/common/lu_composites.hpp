// The LU family's implicit composites over the linalg_lu_factor_ex kernel, with PyTorch 1.13's checks and messages:
// linalg_lu_factor (its error on a zero pivot), linalg_lu and lu_unpack (P, L, U from the packed factors),
// linalg_lu_solve and lu_solve (a row permutation and two triangular solves), torch.lu's _lu_with_info, and
// matrix_exp (linalg_matrix_exp). Their gradients follow from the parts' (lu_factor_ex's rule, tril/triu, gather,
// linalg_solve_triangular's rule), which are PyTorch's linalg_lu and lu_solve gradients.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors linalg_lu_factor_math(Args& args);
Tensors linalg_lu_math(Args& args);
Tensors lu_unpack_math(Args& args);
Tensors linalg_lu_solve_math(Args& args);
Tensors lu_solve_math(Args& args);
Tensors lu_with_info_math(Args& args);
Tensors matrix_exp_math(Args& args);

}  // namespace amps::rt::common
