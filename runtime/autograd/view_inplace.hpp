// In-place ops on views of tensors: rebasing the base's history (PyTorch's CopySlices).
#pragma once

#include "runtime/autograd/node.hpp"

namespace amps::rt::autograd {

// Whether [self] is a view whose base autograd tracks (in-place ops on it must rebase the base).
bool is_view_inplace(const Tensor& self);
// After the in-place op recorded as [fn] changed [view]: the base gets a CopySlices history that
// routes the view region through [fn]; the view becomes an as_strided view of that history.
void rebase_view(const Tensor& view, const std::shared_ptr<GradNode>& fn);

}  // namespace amps::rt::autograd
