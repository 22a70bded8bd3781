// Gradient rules of the factorization and solve kernels (linalg_rules.cpp), added to rules.cpp's table.
#pragma once

#include <array>

#include "runtime/autograd/rules.hpp"

namespace amps::rt::autograd {

// Sets the rules of cholesky, inverse, qr and svd in [t].
void add_factorization_rules(std::array<Rule, size_t(op_count)>& t);
// Sets the rules of linalg_det, linalg_slogdet, linalg_solve, linalg_solve_triangular, linalg_eigh,
// linalg_lu_factor_ex and linalg_matrix_exp in [t].
void add_linalg_solve_rules(std::array<Rule, size_t(op_count)>& t);

}  // namespace amps::rt::autograd
