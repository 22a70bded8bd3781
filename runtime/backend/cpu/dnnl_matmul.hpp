// oneDNN matmul: batched, broadcasting, strided C = alpha*(A·B + bias) + beta*C on raw buffers.
#pragma once

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu {

// dst = alpha * (a · b + bias) + beta * dst   (torch.matmul / addmm / baddbmm / linear).
// Shapes: a [..., M, K], b [..., K, N], dst [..., M, N], each of rank >= 2 (the caller unsqueezes
// 1-D operands: mv, addmv, addr). Batch dims align from the right and broadcast as in
// torch.matmul: each batch dim of a and b equals dst's or is 1 (a stride-0 dim counts as 1).
// bias (optional) broadcasts to dst the same way ([N] for linear). Any non-negative strides:
// transposed views cost no copy. a and b share one dtype; dst is f32 or a's dtype (bf16 inputs
// may write f32); bias is f32 or a's dtype. f16 (and bf16 on CPUs without bf16 kernels) is
// computed in f32 and rounded once into dst. beta == 0 ignores dst's old contents (NaN too);
// dst must not overlap a, b or bias. Throws DnnlError.
void matmul(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias = nullptr,
            float alpha = 1.f, float beta = 0.f);

}  // namespace amps::rt::dnnl_cpu
