// The CPU backend (also serving the emulated xla/xpu devices): a kernel table indexed by OpId.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/backend.hpp"

namespace amps::rt::cpu {

// A CPU kernel: reads its arguments, allocates outputs on kc.device, returns them in schema order.
using Kernel = Tensors (*)(const ArgReader& a, const KernelContext& kc);

// dtype sets for registration.
constexpr uint32_t dtype_bit(DType t) { return 1u << uint32_t(t); }
inline constexpr uint32_t kAllDTypes = (1u << dtype_count) - 1;
inline constexpr uint32_t kFloatDTypes = dtype_bit(DType::float64) | dtype_bit(DType::float32) |
                                         dtype_bit(DType::float16) | dtype_bit(DType::bfloat16);
inline constexpr uint32_t kNumericDTypes = kAllDTypes & ~dtype_bit(DType::bool_);
inline constexpr uint32_t kF32F64 = dtype_bit(DType::float64) | dtype_bit(DType::float32);

class KernelTable {
 public:
  // Registers [fn] for [op] and the input dtypes in [dtypes]. Registering an op twice is a bug.
  void add(OpId op, Kernel fn, uint32_t dtypes = kAllDTypes);
  Kernel get(OpId op) const { return entries_[size_t(op)].fn; }
  bool supports(OpId op, DType t) const {
    const Entry& e = entries_[size_t(op)];
    return e.fn != nullptr && (e.dtypes & dtype_bit(t)) != 0;
  }

 private:
  struct Entry {
    Kernel fn = nullptr;
    uint32_t dtypes = 0;
  };
  std::array<Entry, size_t(op_count)> entries_{};
};

// Each kernel file registers its family here (explicit calls: a static library would drop files
// that only contain self-registering globals).
void register_copy_kernels(KernelTable& t);
void register_binary_kernels(KernelTable& t);
void register_unary_kernels(KernelTable& t);
// signbit, nextafter, gcd/lcm, i0/special_i1, igamma/igammac, frexp, bitwise ops (elementwise_extra_kernels.cpp)
void register_elementwise_extra_kernels(KernelTable& t);
// Those ops, for the device backends' host fallbacks.
const std::vector<OpId>& elementwise_extra_kernel_ops();
void register_reduce_kernels(KernelTable& t);
void register_sort_kernels(KernelTable& t);  // sort, argsort, topk (sort_kernels.cpp)
void register_scan_kernels(KernelTable& t);  // cummax, cummin, searchsorted (scan_kernels.cpp)
void register_grid_sampler_kernels(KernelTable& t);  // grid_sampler_2d/3d and backward (grid_sampler_kernels.cpp)
void register_shape_kernels(KernelTable& t);
void register_index_kernels(KernelTable& t);
void register_scatter_kernels(KernelTable& t);  // scatter(_), scatter_add(_) (scatter_kernels.cpp)
void register_scatter_reduce_kernels(KernelTable& t);  // scatter_reduce (scatter_reduce_kernels.cpp)
void register_random_kernels(KernelTable& t);
void register_sampling_kernels(KernelTable& t);  // poisson, binomial (sampling_kernels.cpp)
void register_matmul_kernels(KernelTable& t);
void register_conv_kernels(KernelTable& t);
void register_pool_kernels(KernelTable& t);
void register_norm_kernels(KernelTable& t);
void register_channel_norm_kernels(KernelTable& t);
void register_loss_kernels(KernelTable& t);
void register_softmax_grad_kernels(KernelTable& t);  // softmax/log_softmax/nll_loss gradients (softmax_grad_kernels.cpp)
void register_linalg_kernels(KernelTable& t);
void register_linalg_solve_kernels(KernelTable& t);  // lu_factor_ex, det, slogdet, solve, solve_triangular, eigh
void register_matrix_exp_kernels(KernelTable& t);  // linalg_matrix_exp (linalg_matrix_exp.cpp)
void register_amp_kernels(KernelTable& t);
void register_grad_kernels(KernelTable& t);  // autograd helper ops (grad_kernels.cpp)
void register_gelu_kernels(KernelTable& t);  // gelu and gelu_backward (gelu_kernels.cpp)
void register_fused_optim_kernels(KernelTable& t);  // _fused_sgd_, _fused_adam_, _fused_adamw_ (fused_optim_kernels.cpp)

}  // namespace amps::rt::cpu
