// pad (torch.nn.functional.pad) and the padding ops it dispatches to, as PyTorch: constant_pad_nd, and
// reflection_pad{1,2,3}d / replication_pad{1,2,3}d (whose autocast policies differ: the CPU and XLA lists run
// reflection_pad1d/2d and replication_pad1d/2d/3d in float32). `pad` calls them through the full dispatcher, so
// the inner op's autocast policy applies; circular padding is composed in pad itself. Each is an implicit
// composite (implicit_composites.hpp): the kernel on every backend and the differentiable decomposition.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

Tensors pad_math(Args& args);
Tensors constant_pad_nd_math(Args& args);
// reflection_padNd / replication_padNd: [op] names which.
Tensors index_pad_math(OpId op, Args& args);
template <OpId Op> Tensors index_pad_op_math(Args& args) { return index_pad_math(Op, args); }

}  // namespace amps::rt::common
