// cuDNN convolutions: the three passes of a (non-transposed) convolution, on contiguous cuda tensors of one float
// dtype. cuDNN is dlopen()ed on first use; one handle per device on its stream; algorithms cached per shape.
#pragma once

#include "runtime/backend/common/conv_pool_args.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt::cuda::cudnn {

// The passes of y = conv(x, w) with x [N, C, *i], w [K, C / groups, *k], y [N, K, *o] (*o PyTorch's output size
// of *i under [p]'s stride, padding, dilation; p.transposed and p.output_padding are not read: a transposed
// convolution is the backward_data pass of its plain twin, see conv_kernels.cpp).
enum class Pass { forward, backward_data, backward_filter };

// Runs [pass] for 1 to 3 spatial dims (a 1-D convolution runs as 2-D with a unit height): forward writes [y],
// backward_data writes [x] from [y] (= dy) and [w], backward_filter writes [w] from [x] and [y] (= dy); the
// written tensor is overwritten. All contiguous, on one device, of one dtype: f16/bf16 run on tensor cores with
// float accumulation, f32 with FMA math only (no TF32), f64 in double.
void convolution(Pass pass, const common::ConvParams& p, const Tensor& x, const Tensor& w, const Tensor& y);

}  // namespace amps::rt::cuda::cudnn
