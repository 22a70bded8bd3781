// oneDNN softmax and log_softmax along any axis: forward and backward.
#pragma once

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu {

// dst = softmax(src) (or log_softmax when 'log') along 'axis' (0 <= axis < rank; the caller
// wraps negative axes). src and dst have equal dims and any strides; dst may be f32 or src's
// dtype (torch's softmax(x, dtype=float32) on bf16 input). f16 (and bf16 without bf16 kernels)
// computes in f32 and rounds once. Throws DnnlError.
void softmax_forward(const DnnlArg& src, const DnnlArg& dst, int axis, bool log);

// diff_src from the forward's output 'dst' and 'diff_dst' (dims equal; diff_src dtype ==
// diff_dst dtype). For log_softmax 'dst' is the log-probabilities.
void softmax_backward(const DnnlArg& dst, const DnnlArg& diff_dst, const DnnlArg& diff_src,
                      int axis, bool log);

}  // namespace amps::rt::dnnl_cpu
