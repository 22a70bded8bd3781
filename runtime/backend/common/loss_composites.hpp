// The losses of torch.nn that PyTorch composes from other ops, as implicit composites (see implicit_composites.hpp):
// margin_ranking_loss, hinge_embedding_loss, soft_margin_loss, triplet_margin_loss, poisson_nll_loss and
// multi_margin_loss, with PyTorch's formulas, arguments and reductions. All are on PyTorch's fp32 autocast lists.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors margin_ranking_loss_math(Args& args);
Tensors hinge_embedding_loss_math(Args& args);
Tensors soft_margin_loss_math(Args& args);
Tensors triplet_margin_loss_math(Args& args);
Tensors poisson_nll_loss_math(Args& args);
Tensors multi_margin_loss_math(Args& args);

}  // namespace amps::rt::common
