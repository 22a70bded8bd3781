// AutogradMeta: the per-tensor slot the reverse-mode engine (runtime/autograd/) fills in.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/small_pool.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {

// Base of every node in the backward graph. The engine derives its nodes (backward rules, AccumulateGrad)
// from it; the runtime only needs the name for printing `grad_fn=<AddBackward0>`.
struct Node {
  virtual ~Node() = default;
  virtual std::string_view name() const = 0;
};

// Autograd state of one tensor. Absent (null) on tensors autograd never touched, so plain inference
// tensors pay nothing. Contract for the engine:
//  - leaves: grad_fn == null; requires_grad marks parameters; grad accumulates there.
//  - non-leaves: grad_fn is the node that produced the tensor, output_nr which of its outputs it is;
//    requires_grad is then implied by grad_fn != null.
//  - saved tensors record Tensor::version() when saved; a later mismatch is the "modified by an inplace
//    operation" error.
//  - grad_fn may reference graphs that themselves require grad (create_graph=True), so higher-order
//    gradients need no extra state here.
struct AutogradMeta {
  bool requires_grad = false;
  bool retains_grad = false;
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  // The leaf's cached accumulator node, weak so a leaf does not keep its graph alive.
  std::weak_ptr<Node> grad_accumulator;
  // Set on views of tensors that require grad: the tensor this one views (for in-place on views).
  Tensor view_base;
  // The storage version when this view's history was last set: a later in-place change of the base (or of
  // another view of it) makes the history stale, and refresh_view_history rebuilds it from the base's.
  uint32_t view_version = 0;
  // Gradient hooks registered with register_hook, run in order before accumulation.
  std::vector<std::function<Tensor(const Tensor&)>> hooks;

  // Every recorded op's outputs get one: pooled per thread rather than malloc'd.
  static void* operator new(size_t n) { return pool_alloc(n); }
  static void operator delete(void* p, size_t n) { pool_free(p, n); }
};

}  // namespace amps::rt
