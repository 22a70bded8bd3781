// The backward graph: GradNode (one per recorded op, AccumulateGrad per leaf), edges and saved tensors.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/autograd_meta.hpp"
#include "runtime/ivalue.hpp"

namespace amps::rt::autograd {

class GradNode;

// Where a gradient goes: input [nr] of node [fn] (null fn: the input needs no gradient).
struct Edge {
  std::shared_ptr<GradNode> fn;
  uint32_t nr = 0;
  bool valid() const { return fn != nullptr; }
};

// Shape, dtype and device of a forward input (the engine reduces and casts gradients to it) or output
// (the engine fills missing output gradients with zeros of it).
struct TensorMeta {
  Dims sizes;
  DType dtype = DType::float32;
  Device device = Device::cpu();
  bool defined = false;  // false for the slot of an undefined (None) tensor
  static TensorMeta of(const Tensor& t) { return {t.sizes(), t.dtype(), t.device(), true}; }
};

// Appends the meta of [t] (undefined: a default one) to [metas], built in place: one Dims copy, no move.
inline void push_meta(PoolVector<TensorMeta>& metas, const Tensor& t) {
  if (t.defined()) metas.emplace_back(t.sizes(), t.dtype(), t.device(), true);
  else metas.emplace_back();
}

using GradHook = std::function<Tensor(const Tensor&)>;

// A node of the backward graph. Gradient slot i of apply()'s result goes along next[i]; input k of
// apply() is the gradient of the forward's output k. Nodes created later have larger seq, so the engine
// runs them first among ready nodes (PyTorch's order).
class GradNode : public Node {
 public:
  GradNode();
  PoolVector<Edge> next;             // pooled, like the node: every recorded op fills these
  PoolVector<TensorMeta> in_meta;    // one per slot of next
  PoolVector<TensorMeta> out_meta;   // one per forward output
  uint64_t seq;
  // Per forward output: register_hook()s of non-leaf tensors, and tensors that retain_grad().
  std::vector<std::vector<GradHook>> pre_hooks;
  std::vector<std::weak_ptr<TensorImpl>> retained;
  // Where the forward op ran, recorded in anomaly mode only (anomaly.hpp); null otherwise.
  std::unique_ptr<std::string> forward_site;

  // Gradients for the slots from the output gradients [grads] (undefined = zero); [needs][i] says
  // whether slot i's gradient is wanted (others may stay undefined).
  virtual Tensors apply(Tensors& grads, const std::vector<bool>& needs) = 0;
  // Frees saved tensors (backward without retain_graph); a later apply() needing them throws.
  virtual void release() {}
};

// A tensor saved for backward with its version at save time. An output of the saving node is kept
// without its autograd slot (no node -> tensor -> node cycle) and gets it back on unpack, from a weak
// reference to that node (so nodes need no enable_shared_from_this, whose weak count every recorded
// op would pay for in locked instructions).
class SavedTensor {
 public:
  SavedTensor() = default;
  // An input of the saving node.
  SavedTensor(const Tensor& t, bool is_output);
  // Output [output_nr] of [owner], the saving node.
  static SavedTensor output(const Tensor& t, uint32_t output_nr, const std::shared_ptr<GradNode>& owner);
  // The saved tensor; RuntimeError when it was freed or modified in place since it was saved.
  Tensor unpack(GradNode& owner) const;
  void release();
  bool defined() const { return data_.defined() || released_; }

 private:
  Tensor data_;
  uint32_t version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool released_ = false;
  std::string producer_;  // "which is output 0 of TanhBackward0", for the version error
  std::weak_ptr<GradNode> owner_;  // outputs: the saving node
};

// Accumulates into a leaf's .grad (runs the leaf's hooks first).
class AccumulateGrad final : public GradNode {
 public:
  explicit AccumulateGrad(Tensor variable);
  std::string_view name() const override { return "AccumulateGrad"; }
  Tensors apply(Tensors& grads, const std::vector<bool>& needs) override;
  Tensor variable;
};

// A node whose backward is a callback (custom autograd functions from scripts or C++).
class FunctionNode final : public GradNode {
 public:
  using Backward = std::function<Tensors(const Tensors& grads)>;
  FunctionNode(std::string name, Backward fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view name() const override { return name_; }
  Tensors apply(Tensors& grads, const std::vector<bool>& needs) override;
  void release() override { released_ = true; }

 private:
  std::string name_;
  Backward fn_;
  bool released_ = false;
};

// The edge a gradient for [t] flows along: its grad_fn, or its leaf accumulator (made on demand) when
// it requires grad, else an invalid edge.
Edge gradient_edge(const Tensor& t);
// Makes [node] the history of output [nr] tensor [t] (sets grad_fn/output_nr; keeps retain_grad).
void set_history(const Tensor& t, std::shared_ptr<GradNode> node, uint32_t nr);
// Appends the edges and metas of [inputs] to [node]'s next/in_meta, which are empty (a new node);
// null or undefined tensors get invalid edges.
void connect_inputs(GradNode& node, std::span<const Tensor* const> inputs);
// "[torch.FloatTensor [2, 3]]": PyTorch's description of a tensor in autograd errors.
std::string describe(const Tensor& t);
// True while a backward with create_graph runs on this thread (AccumulateGrad keeps the graph then).
bool in_create_graph();
// True while a backward pass (backward() or grad()) runs on this thread: its ops compute gradients.
bool in_backward();

}  // namespace amps::rt::autograd
