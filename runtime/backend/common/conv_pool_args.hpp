// Device-independent argument handling of the convolution, pooling and batch_norm ops: argument reading, PyTorch's
// shape checks and output-size formulas (every backend computes the same shapes and raises the same errors).
#pragma once

#include <optional>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_conv.hpp"
#include "runtime/backend/cpu/dnnl_pool.hpp"

namespace amps::rt::common {

using dnnl_cpu::ConvParams;
using dnnl_cpu::PoolParams;

// ---- convolution ----
// The geometry of conv{N}d (input, weight, bias, stride, padding, dilation, groups) or conv_transpose{N}d
// (input, weight, bias, stride, padding, output_padding, groups, dilation).
ConvParams conv_forward_params(const ArgReader& a, size_t nd, bool transposed);
// The geometry of convolution_backward_input/_weight (stride at 3 ... groups at 8), [nd] spatial dims; groups > 0.
ConvParams conv_backward_params(const ArgReader& a, size_t nd);

// [input] batched: an unbatched (nd + 1)-D input gets a batch dim; anything but (nd + 2)-D then is an error.
Tensor batched_conv_input(OpId op, const Tensor& input, size_t nd);
// Weight rank, input/weight dtypes, channel counts and the bias (undefined, or one value per output channel) of a
// forward convolution of batched [input].
void check_conv(OpId op, const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p);
// PyTorch's output shape of a convolution of [in] with weight [w] (both batched/full rank); too small is an error.
Dims conv_out_shape(const Dims& in, const Dims& w, const ConvParams& p);
// The backward ops' shapes: batched input [in], weight [w] and grad_output [g] of one rank (3 to 5) that fit.
void check_conv_backward_shapes(OpId op, const Dims& in, const Dims& w, const Tensor& g, const ConvParams& p);

// ---- 2-D pooling ----
struct Pool {
  Tensor input;
  PoolParams p;
  bool ceil_mode = false;
  std::optional<int64_t> divisor;  // avg_pool2d's divisor_override
};
// The pooling arguments of [a] whose input tensor is argument [first] (max_pool2d_backward: 1); [max]: max
// pooling (dilation, no divisors), else average pooling. Checks padding <= kernel / 2 and the divisor.
Pool read_pool(const ArgReader& a, bool max, size_t first = 0);
// PyTorch's pooling output size along one dim, including ceil_mode's "last window must start inside" rule.
int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode);
// The output shape [N, C, OH, OW] of [pl] for its input [x] batched (4-D; anything else is an error).
Dims pool_shape(OpId op, const Pool& pl, const Tensor& x);
// The output shape of pooling [pl] (3-D for an unbatched input).
Dims pool_out_shape(OpId op, const Pool& pl);

// avg_pool2d_backward(grad_output, input_sizes, kernel_size, stride, padding, ceil_mode, count_include_pad,
// divisor_override): the input's sizes and the window arguments (stride [] is kernel_size).
struct AvgPoolBackward {
  Dims in;
  Dims kernel, stride, padding;
  bool count_include_pad = true;
  std::optional<int64_t> divisor;
};
AvgPoolBackward read_avg_pool_backward(const ArgReader& a);

// ---- batch_norm ----
// batch_norm(input, running_mean, running_var, weight, bias, training, ...) of [x] ([N, C, *]): the channel count
// and the values per channel; checks the rank, the running stats in evaluation mode, > 1 value per channel in
// training, and that each given running stat, weight and bias has one (floating) value per channel.
struct BatchNormLayout {
  int64_t channels = 0, per_channel = 0;
};
BatchNormLayout batch_norm_layout(const Tensor& x, const Tensor& running_mean, const Tensor& running_var,
                                  const Tensor& weight, const Tensor& bias, bool training);

}  // namespace amps::rt::common
