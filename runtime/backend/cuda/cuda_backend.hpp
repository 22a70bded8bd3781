// The CUDA backend's host side: its kernel table (the CPU backend's KernelTable type), per-family
// registration, and the helpers every kernel file uses (device guard, streams, launch operands, copies).
#pragma once

#include <initializer_list>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cuda/launch.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt::cuda {

using cpu::dtype_bit;
using cpu::Kernel;
using cpu::KernelTable;
using cpu::kAllDTypes;
using cpu::kFloatDTypes;
using cpu::kNumericDTypes;

// Every CUDA kernel (built on first use; needs no GPU): the backend's table, and what tests ask for coverage.
const KernelTable& kernel_table();

// Throws an amps RuntimeError "CUDA error: ..." naming [what] unless [e] is cudaSuccess.
void check(cudaError_t e, const char* what);

// Makes [d] the calling thread's current CUDA device while the guard lives.
class DeviceGuard {
 public:
  explicit DeviceGuard(Device d);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int prev_ = -1;
};

// The one stream all work on [d] is queued on (created on first use).
cudaStream_t stream(Device d);
Elem elem(DType t);

// ---- elementwise launches (elementwise.cpp) ----
// A launch over [shape] with its operands: tensors on the device (broadcast to [shape] by stride 0) or host
// scalars (one element, read into the operand); size-1 dims are dropped and mergeable dims merged.
struct Launch {
  Shape shape;
  std::vector<Operand> ops;
};
Launch make_launch(const Dims& shape, std::initializer_list<const Tensor*> operands);
// The device address of [t]'s element (0, ..., 0).
void* device_data(const Tensor& t);
// Whether [t] is a one-element host tensor that kernels take by value.
bool is_host_scalar(const Tensor& t);

// ---- non-dispatching helpers (as cpu/native.hpp): [dst]/[t] are cuda tensors ----
// Writes [src] (cuda, or a one-element host tensor) broadcast to [dst]'s shape, converting dtypes.
void copy_into(const Tensor& dst, const Tensor& src);
void fill(const Tensor& dst, Scalar v);
// [t] itself when it already has [dtype], else a converted contiguous copy.
Tensor cast(const Tensor& t, DType dtype);
Tensor contiguous(const Tensor& t);
// A view when possible, else a row-major copy laid out as [shape].
Tensor reshape(const Tensor& t, const Dims& shape);
// dst <- src across devices (host <-> cuda, cuda:i <-> cuda:j), broadcasting and converting.
void transfer(const Tensor& dst, const Tensor& src);
// Device-to-host copies made so far (each waits for the stream), counted in transfer(): tests assert that a
// sync-free training step (GradScaler + optim.syncfree ops) makes none.
uint64_t host_reads();

// Each kernel file registers its family.
void register_copy_kernels(KernelTable& t);
void register_shape_kernels(KernelTable& t);
void register_binary_kernels(KernelTable& t);
void register_unary_kernels(KernelTable& t);
void register_reduce_kernels(KernelTable& t);
void register_sort_kernels(KernelTable& t);
void register_matmul_kernels(KernelTable& t);
void register_ternary_kernels(KernelTable& t);
void register_amp_kernels(KernelTable& t);
void register_fused_optim_kernels(KernelTable& t);  // _fused_sgd_, _fused_adam_, _fused_adamw_
void register_softmax_kernels(KernelTable& t);
void register_softmax_grad_kernels(KernelTable& t);  // softmax/log_softmax/nll_loss gradients (softmax_grad_kernels.cpp)
void register_extreme_kernels(KernelTable& t);
void register_index_kernels(KernelTable& t);
void register_norm_kernels(KernelTable& t);
void register_pool_kernels(KernelTable& t);
void register_conv_kernels(KernelTable& t);  // cuDNN (conv_kernels.cpp), built where its headers are found

}  // namespace amps::rt::cuda
