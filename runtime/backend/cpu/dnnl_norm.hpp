// oneDNN batch norm and layer norm (forward training/inference, backward), and group norm on top.
#pragma once

#include <cstdint>

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu {

// Common contract of the norms: src/dst/diff tensors are f32, bf16 or f16 with dst dtype ==
// src dtype, any strides (non-dense ones are copied). weight/bias (and their grads) are optional,
// any float dtype (computed in f32). Statistics 'mean'/'var' are f32 arrays the caller owns;
// 'var' is the biased variance (divide by count), so the caller derives torch's invstd =
// 1/sqrt(var+eps) and the unbiased running-variance update var*n/(n-1) itself. f16 (and bf16
// without bf16 kernels) is computed in f32 and rounded once. Throws DnnlError.

// Batch norm over src [N, C, *]: statistics per channel ([C] floats). training: computes
// mean/var of this batch into 'mean'/'var'; inference: normalizes with 'mean'/'var' as given
// (the running statistics). weight/bias are [C].
void batch_norm_forward(const DnnlArg& src, const DnnlArg* weight, const DnnlArg* bias,
                        const DnnlArg& dst, float* mean, float* var, float eps, bool training);

// Gradients of batch_norm_forward: diff_src, and diff_weight/diff_bias [C] when given (either may
// be null; diff_weight needs weight). 'mean'/'var' are what the forward used; training must
// match the forward (false: the statistics are constants, as in eval mode).
void batch_norm_backward(const DnnlArg& src, const DnnlArg& diff_dst, const float* mean,
                         const float* var, const DnnlArg* weight, const DnnlArg& diff_src,
                         const DnnlArg* diff_weight, const DnnlArg* diff_bias, float eps,
                         bool training);

// Layer norm over the last 'norm_dims' dims of src (torch's normalized_shape): statistics per
// leading index, M = product of the leading dims floats each; weight/bias have the normalized
// shape (dense). 'mean'/'var' may both be null when no backward follows.
void layer_norm_forward(const DnnlArg& src, int norm_dims, const DnnlArg* weight,
                        const DnnlArg* bias, const DnnlArg& dst, float* mean, float* var,
                        float eps);

void layer_norm_backward(const DnnlArg& src, const DnnlArg& diff_dst, const float* mean,
                         const float* var, int norm_dims, const DnnlArg* weight,
                         const DnnlArg& diff_src, const DnnlArg* diff_weight,
                         const DnnlArg* diff_bias, float eps);

// Group norm over src [N, C, *] with 'groups' dividing C: statistics per (n, group), N*groups
// floats each; weight/bias are [C]. oneDNN 2.6 has no group norm: it runs as a layer norm of
// [N*groups, C/groups*spatial] in f32, with the per-channel affine applied here.
void group_norm_forward(const DnnlArg& src, int64_t groups, const DnnlArg* weight,
                        const DnnlArg* bias, const DnnlArg& dst, float* mean, float* var,
                        float eps);

void group_norm_backward(const DnnlArg& src, const DnnlArg& diff_dst, const float* mean,
                         const float* var, int64_t groups, const DnnlArg* weight,
                         const DnnlArg& diff_src, const DnnlArg* diff_weight,
                         const DnnlArg* diff_bias, float eps);

}  // namespace amps::rt::dnnl_cpu
