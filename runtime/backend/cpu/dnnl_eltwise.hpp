// oneDNN elementwise activations on dense buffers: GELU forward and backward, erf and tanh forms.
#pragma once

#include <cstdint>

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu {

enum class GeluForm : uint8_t { erf, tanh };

// Whether oneDNN's GELU takes buffers of type [t]: f32 and bf16 (computed in f32 and rounded once; on CPUs
// without oneDNN's bf16 eltwise kernels, AVX2 ones, through f32 temporaries here). f16 never: oneDNN 2.6 has
// no f16 compute on the CPU.
bool gelu_supported(DnnlType t);

// dst = gelu(src) over [n] dense elements of type [t]; bf16 computes in f32 and rounds once. The buffers may
// be the same. Dense pointers rather than DnnlArgs: this runs per activation, and the argument vectors and the
// cache key's buffer would be most of a small call's cost. Throws DnnlError.
void gelu_forward(GeluForm f, DnnlType t, const void* src, void* dst, int64_t n);

// diff_src = diff_dst * gelu'(src) over [n] dense elements, all of type [t] (PyTorch's gelu_backward).
void gelu_backward(GeluForm f, DnnlType t, const void* diff_dst, const void* src, void* diff_src, int64_t n);

}  // namespace amps::rt::dnnl_cpu
