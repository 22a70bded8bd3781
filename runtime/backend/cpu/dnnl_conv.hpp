// oneDNN convolution and transposed convolution (1d/2d/3d): forward, backward data, backward weights.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu {

// Geometry in torch terms, one entry per spatial dim (1 to 3 of them).
struct ConvParams {
  std::vector<int64_t> stride;
  std::vector<int64_t> padding;         // symmetric, as torch's padding=
  std::vector<int64_t> dilation;        // torch convention: 1 = no dilation
  std::vector<int64_t> output_padding;  // transposed only; empty = zeros
  int64_t groups = 1;
  bool transposed = false;  // conv_transpose{1,2,3}d (oneDNN deconvolution)
};

// Layouts are torch's, any strides: src [N, C_in, *in], dst [N, C_out, *out] (the caller computes
// *out with torch's formula; it is checked), weight [C_out, C_in/groups, *k] for a convolution and
// [C_in, C_out/groups, *k] for a transposed one, bias [C_out]. oneDNN picks blocked layouts
// internally and reorders to and from these. Dtypes: f32 or bf16 natively (bf16 src/weight may
// write f32 dst), f16 (and bf16 without bf16 kernels) computed in f32 and rounded once into the
// outputs. Outputs are overwritten (no accumulation). Throws DnnlError.
void conv_forward(const ConvParams& p, const DnnlArg& src, const DnnlArg& weight,
                  const DnnlArg* bias, const DnnlArg& dst);

// diff_src = d(loss)/d(src), from diff_dst and weight; diff_src's dims are src's.
void conv_backward_data(const ConvParams& p, const DnnlArg& diff_dst, const DnnlArg& weight,
                        const DnnlArg& diff_src);

// diff_weight (and diff_bias [C_out] when given) from the forward's src and diff_dst.
void conv_backward_weights(const ConvParams& p, const DnnlArg& src, const DnnlArg& diff_dst,
                           const DnnlArg& diff_weight, const DnnlArg* diff_bias);

}  // namespace amps::rt::dnnl_cpu
