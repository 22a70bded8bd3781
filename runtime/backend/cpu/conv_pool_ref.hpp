// Reference convolution and 2-D average pooling in plain float64 loops: the float64 kernels, and what the other
// dtypes' op tests compare against. PyTorch's window rules (padding, dilation, ceil mode, divisors).
#pragma once

#include <optional>

#include "runtime/backend/cpu/dnnl_conv.hpp"
#include "runtime/backend/cpu/dnnl_pool.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt::cpu::ref {

// out [N, C_out, *o] = conv(x [N, C_in, *i], w, bias [C_out] or undefined) for 1 to 3 spatial dims, plain or
// transposed per [p]; all contiguous float64, [out] already shaped by PyTorch's output-size formula.
void conv(const dnnl_cpu::ConvParams& p, const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& out);

// The gradients of that convolution (any geometry [p] describes), all contiguous float64 and batched:
// grad_input [N, C_in, *i] from grad_output [g] and [w]; grad_weight (w's shape) and grad_bias [C_out]
// from [g] and the forward input [x].
void conv_backward_data(const dnnl_cpu::ConvParams& p, const Tensor& g, const Tensor& w, const Tensor& grad_input);
void conv_backward_weights(const dnnl_cpu::ConvParams& p, const Tensor& g, const Tensor& x, const Tensor& grad_weight,
                           const Tensor& grad_bias);

// 2-D average pooling of contiguous float64 x [N, C, H, W] into out [N, C, OH, OW], dividing by
// [divisor_override] when given. (Max pooling has native loops for every dtype: pool_kernels.cpp.)
void pool2d(const dnnl_cpu::PoolParams& p, std::optional<int64_t> divisor_override, const Tensor& x,
            const Tensor& out);

}  // namespace amps::rt::cpu::ref
