// The torch.linalg norms defined by their math (implicit composites, see implicit_composites.hpp), with PyTorch
// 1.13's dispatch between them, checks and messages: linalg_vector_norm (the norm op), linalg_matrix_norm (numeric
// ord: max/min of column or row abs sums or of the singular values; 'fro', 'nuc') and linalg_norm.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors linalg_vector_norm_math(Args& args);
Tensors linalg_matrix_norm_math(Args& args);
Tensors linalg_matrix_norm_str_ord_math(Args& args);
Tensors linalg_norm_math(Args& args);
Tensors linalg_norm_ord_str_math(Args& args);

}  // namespace amps::rt::common
