// In-place ops on views of tensors: rebasing the base's history (PyTorch's CopySlices).
#pragma once

#include "runtime/autograd/node.hpp"

namespace amps::rt::autograd {

// Whether [self] is a view whose base autograd tracks (in-place ops on it must rebase the base).
bool is_view_inplace(const Tensor& self);
// After the in-place op recorded as [fn] changed [view]: the base gets a CopySlices history that
// routes the view region through [fn]; the view becomes an as_strided view of that history.
void rebase_view(const Tensor& view, const std::shared_ptr<GradNode>& fn);
// Records that [view]'s history is current for its storage version (after the view op recorded it).
void mark_view_history(const Tensor& view);
// When [view]'s base (or another view of it) was changed in place since the view's history was set, the view
// gets an as_strided view of the base's current history, as PyTorch regenerates a view's grad_fn: its gradient
// then flows through the in-place op. Row-major bases only (as rebase_view); cheap when nothing changed.
void refresh_view_history(const Tensor& view);

}  // namespace amps::rt::autograd
