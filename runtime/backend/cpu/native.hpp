// Non-dispatching CPU helpers shared by the kernels: casts, copies, fills, result-type rules.
#pragma once

#include <initializer_list>

#include "runtime/tensor.hpp"

namespace amps::rt::cpu {

// PyTorch's result_type: dimensioned tensors outrank 0-dim tensors, which outrank wrapped Python numbers,
// unless a lower-priority operand is of a higher category (bool < integral < floating). A wrapped float
// counts as the default dtype (the current context's), as does an empty operand list.
DType result_type(std::initializer_list<const Tensor*> operands);
// [t] itself when it already has [dtype], else a converted contiguous copy.
Tensor cast(const Tensor& t, DType dtype);
// [t] itself when row-major, else a row-major copy.
Tensor contiguous(const Tensor& t);
// Writes [src] broadcast to [dst]'s shape, converting dtypes; [dst] may be any strided view.
void copy_into(const Tensor& dst, const Tensor& src);
// Sets every element of [dst] to [v] converted to its dtype.
void fill(const Tensor& dst, Scalar v);
// A view when possible, else a copy laid out as [shape] (PyTorch's reshape).
Tensor reshape(const Tensor& t, const Dims& shape);
// The broadcast shape of [a] and [b], with [op] named in the error.
Dims broadcast_pair(const Tensor& a, const Tensor& b, std::string_view op);
// A new uninitialised tensor shaped like [t] on [device], in [dtype].
Tensor empty_like(const Tensor& t, DType dtype, Device device);

}  // namespace amps::rt::cpu

namespace amps::rt::cpu {
// A copy of host tensor [t] tagged with another host device (cpu <-> xla/xpu moves).
Tensor cast_device(const Tensor& t, Device dev);
}  // namespace amps::rt::cpu

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::cpu {
// True for the dtypes the oneDNN wrappers take (float32, bfloat16, float16).
bool dnnl_dtype_ok(DType t);
// [t] as a oneDNN wrapper argument (host pointer, dims and element strides); [t] must stay alive.
dnnl_cpu::DnnlArg dnnl_arg(const Tensor& t);
}  // namespace amps::rt::cpu
