// The gradient rule table's interface: what a rule sees (BackwardCtx) and what it declares (Rule).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "runtime/arg_reader.hpp"
#include "runtime/autograd/node.hpp"

namespace amps::rt::autograd {

class OpNode;

// Gradient slots: slot i is schema argument i, except for ops whose argument 0 is a tensor list (cat,
// stack), where slot i is list element i. A rule returns one gradient per slot (undefined = none);
// the engine reduces each to its input's shape (un-broadcasting) and casts it to its dtype.
class BackwardCtx {
 public:
  BackwardCtx(OpNode& node, Tensors& grads, const std::vector<bool>& needs);
  // Gradient of forward output [k]; zeros when none flowed into it.
  Tensor g(size_t k = 0) const;
  // Whether a gradient flowed into forward output [k] (rules whose formula divides by something that may be
  // zero skip the terms of outputs nothing flowed into, as PyTorch's undefined-gradient checks do).
  bool flowed(size_t k) const;
  // Saved schema argument [i] (numbers come back wrapped); only arguments the rule's `saves` names.
  Tensor in(size_t i) const;
  // Saved forward output [k]; only outputs the rule's `saves` names.
  Tensor out(size_t k = 0) const;
  // Shape/dtype/device of slot [i]'s input (always kept).
  const TensorMeta& meta(size_t i) const;
  const Dims& sizes(size_t i) const { return meta(i).sizes; }
  // Whether slot [i] held a tensor (optional arguments such as weight=None do not).
  bool has(size_t i) const;
  size_t slots() const { return needs_.size(); }
  bool needs(size_t i) const { return i < needs_.size() && needs_[i]; }
  // Non-tensor arguments, read as the kernels read them.
  const ArgReader& a;

  // One gradient per slot: the k-th callable computes slot k when needs(k); nullptr skips a slot.
  template <typename... F> Tensors grads(F&&... f) const {
    Tensors r;
    r.reserve(sizeof...(F));
    (r.push_back(call_if(r.size(), f)), ...);
    return r;
  }

 private:
  template <typename F> Tensor call_if(size_t i, F& f) const {
    if constexpr (std::is_same_v<std::decay_t<F>, std::nullptr_t>) return Tensor();
    else return needs(i) ? Tensor(f()) : Tensor();
  }
  OpNode& node_;
  Tensors& grads_;
  const std::vector<bool>& needs_;
};

using BackwardFn = Tensors (*)(const BackwardCtx& c);
// A differentiable forward written with other ops (their own rules record the graph).
using DecomposeFn = Tensors (*)(Args& args);

// Saved-tensor mask bits: schema argument i, forward output k.
constexpr uint64_t in_(int i) { return uint64_t(1) << i; }
constexpr uint64_t out_(int k) { return uint64_t(1) << (32 + k); }

struct Rule {
  uint64_t saves = 0;
  BackwardFn backward = nullptr;
  DecomposeFn decompose = nullptr;  // when set, replaces the op while recording
};

// The rule of [op]; in-place ops share their out-of-place op's rule. Null when [op] has no rule.
const Rule* rule_for(OpId op);

// [g] summed down to [sizes] (leading dims, and dims where sizes has 1): un-broadcasting.
Tensor sum_to(const Tensor& g, const Dims& sizes);

}  // namespace amps::rt::autograd
