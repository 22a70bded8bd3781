// The plain interface between the CUDA backend's host side (.cpp, g++) and its kernels (.cu, nvcc):
// raw pointers, element strides and enums only, so the kernel files include no amps headers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace amps::rt::cuda {

// Dims an elementwise launch may have after merging (runtime/backend/cuda/elementwise.cpp coalesces).
inline constexpr int kMaxDims = 8;

// Element types, in DType's enum order (static_assert'ed in cuda_backend.cpp).
enum class Elem : uint8_t { f64, f32, f16, bf16, i64, i32, b8 };

// The shape every operand of an elementwise launch is indexed at (row-major linear index -> coords).
struct Shape {
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t numel = 1;
};

// One operand: element strides per dim of the launch Shape (0 where broadcast) from [data]; a null
// [data] reads [inline_value] instead (a host scalar stored in the operand's element type).
struct Operand {
  void* data = nullptr;
  int64_t strides[kMaxDims] = {};
  alignas(8) unsigned char inline_value[8] = {};
};

// dst[i] = convert(src[i]) over [shape] (copy, cast, broadcast, fill from an inline scalar).
cudaError_t launch_cast(cudaStream_t s, const Shape& shape, Elem dst_t, const Operand& dst, Elem src_t,
                        const Operand& src);

// Binary ops on operands of one element type [t]; comparisons (eq and after) write bool.
enum class BinOp : uint8_t { add, sub, mul, div, div_trunc, div_floor, pow, rem, max, min,
                             eq, ne, lt, le, gt, ge, land, lor };
// out = x op (alpha * y) for add/sub, x op y otherwise.
cudaError_t launch_binary(cudaStream_t s, BinOp op, Elem t, const Shape& shape, const Operand& out,
                          const Operand& x, const Operand& y, double alpha);

// Unary ops, in the CPU backend's order (runtime/backend/cpu/unary_kernels.cpp): the first block keeps
// the dtype, float math needs a floating [t], predicates (isfinite and after) write bool.
enum class UnOp : uint8_t {
  neg, abs, square, sign, floor, ceil, round, trunc, relu,
  sqrt, rsqrt, exp, log, log2, log1p, expm1, sin, cos, tanh, sigmoid, erf, reciprocal,
  gelu, gelu_tanh, silu, leaky_relu, softplus, clamp, nan_to_num,
  isfinite, isnan, isinf, logical_not
};
struct UnaryParams {
  double p0 = 0, p1 = 0, p2 = 0;  // leaky_relu: slope; softplus: beta, threshold; clamp: lo, hi; nan_to_num
  bool has_lo = false, has_hi = false;
};
cudaError_t launch_unary(cudaStream_t s, UnOp op, Elem t, const Shape& shape, const Operand& out,
                         const Operand& x, const UnaryParams& p);

// Row sums of a row-major [rows, cols] block of [t] (f64, f32, f16, bf16 or i64) times [scale] (ignored
// for i64) into out[rows] of [t]. Long rows are split: sum_row_splits() pieces per row, each leaving a
// partial in [workspace] (rows * splits * 8 bytes, unused when splits is 1).
int sum_row_splits(int64_t rows, int64_t cols);
cudaError_t launch_sum_rows(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t cols,
                            double scale, void* workspace, int splits);

}  // namespace amps::rt::cuda
