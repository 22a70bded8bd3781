// The plain interface between the CUDA backend's host side (.cpp, g++) and its kernels (.cu, nvcc):
// raw pointers, element strides and enums only, so the kernel files include no amps headers (the fused
// optimizers' header-only formulas excepted: they are shared with the CPU backend).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "runtime/backend/common/fused_optim_math.hpp"  // plain structs and formulas, no amps headers

namespace amps::rt::cuda {

// Dims an elementwise launch may have after merging (runtime/backend/cuda/elementwise.cpp coalesces).
inline constexpr int kMaxDims = 8;

// Element types, in DType's enum order (static_assert'ed in cuda_backend.cpp).
enum class Elem : uint8_t { f64, f32, f16, bf16, i64, i32, b8, u8, i8, i16 };

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
enum class BinOp : uint8_t { add, sub, mul, div, div_trunc, div_floor, pow, rem, fmod, max, min, atan2,
                             eq, ne, lt, le, gt, ge, land, lor };
// out = x op (alpha * y) for add/sub, x op y otherwise.
cudaError_t launch_binary(cudaStream_t s, BinOp op, Elem t, const Shape& shape, const Operand& out,
                          const Operand& x, const Operand& y, double alpha);

// Unary ops, in the CPU backend's order (runtime/backend/cpu/unary_kernels.cpp; its gelu has a file of its own):
// the first block keeps the dtype, float math needs a floating [t], predicates (isfinite and after) write bool.
enum class UnOp : uint8_t {
  neg, abs, square, sign, floor, ceil, round, trunc, relu,
  sqrt, rsqrt, exp, log, log2, log1p, expm1, sin, cos, tanh, sigmoid, erf, reciprocal,
  tan, sinh, cosh, asin, acos, atan, log10, erfinv, asinh, acosh, atanh, erfc, exp2, lgamma, digamma,
  gelu, gelu_tanh, silu, leaky_relu, softplus, polygamma, clamp, nan_to_num,
  isfinite, isnan, isinf, logical_not
};
struct UnaryParams {
  double p0 = 0, p1 = 0, p2 = 0;  // leaky_relu: slope; softplus: beta, threshold; polygamma: n; clamp: lo, hi; nan_to_num
  bool has_lo = false, has_hi = false;
};
cudaError_t launch_unary(cudaStream_t s, UnOp op, Elem t, const Shape& shape, const Operand& out,
                         const Operand& x, const UnaryParams& p);
// gelu_backward: out = grad * gelu'(self) on operands of one floating type [t] (the CPU's formulas), the tanh
// form when [tanh_form], else the erf form.
cudaError_t launch_gelu_backward(cudaStream_t s, Elem t, const Shape& shape, const Operand& out, const Operand& grad,
                                 const Operand& self, bool tanh_form);

// Row sums of a row-major [rows, cols] block of [t] (f64, f32, f16, bf16 or i64) times [scale] (ignored
// for i64) into out[rows] of [t]. Long rows are split: sum_row_splits() pieces per row, each leaving a
// partial in [workspace] (rows * splits * 8 bytes, unused when splits is 1).
int sum_row_splits(int64_t rows, int64_t cols);
cudaError_t launch_sum_rows(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t cols,
                            double scale, void* workspace, int splits);

// Column sums of a row-major [rows, cols] block of [in_t] times [scale] (ignored for i64) into out[cols] of [out_t],
// without a copy: in_t == out_t (f64, f32, f16, bf16 or i64; f32 accumulation for half types, int64 for i64), or
// f16/bf16 into f32 (sum(dtype=float32)). Tall blocks are cut into [pieces] (column_pieces()) row pieces, each leaving
// a partial per column in [workspace] (pieces * cols * 8 bytes, unused when pieces is 1), summed in a second pass.
int column_pieces(int64_t rows, int64_t cols);
cudaError_t launch_sum_cols(cudaStream_t s, Elem in_t, Elem out_t, const void* in, void* out, int64_t rows,
                            int64_t cols, double scale, void* workspace, int pieces);

// Ternary elementwise ops on operands of one element type [t] (as the CPU backend's): out = x + value * y * z
// (addcmul), x + value * (y / z) (addcdiv), x + z * (y - x) (lerp, the CPU's two-sided form); where reads a
// bool condition [x] and picks y where it is true, else z; threshold gives 0 where y <= value, else x
// (threshold_backward: x = grad_output, y = self; z is not read).
enum class TernOp : uint8_t { addcmul, addcdiv, lerp, where, threshold };
cudaError_t launch_ternary(cudaStream_t s, TernOp op, Elem t, const Shape& shape, const Operand& out,
                           const Operand& x, const Operand& y, const Operand& z, double value);

// ---- GradScaler kernels (amp.cu) ----
// A list of contiguous tensors of one float element type for one multi-tensor launch: tensor k has
// numel[k] elements at data[k] and owns blocks [first_block[k], first_block[k + 1]) of the grid, each
// block covering kUnscaleChunk elements. Passed by value as a kernel parameter (under 4 KiB).
inline constexpr int kMaxListTensors = 96;
inline constexpr int64_t kUnscaleChunk = 4096;
struct TensorList {
  int count = 0;
  void* data[kMaxListTensors] = {};
  int64_t numel[kMaxListTensors] = {};
  int64_t first_block[kMaxListTensors + 1] = {};
};
// _amp_foreach_non_finite_check_and_unscale_: each element x becomes x * *inv_scale (kept as is when
// *inv_scale is 1); *found_inf is set to 1 where any element is inf/NaN (never reset). One launch; scale
// and flag stay on the device.
cudaError_t launch_unscale(cudaStream_t s, Elem t, const TensorList& list, float* found_inf, const float* inv_scale);
// _amp_update_scale_ on device scalars: backoff and reset the tracker on found_inf, else grow after
// [growth_interval] clean steps unless the grown scale is not finite.
cudaError_t launch_update_scale(cudaStream_t s, float* scale, int32_t* growth_tracker, const float* found_inf,
                                double growth_factor, double backoff_factor, int64_t growth_interval);

// ---- cumsum, cumprod, prod (scan.cu) ----
// Per row of a row-major [rows, n] block of [t]: the running sum or product into out (same shape and type), or the
// product into out[rows]; accumulated in float for half types and in the type itself otherwise (int64 for
// integers), as the CPU kernels. One thread per row.
cudaError_t launch_row_cumsum(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n);
cudaError_t launch_row_cumprod(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n);
cudaError_t launch_row_prod(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n);

// ---- sort, argsort, topk (sort.cu) ----
// Orders every row of a row-major [rows, n] block of [t] (stable; NaN the largest; descending when asked) and
// writes the first k of each row into values [rows, k] (of [t]) and their columns into indices [rows, k].
// [workspace] holds sort_rows_workspace(rows, n) bytes of device memory.
size_t sort_rows_workspace(int64_t rows, int64_t n);
cudaError_t launch_sort_rows(cudaStream_t s, Elem t, const void* in, void* values, int64_t* indices, int64_t rows,
                             int64_t n, int64_t k, bool descending, void* workspace);

// ---- gather, scatter, scatter_add (index.cu) ----
// Element strides of a tensor of up to kMaxDims dims.
struct DimStrides {
  int64_t s[kMaxDims] = {};
};
// gather: out[e] (row-major over [shape], the index's shape) = in at e's coordinates with coordinate [dim] replaced
// by index[e] (int64, row-major over [shape]); [in] has element strides [in_strides] and [size] elements along [dim].
// Negative indices count from the end; one outside [-size, size) reads NaN (0 for integer and bool types).
cudaError_t launch_gather(cudaStream_t s, Elem t, const Shape& shape, int dim, const void* in,
                          const DimStrides& in_strides, int64_t size, const int64_t* index, void* out);
// scatter: [out] (element strides [out_strides], [size] elements along [dim]) at e's coordinates with [dim] replaced
// by index[e] gets src[e] (row-major over [shape], out's type); which write wins where indices repeat is unspecified
// (as in PyTorch); an index outside [-size, size) is skipped (the CPU raises).
cudaError_t launch_scatter(cudaStream_t s, Elem t, const Shape& shape, int dim, void* out,
                           const DimStrides& out_strides, int64_t size, const int64_t* index, const void* src);
// scatter_add into [acc] (f32, f64 or i64, element strides [acc_strides], [size] elements along [dim]): acc at e's
// coordinates with [dim] replaced by index[e] gets src[e] added atomically (src row-major over [shape], acc's type);
// an index outside [0, size) is skipped (the CPU raises).
cudaError_t launch_scatter_add(cudaStream_t s, Elem acc, const Shape& shape, int dim, void* acc_data,
                               const DimStrides& acc_strides, int64_t size, const int64_t* index, const void* src);

// ---- fused optimizer steps (fused_optim.cu) ----
// The parameters of one multi-tensor optimizer launch (one element type): parameter k has numel[k] contiguous
// elements at p[k], its gradient at g[k], its state at m[k] (exp_avg, or SGD's momentum buffer), v[k]
// (exp_avg_sq) and vmax[k] (max_exp_avg_sq), null where the step has none, its step count at step[k] (Adam),
// and owns grid blocks [first_block[k], first_block[k + 1]) of kUnscaleChunk elements each. By value, under 4 KiB.
inline constexpr int kMaxFusedTensors = 32;
struct FusedList {
  int count = 0;
  void* p[kMaxFusedTensors] = {};
  void* g[kMaxFusedTensors] = {};
  void* m[kMaxFusedTensors] = {};
  void* v[kMaxFusedTensors] = {};
  void* vmax[kMaxFusedTensors] = {};
  const float* step[kMaxFusedTensors] = {};
  int64_t numel[kMaxFusedTensors] = {};
  int64_t first_block[kMaxFusedTensors + 1] = {};
};
// Optional device scalars of a fused step: the gradients are divided by *grad_scale (and written back) when it is
// not null; nothing is read or written when found_inf is not null and *found_inf != 0.
struct FusedFlags {
  const float* grad_scale = nullptr;
  const float* found_inf = nullptr;
};
// One Adam/AdamW step (fused::adam_element, or with [per_op_formula] fused::adam_ops_element: the default step's
// arithmetic, whose multiply-adds nvcc may contract) of every parameter in [list].
cudaError_t launch_fused_adam(cudaStream_t s, Elem t, const FusedList& list, const fused::AdamHyper& hyper,
                              FusedFlags flags, bool per_op_formula);
// One SGD step (fused::sgd_element) of every parameter in [list] (m: the momentum buffers, when hyper.has_momentum).
cudaError_t launch_fused_sgd(cudaStream_t s, Elem t, const FusedList& list, const fused::SgdHyper& hyper,
                             FusedFlags flags);

// ---- softmax, losses, extremes (softmax.cu, loss.cu, extreme.cu) ----
// Softmax (or log_softmax) of contiguous [outer, n, inner] blocks of [t] (a float type) along n, into out of
// the same type and layout; computed in float (double for f64) as max, sum of exp(x - max), then
// exp(x - max) / sum or x - max - log(sum).
cudaError_t launch_softmax(cudaStream_t s, Elem t, const void* in, void* out, int64_t outer, int64_t n,
                           int64_t inner, bool log);
// Innermost rows of up to kWarpRowMax elements take a warp each (softmax.cu, softmax_backward.cu); only they have
// the mixed-type launches below.
inline constexpr int64_t kWarpRowMax = 1024;
// softmax(x, dtype=float32) of float16/bfloat16 [t] rows [outer, n] (n <= kWarpRowMax) into float32, the cast
// folded into the read (the values of casting first).
cudaError_t launch_softmax_to_f32(cudaStream_t s, Elem t, const void* in, float* out, int64_t outer, int64_t n,
                                  bool log);
// The gradient of softmax (log_softmax when [log]) from grad and the forward's output, contiguous [outer, n, inner]
// blocks of [t] (a float type), into grad_input of the same type and layout (softmax_backward.cu): per (outer,
// inner), s = sum over n of grad * out (of grad for log), then out * (grad - s) (grad - exp(out) * s), in float
// (double for f64).
cudaError_t launch_softmax_backward(cudaStream_t s, Elem t, const void* grad, const void* out, void* grad_input,
                                    int64_t outer, int64_t n, int64_t inner, bool log);
// The same from float32 grad and output rows [outer, n] (n <= kWarpRowMax) into float16/bfloat16 [out_t]
// (softmax(x, dtype=float32) of a half x): computed in float and rounded once, as computing then casting.
cudaError_t launch_softmax_backward_from_f32(cudaStream_t s, Elem out_t, const float* grad, const float* out,
                                            void* grad_input, int64_t outer, int64_t n, bool log);

// Per-row class losses over log-probabilities lp[rows, C] of [acc] (f32 or f64), weights w[C] (null: all 1).
// Class-index targets (int64, [probs] null): loss[r] = (1 - smoothing) * -w[k] lp[r, k] + smoothing / C *
// sum_c -w[c] lp[r, c] and row_weight[r] = w[k] for k = target[r]; both 0 when k == ignore_index, NaN loss
// when k is out of range (the CPU raises; a kernel cannot without a sync). Probability targets [probs]
// (acc, [rows, C]): loss[r] = -sum_c w[c] (probs[r, c] (1 - smoothing) + smoothing / C) lp[r, c].
struct ClassLoss {
  const void* lp = nullptr;
  const int64_t* target = nullptr;
  const void* probs = nullptr;
  const void* weight = nullptr;
  int64_t rows = 0, classes = 0, ignore_index = -100;
  double smoothing = 0;
};
cudaError_t launch_class_loss(cudaStream_t s, Elem acc, const ClassLoss& a, void* loss, void* row_weight);
// out[0] = sum(loss[rows]) / (row_weight ? sum(row_weight) : denominator), accumulated in double; [acc] as above.
cudaError_t launch_loss_total(cudaStream_t s, Elem acc, const void* loss, const void* row_weight, int64_t rows,
                              double denominator, void* out);
// nll_loss's gradient into out ([batch, classes, inner] of [out_t], a float type; zeroed here): for row r = (b, s)
// with class k = target[r] (not ignore_index, in range), out[b, k, s] = -w[k] * grad[r] ([grad] of one element
// unless [per_row]) divided by the total weight of those rows when [mean]; computed in double, rounded once.
// [grad] and [weight] (null: all 1) are f64 for an f64 [out_t], else f32. Out-of-range classes are skipped (the
// forward gave a NaN loss; the CPU raises). [total] is one double of device scratch (written when [mean]).
struct NllGrad {
  const void* grad = nullptr;
  const int64_t* target = nullptr;
  const void* weight = nullptr;
  int64_t batch = 0, classes = 0, inner = 1, ignore_index = -100;
  bool per_row = false, mean = false;
};
cudaError_t launch_nll_backward(cudaStream_t s, Elem out_t, const NllGrad& a, double* total, void* out);
// out[n, classes] (int64, zero-filled by the caller) gets 1 at (i, index[i]) for indices in range.
cudaError_t launch_one_hot(cudaStream_t s, const int64_t* index, int64_t n, int64_t classes, int64_t* out);

// Per row of a row-major [rows, n] block of [t]: the index of the first largest (smallest) element, a NaN
// counting as the extreme (PyTorch's rule), into indices[rows] (int64) and/or its value into values[rows]
// (type [t]); either pointer may be null.
cudaError_t launch_extreme_rows(cudaStream_t s, Elem t, const void* in, int64_t rows, int64_t n, bool want_max,
                                void* values, int64_t* indices);

// ---- tril/triu (shape.cu) ----
// tril (lower) or triu of contiguous [mats, rows, cols] blocks of [t]: out keeps in[m, i, j] where j - i <= k
// (tril) or j - i >= k (triu), else 0.
cudaError_t launch_triangle(cudaStream_t s, Elem t, const void* in, void* out, int64_t mats, int64_t rows,
                            int64_t cols, int64_t k, bool lower);

// ---- index_select, embedding, index_add (index.cu) ----
// index_select of contiguous in[outer, size, inner] of [t] at index[n] (int64) into out[outer, n, inner].
// Negative indices count from the end; the slice of an index outside [-size, size) is NaN (0 for integer and
// bool types): the CPU raises IndexError, a kernel cannot without a host sync.
cudaError_t launch_index_select(cudaStream_t s, Elem t, const void* in, const int64_t* index, int64_t n, void* out,
                                int64_t outer, int64_t size, int64_t inner);
// index_add into contiguous acc[outer, size, inner] of [acc] (f32, f64 or i64): acc[o, index[i], j] += src[o, i, j]
// with atomics (summation order unspecified); an index outside [0, size) is skipped (the CPU raises).
cudaError_t launch_index_add(cudaStream_t s, Elem acc, void* out, const int64_t* index, int64_t n, const void* src,
                             int64_t outer, int64_t size, int64_t inner);

// ---- layer_norm, var/std (norm.cu) ----
// layer_norm of contiguous in[rows, n] of [t] (a float type): out = (x - mean) / sqrt(var + eps) * w + b with the
// biased variance; statistics and affine in float (double for f64), rounded once. [w], [b]: [n] elements of that
// accumulator type, or null (1 and 0).
cudaError_t launch_layer_norm(cudaStream_t s, Elem t, const void* in, const void* w, const void* b, void* out,
                              int64_t rows, int64_t n, double eps);
// layer_norm's gradients for contiguous g, x [rows, n] of [t] (a float type) and w ([n] of the accumulator type, or
// null): dx [rows, n] of [t] always; dw = sum over rows of g * xhat and db = sum of g ([n] of [t]) when not null. The
// statistics are recomputed as launch_layer_norm's. [workspace]: (2 * rows + 2 * pieces * n) accumulators (float,
// double for f64) when dw or db is wanted, [pieces] from column_pieces(rows, n).
cudaError_t launch_layer_norm_backward(cudaStream_t s, Elem t, const void* g, const void* x, const void* w, void* dx,
                                       void* dw, void* db, void* workspace, int pieces, int64_t rows, int64_t n,
                                       double eps);
// var (std when [take_sqrt]) of each row of row-major [rows, n] of [t] (a float type) into out[rows] of [t]: two
// passes in double, sum((x - mean)^2) / max(0, n - correction) (the CPU kernel's arithmetic).
cudaError_t launch_var_rows(cudaStream_t s, Elem t, const void* in, void* out, int64_t rows, int64_t n,
                            double correction, bool take_sqrt);

// ---- dropout (dropout.cu) ----
// dropout's scaling over contiguous [n] elements of [t] (a float type): out = keep ? x * scale : 0, the product in
// double and rounded once (the CPU kernel's arithmetic).
cudaError_t launch_dropout(cudaStream_t s, Elem t, const void* in, const bool* keep, void* out, int64_t n,
                           double scale);

// ---- 2-D pooling (pool.cu) ----
// Windows of a 2-D pooling of contiguous in[planes, H, W] into out[planes, OH, OW]: output (oh, ow)'s window starts
// at (oh * sh - ph, ow * sw - pw) and takes kh x kw taps dh, dw apart (dilation: max pooling only).
struct PoolGeo {
  int64_t planes = 0, H = 0, W = 0, OH = 0, OW = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};
// Max pooling of [t] (a float type): per output the window's value (into [out], may be null) and its flat plane
// index h * W + w (into [idx], int64, may be null), from the CPU's row-major scan in which a larger value or a NaN
// takes over (compared in float, double for f64; values copied, never rounded).
cudaError_t launch_max_pool(cudaStream_t s, Elem t, const PoolGeo& g, const void* in, void* out, int64_t* idx);
// max_pool2d_backward from the forward's [idx]: grad_in[p, i] = sum of grad_out[p, o] over the outputs o with
// idx[p, o] == i, in double and in row-major output order (the CPU's sum), rounded once into [t].
cudaError_t launch_max_pool_backward(cudaStream_t s, Elem t, const PoolGeo& g, const void* grad_out,
                                     const int64_t* idx, void* grad_in);
// Average pooling in double, rounded once: a window clipped to the input padded by (ph, pw) gives the divisor when
// [include_pad] (else the window clipped to the input does), [divisor] != 0 overrides both; empty windows give 0.
cudaError_t launch_avg_pool(cudaStream_t s, Elem t, const PoolGeo& g, bool include_pad, int64_t divisor,
                            const void* in, void* out);
// Its gradient: each input sums grad_out / divisor over the windows holding it (double, row-major output order).
cudaError_t launch_avg_pool_backward(cudaStream_t s, Elem t, const PoolGeo& g, bool include_pad, int64_t divisor,
                                     const void* grad_out, void* grad_in);
// Adaptive average pooling (k, s, p, d of [g] unused): output (i, j) averages rows [floor(i H / OH),
// ceil((i + 1) H / OH)) and the columns alike, in double; the backward spreads each output evenly over its window.
cudaError_t launch_adaptive_avg_pool(cudaStream_t s, Elem t, const PoolGeo& g, const void* in, void* out);
cudaError_t launch_adaptive_avg_pool_backward(cudaStream_t s, Elem t, const PoolGeo& g, const void* grad_out,
                                              void* grad_in);

// ---- batch_norm (norm.cu) ----
// Per channel c of contiguous x[N, C, S] of [t] (a float type): mean[c] and the biased var[c], two passes in double.
cudaError_t launch_batch_norm_stats(cudaStream_t s, Elem t, const void* x, int64_t N, int64_t C, int64_t S,
                                    double* mean, double* var);
// out = (x - mean[c]) * (1 / sqrt(var[c] + eps)) * w[c] + b[c] in double (no fused multiply-add), rounded once into
// [t]; [w], [b]: C doubles or null (1 and 0).
cudaError_t launch_batch_norm_apply(cudaStream_t s, Elem t, const void* x, const double* mean, const double* var,
                                    const double* w, const double* b, void* out, int64_t N, int64_t C, int64_t S,
                                    double eps);
// running[c] = (1 - momentum) * running[c] + momentum * (stat[c] * factor) in double, rounded into contiguous
// running[C] of [t] (a float type).
cudaError_t launch_running_stat_update(cudaStream_t s, Elem t, void* running, const double* stat, int64_t C,
                                       double momentum, double factor);

}  // namespace amps::rt::cuda
