// oneDNN max/avg pooling (1d/2d/3d): forward (with max-pool workspace), backward, argmax indices.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu {

// Torch's pooling arguments, one entry per spatial dim (1 to 3). ceil_mode is expressed by the
// dst dims the caller computes with torch's formula (including its rule that the last window
// starts inside the input or left padding); this layer derives the right padding from them.
struct PoolParams {
  std::vector<int64_t> kernel;
  std::vector<int64_t> stride;
  std::vector<int64_t> padding;
  std::vector<int64_t> dilation;  // max only, torch convention (1 = none); empty = ones
  bool max = true;                // false: average
  bool count_include_pad = true;  // average only; divisors follow torch, also in ceil mode
};

// Bytes of the workspace a max-pool forward writes for its backward (0 for average pooling).
// The workspace is opaque (kernel-window positions, u8 or s32), laid out densely in dst's dims.
int64_t pool_workspace_bytes(const PoolParams& p, const DnnlArg& src, const DnnlArg& dst);

// src [N, C, *in] -> dst [N, C, *out]; any strides, dst dtype == src dtype (f32, bf16, f16; f16
// and bf16 without bf16 kernels computed in f32, rounded once). 'workspace' (max pooling that
// will be differentiated) receives pool_workspace_bytes(); null for inference. Throws DnnlError.
void pool_forward(const PoolParams& p, const DnnlArg& src, const DnnlArg& dst, void* workspace);

// diff_src [N, C, *in] (overwritten) from diff_dst [N, C, *out]; max pooling needs the forward's
// workspace, average pooling ignores 'workspace' (may be null).
void pool_backward(const PoolParams& p, const DnnlArg& diff_dst, const DnnlArg& diff_src,
                   const void* workspace);

// Torch's max-pool indices from a workspace: for every dst element, the flat index of the
// chosen element within its (n, c) input plane, written densely in dst's dims to 'indices'.
void pool_indices(const PoolParams& p, const std::vector<int64_t>& src_dims,
                  const std::vector<int64_t>& dst_dims, const void* workspace, int64_t* indices);

}  // namespace amps::rt::dnnl_cpu
