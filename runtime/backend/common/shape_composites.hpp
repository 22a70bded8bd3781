// Shape, indexing and statistics ops defined by their math (implicit composites, see implicit_composites.hpp):
// the stacking family (hstack, vstack/row_stack, dstack, column_stack), atleast_1d/2d/3d, broadcast_to and
// broadcast_tensors, rot90, fliplr, flipud, kron, block_diag and cartesian_prod (shape_composites.cpp); take,
// take_along_dim, index_fill(_), diag_embed, tril/triu_indices and unfold's gradient (index_composites.cpp); diff,
// logcumsumexp, var_mean, std_mean, cov, corrcoef, bucketize and isin (scan_composites.cpp). cummax, cummin and
// searchsorted are CPU kernels (runtime/backend/cpu/scan_kernels.cpp) that devices run through the host fallback.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// PyTorch's ScalarType spelling of [t] ("Long", "Float"), which its dtype messages print.
std::string_view torch_type_name(DType t);
// [sizes] as PyTorch prints a shape in some messages: "[2, 3]".
std::string list_shape(const Dims& sizes);
// The broadcast of shapes [a] and [b], with PyTorch's infer_size error ("The size of tensor a (2) must match ...").
Dims infer_size(const Dims& a, const Dims& b);

// Each takes the op's complete, schema-ordered arguments.
template <int64_t N> Tensors atleast_math(Args& args);
Tensors hstack_math(Args& args);
Tensors vstack_math(Args& args);
Tensors row_stack_math(Args& args);
Tensors dstack_math(Args& args);
Tensors column_stack_math(Args& args);
Tensors broadcast_to_math(Args& args);
Tensors broadcast_tensors_math(Args& args);
Tensors rot90_math(Args& args);
Tensors fliplr_math(Args& args);
Tensors flipud_math(Args& args);
Tensors kron_math(Args& args);
Tensors block_diag_math(Args& args);
Tensors cartesian_prod_math(Args& args);

Tensors take_math(Args& args);
Tensors take_along_dim_math(Args& args);
Tensors index_fill_math(Args& args);
Tensors index_fill__math(Args& args);
Tensors diag_embed_math(Args& args);
Tensors tril_indices_math(Args& args);
Tensors triu_indices_math(Args& args);
Tensors unfold_backward_math(Args& args);

Tensors diff_math(Args& args);
Tensors logcumsumexp_math(Args& args);
template <bool Std> Tensors var_mean_math(Args& args);
Tensors cov_math(Args& args);
Tensors corrcoef_math(Args& args);
Tensors bucketize_math(Args& args);
Tensors isin_math(Args& args);

}  // namespace amps::rt::common
