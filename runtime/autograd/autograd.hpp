// Public autograd API: installing the recording layer, backward(), grad(), hooks, custom functions.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "runtime/context.hpp"
#include "runtime/ivalue.hpp"

namespace amps::rt::autograd {

// Adds the AutogradLayer to [ctx] at layer_order::autograd (once; later calls do nothing). Without it
// a context records no graph.
void install(Context& ctx);

// torch.autograd.backward: accumulates d(tensors)/d(leaf) into the .grad of every leaf (or only of
// [inputs] when given). [grad_tensors] default to ones for scalar outputs (RuntimeError otherwise).
// retain_graph defaults to create_graph; create_graph records the backward itself for higher order.
void backward(const Tensors& tensors, const Tensors& grad_tensors = {}, std::optional<bool> retain_graph = {},
              bool create_graph = false, const Tensors& inputs = {});

// torch.autograd.grad: the gradients of [outputs] with respect to [inputs], without touching .grad.
// Unreachable inputs give undefined tensors with allow_unused, else a RuntimeError.
Tensors grad(const Tensors& outputs, const Tensors& inputs, const Tensors& grad_outputs = {},
             std::optional<bool> retain_graph = {}, bool create_graph = false, bool allow_unused = false);

// Makes a non-leaf keep its .grad after backward (no-op for leaves, error without requires_grad).
void retain_grad(const Tensor& t);
// Runs [hook] on t's gradient before it is used; a defined result replaces the gradient.
void register_hook(const Tensor& t, std::function<Tensor(const Tensor&)> hook);
// The name of t's grad_fn ("MmBackward0"), empty for leaves.
std::string grad_fn_name(const Tensor& t);
// Gives the node behind [result], made from [input] by a composite above the runtime (the interpreter's
// indexing, unbind), PyTorch's name for that composite; [name] must be static ("IndexBackward0"). Nothing
// happens when [result] has no node of its own.
void name_result_node(const Tensor& result, const Tensor& input, std::string_view name);

// Custom functions: makes [outputs] (computed by the caller without recording) the outputs of a node
// named [name] whose inputs are [inputs]; [backward] maps output gradients (undefined = zero) to one
// gradient per input. Outputs that are inputs are replaced by aliases. Returns the outputs with history
// (unchanged when grad mode is off or no input requires grad).
using CustomBackward = std::function<Tensors(const Tensors& grads)>;
Tensors record_function(const std::string& name, const Tensors& inputs, Tensors outputs, CustomBackward backward);

}  // namespace amps::rt::autograd
