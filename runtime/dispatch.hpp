// dispatch(): the one entry point for running an op, through the Context's layers to a backend kernel.
#pragma once

#include <memory>
#include <string_view>

#include "runtime/context.hpp"
#include "runtime/ivalue.hpp"
#include "runtime/op.hpp"

namespace amps::rt {

// The rest of the chain below one layer. Calling it runs [op] through the remaining enabled layers and
// then the backend. A layer may call it zero times (it handled the op), once, or with rewritten args.
class Next {
 public:
  Next(Context& ctx, size_t index) : ctx_(ctx), index_(index) {}
  Tensors operator()(OpId op, Args& args) const;

 private:
  Context& ctx_;
  size_t index_;
};

// A dispatch layer (autocast, autograd, tracing). Runtime knows only this interface; amp/ and
// runtime/autograd/ implement it and install themselves with Context::add_layer.
class DispatchLayer {
 public:
  virtual ~DispatchLayer() = default;
  virtual std::string_view name() const = 0;
  // Handles [op] with [args] (complete, schema-ordered); pass through with `return next(op, args);`.
  virtual Tensors call(OpId op, Args& args, const Next& next) = 0;
  // The layer a worker thread's Context uses (DataParallel): stateless layers share `self`;
  // stateful ones (autocast) return a copy of their current state.
  virtual std::shared_ptr<DispatchLayer> fork(const std::shared_ptr<DispatchLayer>& self) const { return self; }

  // True while call() would pass every op straight to next (autocast with no region enabled): the
  // dispatcher then skips the layer without a virtual call. The layer keeps the flag current.
  bool passthrough() const { return passthrough_; }

 protected:
  void set_passthrough(bool on) { passthrough_ = on; }

 private:
  bool passthrough_ = false;
};

// Runs [op] on the current context: fills omitted trailing defaults, then layers, then the backend
// for the arguments' device. Throws rt::Error for bad arguments, device mixing, unsupported dtypes.
Tensors dispatch(OpId op, Args& args);
Tensors dispatch(OpId op, Args&& args);
// The backend step alone (what the innermost Next runs): device resolution, kernel, out= handling.
Tensors dispatch_backend(OpId op, Args& args);
// Appends the schema defaults of omitted trailing arguments; TypeError for too many or missing ones.
void complete_args(OpId op, Args& args);
// The device [op] runs on: the common device of its tensor arguments (0-dim cpu tensors may mix in,
// as in PyTorch), else its `device=` argument, else cpu. RuntimeError when tensors disagree.
Device resolve_device(OpId op, const Args& args);

// Convenience for the typed wrappers: dispatches and returns the first result.
template <typename... A> Tensor call_op(OpId op, A&&... a) {
  Args args{IValue(std::forward<A>(a))...};
  return dispatch(op, args)[0];
}

}  // namespace amps::rt
