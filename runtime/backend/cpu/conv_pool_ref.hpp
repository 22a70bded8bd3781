// Reference convolution and 2-D pooling in plain float64 loops: the float64 kernels, and what the other
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

// 2-D max or average pooling of contiguous float64 x [N, C, H, W] into out [N, C, OH, OW]. Max pooling
// writes flat per-plane argmax positions to [indices] (int64, out's shape) when it is defined; average
// pooling divides by [divisor_override] when given.
void pool2d(const dnnl_cpu::PoolParams& p, std::optional<int64_t> divisor_override, const Tensor& x,
            const Tensor& out, const Tensor& indices);

}  // namespace amps::rt::cpu::ref
