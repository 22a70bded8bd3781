// PyTorch's grad_fn names ("MmBackward0", "SumBackward1"): what `t.grad_fn` shows for the node behind a result.
#pragma once

#include <string_view>

#include "runtime/ivalue.hpp"
#include "runtime/op.hpp"

namespace amps::rt::autograd {

// The name of the node that kernel [op] records for a call with [args] giving [outs]: PyTorch 1.13's name for
// the same call (by overload and, for reshape/matmul/linear, by how PyTorch computes it), else derived from the
// op's name as PyTorch derives its own ("log1p" -> "Log1PBackward0").
std::string_view recorded_node_name(OpId op, const Args& args, const Tensors& outs);

// The name that the node behind implicit composite [op]'s result takes, or empty where PyTorch shows the inner
// op's node as amps does.
std::string_view composite_node_name(OpId op, const Args& args);

}  // namespace amps::rt::autograd
