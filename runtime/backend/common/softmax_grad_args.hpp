// Device-independent argument handling of the softmax/log_softmax and nll_loss gradient ops
// (_softmax_backward_data, _log_softmax_backward_data, nll_loss_backward), shared by the CPU and CUDA kernels so
// that both check, shape and type their results alike.
#pragma once

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/nn_args.hpp"

namespace amps::rt::common {

// Checks and shapes only: the backends' own (non-dispatching) cast/contiguous helpers do the conversions.
//
// _softmax_backward_data(grad_output, output, dim, input_dtype) and its log twin: [grad] and [out] have one shape
// and float dtypes (a kernel casts grad to out's dtype when they differ and computes in out's dtype); a 0-dim pair
// is seen as [1] and [dim] is wrapped. The result is squeezed() back and cast to [input_dtype].
struct SoftmaxGradArgs {
  Tensor grad, out;
  int64_t dim = 0;
  bool scalar = false;     // the op's operands were 0-dim (the result is squeezed back)
  DType input_dtype{};     // the result's dtype (the forward input's: softmax(x, dtype=) casts back)
  // [r] (of out's shape) back in the operands' shape.
  Tensor squeezed(const Tensor& r) const;
  // [outer, n, inner] of out around [dim].
  int64_t outer() const;
  int64_t inner() const;
};
SoftmaxGradArgs softmax_grad_args(const ArgReader& a, bool log);

// nll_loss_backward(grad_output, target, weight, input_sizes, ignore_index, reduction): the gradient has
// input_sizes ([C] or [N, C, d...]) and grad_output's (float) dtype. Rows are the [batch * inner] targets;
// row r = (b, s) owns element b * classes * inner + k * inner + s of the gradient for its class k.
struct NllGradArgs {
  Tensor grad, target, weight;  // target: integer (a kernel makes it contiguous int64); weight: [classes] or undefined
  Dims input_sizes;
  int64_t batch = 1, classes = 0, inner = 1, ignore_index = -100;
  Reduction red = Reduction::mean;
  int64_t rows() const { return batch * inner; }
};
NllGradArgs nll_grad_args(const ArgReader& a);

}  // namespace amps::rt::common
