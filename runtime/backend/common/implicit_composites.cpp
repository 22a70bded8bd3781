#include "runtime/backend/common/implicit_composites.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "runtime/arg_reader.hpp"
#include "runtime/backend/common/activation_composites.hpp"
#include "runtime/backend/common/adaptive_max_composites.hpp"
#include "runtime/backend/common/einsum.hpp"
#include "runtime/backend/common/elementwise_composites.hpp"
#include "runtime/backend/common/elementwise_extra_composites.hpp"
#include "runtime/backend/common/grid_composites.hpp"
#include "runtime/backend/common/linalg_composites.hpp"
#include "runtime/backend/common/linalg_norm_composites.hpp"
#include "runtime/backend/common/loss_composites.hpp"
#include "runtime/backend/common/lu_composites.hpp"
#include "runtime/backend/common/mask_checks.hpp"
#include "runtime/backend/common/math_composites.hpp"
#include "runtime/backend/common/norm_composites.hpp"
#include "runtime/backend/common/pad_composites.hpp"
#include "runtime/backend/common/pool1d_composites.hpp"
#include "runtime/backend/common/pool3d_composites.hpp"
#include "runtime/backend/common/product_composites.hpp"
#include "runtime/backend/common/reduction_composites.hpp"
#include "runtime/backend/common/rnn_composites.hpp"
#include "runtime/backend/common/scatter_extra_composites.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/common/statistics_composites.hpp"
#include "runtime/backend/common/upsample_composites.hpp"
#include "runtime/backend/common/util_composites.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;


// The additive mask of [L, S] lower-triangular attention (is_causal: query i sees keys 0..i).
Tensor causal_bias(int64_t L, int64_t S, DType dt, Device dev) {
  Tensor keep = call_op(O::tril, ones({L, S}, DType::bool_, dev));
  return masked_fill(zeros({L, S}, dt, dev), call_op(O::logical_not, keep), -INFINITY);
}

// softmax along the last dim with rows that are -inf throughout giving zeros (PyTorch's _safe_softmax, which its
// math attention uses once a mask may hide a whole row).
Tensor safe_softmax(const Tensor& s) {
  Tensor hidden = call_op(O::all, eq(s, -INFINITY), int64_t(-1), true);
  return masked_fill(softmax(s, -1), hidden, 0.0);
}

void check_sdpa_inputs(const Tensor& q, const Tensor& k, const Tensor& v) {
  AMPS_CHECK(q.dtype() == k.dtype() && q.dtype() == v.dtype(),
             "Expected query, key, and value to have the same dtype, but got query.dtype: {} key.dtype: {} and "
             "value.dtype: {} instead.", dtype_name(q.dtype()), dtype_name(k.dtype()), dtype_name(v.dtype()));
  AMPS_CHECK(q.dim() >= 2 && k.dim() >= 2 && v.dim() >= 2, "scaled_dot_product_attention: query, key and value "
             "need at least 2 dims ([..., L, E], [..., S, E], [..., S, Ev]); got {}, {} and {}", q.dim(), k.dim(),
             v.dim());
  AMPS_CHECK(q.device() == k.device() && q.device() == v.device(), "Expected query, key, and value to have the "
             "same device type");
}

}  // namespace

Tensor reduce_loss(const Tensor& loss, const std::string& reduction, std::string_view op) {
  if (reduction == "none") return loss;
  if (reduction == "sum") return sum(loss);
  AMPS_CHECK(reduction == "mean", "{}: {} is not a valid value for reduction", op, reduction);
  return mean(loss);
}

// scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, *, scale, enable_gqa):
// softmax(query @ key^T * scale + bias) @ value, bias from the causal mask or attn_mask (bool: True attends;
// float: added), dropout on the attention weights.
Tensors sdpa_math(Args& args) {
  ArgReader a(O::scaled_dot_product_attention, args);
  Tensor q = a.tensor(0), k = a.tensor(1), v = a.tensor(2), mask = a.opt_tensor(3);
  check_sdpa_inputs(q, k, v);
  const double p = a.f64(4);
  const bool causal = a.boolean(5);
  AMPS_CHECK(!(causal && mask.defined()), "_scaled_dot_product_attention: Explicit attn_mask should not be set "
             "when is_causal=True");
  AMPS_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got {}", p);
  if (a.boolean(7) && q.dim() >= 3 && k.dim() >= 3) {
    const int64_t hq = q.size(-3), hk = k.size(-3);
    AMPS_CHECK(hk > 0 && hq % hk == 0 && v.size(-3) == hk, "scaled_dot_product_attention: enable_gqa needs the "
               "query heads ({}) to be a multiple of the key/value heads ({} and {})", hq, hk, v.size(-3));
    if (hq != hk) {  // each key/value head serves hq / hk query heads
      k = call_op(O::repeat_interleave, k, hq / hk, int64_t(-3));
      v = call_op(O::repeat_interleave, v, hq / hk, int64_t(-3));
    }
  }
  const double scale = a.opt_f64(6).value_or(1.0 / std::sqrt(double(q.size(-1))));
  Tensor s = matmul(q * scale, k.transpose(-2, -1));
  const bool masked = causal || mask.defined();
  if (causal) s = s + causal_bias(q.size(-2), k.size(-2), s.dtype(), s.device());
  if (mask.defined())
    s = mask.dtype() == DType::bool_ ? masked_fill(s, call_op(O::logical_not, mask), -INFINITY) : s + mask.to(s.dtype());
  Tensor w = masked ? safe_softmax(s) : softmax(s, -1);
  if (p > 0) w = dropout(w, p, true);
  return {matmul(w, v)};
}

// kl_div(input, target, reduction, log_target): target * (log target - input) pointwise (0 where target is 0), or
// exp(target) * (target - input) for log-space targets; 'batchmean' divides the sum by the batch size.
Tensors kl_div_math(Args& args) {
  ArgReader a(O::kl_div, args);
  const Tensor x = a.tensor(0), t = a.tensor(1);
  const std::string red = a.str(2);
  Tensor loss = a.boolean(3) ? exp(t) * (t - x)
                             : where(eq(t, 0.0), zeros_like(t), t * log(t)) - t * x;
  if (red == "batchmean") return {x.dim() == 0 ? sum(loss) : sum(loss) / double(x.size(0))};
  AMPS_CHECK(red == "none" || red == "sum" || red == "mean", "kl_div: {} is not a valid value for reduction "
             "(none, batchmean, sum or mean)", red);
  return {reduce_loss(loss, red, "kl_div")};
}

// huber_loss(input, target, reduction, delta): 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta); that is
// delta * smooth_l1_loss(beta=delta).
Tensors huber_loss_math(Args& args) {
  ArgReader a(O::huber_loss, args);
  const double delta = a.f64(3);
  AMPS_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  Tensor d = a.tensor(0) - a.tensor(1), ad = abs(d);
  Tensor loss = where(lt(ad, delta), d * d * 0.5, (ad - 0.5 * delta) * delta);
  return {reduce_loss(loss, a.str(2), "huber_loss")};
}

// roll(input, shifts, dims): elements shifted along each dim, wrapping around (the flattened tensor when dims is
// empty); each shift is two narrows and a cat.
Tensors roll_math(Args& args) {
  ArgReader a(O::roll, args);
  Tensor x = a.tensor(0);
  const Dims shifts = a.ints(1), dims = a.ints(2);
  if (dims.empty()) {
    AMPS_CHECK(shifts.size() == 1, "roll: shifts and dims must align. shifts: {}, dims:{}", shifts.size(), dims.size());
    Args flat{x.reshape({-1}), Dims{shifts[0]}, Dims{0}};
    return {roll_math(flat)[0].reshape(x.sizes())};
  }
  AMPS_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(),
             dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    AMPS_CHECK_INDEX(x.dim() > 0, "Dimension specified as {} but tensor has no dimensions", dims[i]);
    const int64_t d = wrap_dim(dims[i], x.dim()), n = x.size(d);
    if (n == 0) continue;
    const int64_t s = ((shifts[i] % n) + n) % n;
    if (s != 0) x = cat({x.narrow(d, n - s, s), x.narrow(d, 0, n - s)}, d);
  }
  return {x.is_same(a.tensor(0)) ? x.clone() : x};
}

// flip(input, dims): each of dims read backwards (one index_select per dim); PyTorch's error for a repeated dim.
Tensors flip_math(Args& args) {
  ArgReader a(O::flip, args);
  Tensor x = a.tensor(0);
  const Dims dims = a.ints(1);
  std::set<int64_t> unique;
  for (int64_t dim : dims) unique.insert(wrap_dim(dim, std::max<int64_t>(x.dim(), 1)));
  AMPS_CHECK(unique.size() == dims.size(), "dims has duplicates, original flip dims size={}, but unique flip dims "
             "size={}", dims.size(), unique.size());
  for (int64_t d : unique) {
    if (x.dim() == 0) continue;
    std::vector<double> back(size_t(x.size(d)));
    for (size_t i = 0; i < back.size(); ++i) back[i] = double(back.size() - 1 - i);
    x = index_select(x, d, Tensor::from_doubles(back, {x.size(d)}, DType::int64).to(x.device()));
  }
  return {x.is_same(a.tensor(0)) ? x.clone() : x};
}

// diag(input, diagonal): a 1-D input laid on the diagonal of a zero square matrix of side n + |diagonal|, or a 2-D
// input's diagonal copied out.
Tensors diag_math(Args& args) {
  ArgReader a(O::diag, args);
  const Tensor x = a.tensor(0);
  const int64_t k = a.i64(1);
  AMPS_CHECK(x.dim() == 1 || x.dim() == 2, "diag(): Supports 1D or 2D tensors. Got {}D", x.dim());
  if (x.dim() == 2) return {call_op(O::diagonal, x, k, int64_t(0), int64_t(1)).clone()};
  const int64_t n = x.size(0) + std::abs(k);
  return {call_op(O::diagonal_backward, x, Dims{n, n}, k, int64_t(0), int64_t(1))};
}

// masked_select(input, mask): input and the bool (or uint8) mask broadcast together, the selected elements in
// row-major order (an index_select of the flattened input at the mask's nonzero positions: a host read of the mask
// on a device, as PyTorch's).
Tensors masked_select_math(Args& args) {
  ArgReader a(O::masked_select, args);
  const Tensor& x = a.tensor(0);
  const Tensor& mask = a.tensor(1);
  AMPS_CHECK(mask.dtype() == DType::bool_ || mask.dtype() == DType::uint8,  // uint8: deprecated (the interp warns)
             "masked_select: expected BoolTensor or ByteTensor for mask");
  check_byte_mask(mask);
  const Dims shape = broadcast_shapes(x.sizes(), mask.sizes(), "masked_select");
  const Tensor where_true = call_op(O::nonzero, mask.expand(shape).reshape({-1})).reshape({-1});
  return {index_select(x.expand(shape).reshape({-1}), 0, where_true)};
}

// repeat_interleave(input, repeats, dim): each element repeated [repeats] times in place along dim (the flattened
// input when dim is None).
Tensors repeat_interleave_math(Args& args) {
  ArgReader a(O::repeat_interleave, args);
  Tensor x = a.tensor(0);
  const int64_t r = a.i64(1);
  AMPS_CHECK(r >= 0, "repeats can not be negative");
  std::optional<int64_t> dim = a.opt_i64(2);
  AMPS_CHECK_INDEX(!dim || x.dim() > 0, "Dimension specified as {} but tensor has no dimensions", *dim);
  if (!dim) {
    x = x.reshape({-1});
    dim = 0;
  }
  const int64_t d = wrap_dim(*dim, x.dim());
  Dims expanded = x.sizes(), merged = x.sizes();
  expanded.insert(expanded.begin() + d + 1, r);
  merged[size_t(d)] *= r;
  return {x.unsqueeze(d + 1).expand(expanded).reshape(merged)};
}

std::span<const ImplicitComposite> implicit_composites() {
  constexpr uint32_t all = cpu::kAllDTypes, floats = cpu::kFloatDTypes;
  static const ImplicitComposite table[] = {
      {O::scaled_dot_product_attention, sdpa_math, floats},
      {O::kl_div, kl_div_math, floats},
      {O::huber_loss, huber_loss_math, floats},
      {O::einsum, einsum_math, all},
      {O::roll, roll_math, all},
      {O::flip, flip_math, all},
      {O::repeat_interleave, repeat_interleave_math, all},
      {O::diag, diag_math, all},
      {O::masked_select, masked_select_math, all},
      {O::elu, elu_math, floats},
      {O::selu, selu_math, floats},
      {O::celu, celu_math, floats},
      {O::hardtanh, hardtanh_math, floats},
      {O::relu6, relu6_math, floats},
      {O::hardsigmoid, hardsigmoid_math, floats},
      {O::hardswish, hardswish_math, floats},
      {O::mish, mish_math, floats},
      {O::logsigmoid, logsigmoid_math, floats},
      {O::softsign, softsign_math, floats},
      {O::normalize, normalize_math, floats},
      {O::lstm_cell, lstm_cell_math, floats},
      {O::max_pool1d, max_pool1d_math, floats},
      {O::margin_ranking_loss, margin_ranking_loss_math, floats},
      {O::hinge_embedding_loss, hinge_embedding_loss_math, floats},
      {O::soft_margin_loss, soft_margin_loss_math, floats},
      {O::triplet_margin_loss, triplet_margin_loss_math, floats},
      {O::poisson_nll_loss, poisson_nll_loss_math, floats},
      {O::multi_margin_loss, multi_margin_loss_math, floats},
      {O::avg_pool1d, avg_pool1d_math, floats},
      {O::adaptive_avg_pool1d, adaptive_avg_pool1d_math, floats},
      {O::logaddexp, logaddexp_math, all},
      {O::logaddexp2, logaddexp2_math, all},
      {O::hypot, hypot_math, all},
      {O::sinc, sinc_math, all},
      {O::deg2rad, deg2rad_math, all},
      {O::rad2deg, rad2deg_math, all},
      {O::xlogy, xlogy_math, all},
      {O::logit, logit_math, all},
      {O::heaviside, heaviside_math, all},
      {O::float_power, float_power_math, all},
      {O::mvlgamma, mvlgamma_math, all},
      {O::special_entr, special_entr_math, all},
      {O::special_ndtr, special_ndtr_math, all},
      {O::special_ndtri, special_ndtri_math, all},
      {O::special_xlog1py, special_xlog1py_math, all},
      {O::hardshrink, hardshrink_math, floats},
      {O::softshrink, softshrink_math, floats},
      {O::threshold, threshold_math, all},
      {O::max_pool3d, max_pool3d_math, floats},
      {O::max_pool3d_with_indices, max_pool3d_with_indices_math, floats},
      {O::avg_pool3d, avg_pool3d_math, floats},
      {O::adaptive_avg_pool3d, adaptive_avg_pool3d_math, floats},
      {O::adaptive_max_pool1d, adaptive_max_pool1d_math, floats},
      {O::adaptive_max_pool2d, adaptive_max_pool2d_math, floats},
      {O::adaptive_max_pool3d, adaptive_max_pool3d_math, floats},
      {O::max_unpool2d, max_unpool2d_math, floats},
      {O::max_unpool3d, max_unpool3d_math, floats},
      {O::gru_cell, gru_cell_math, floats},
      {O::rnn_tanh_cell, rnn_tanh_cell_math, floats},
      {O::rnn_relu_cell, rnn_relu_cell_math, floats},
      {O::pad, pad_math, all},
      {O::constant_pad_nd, constant_pad_nd_math, all},
      {O::reflection_pad1d, index_pad_op_math<O::reflection_pad1d>, all},
      {O::reflection_pad2d, index_pad_op_math<O::reflection_pad2d>, all},
      {O::reflection_pad3d, index_pad_op_math<O::reflection_pad3d>, all},
      {O::replication_pad1d, index_pad_op_math<O::replication_pad1d>, all},
      {O::replication_pad2d, index_pad_op_math<O::replication_pad2d>, all},
      {O::replication_pad3d, index_pad_op_math<O::replication_pad3d>, all},
      {O::interpolate, interpolate_math, all},
      {O::upsample_nearest1d, upsample_op_math<O::upsample_nearest1d>, all},
      {O::upsample_nearest2d, upsample_op_math<O::upsample_nearest2d>, all},
      {O::upsample_nearest3d, upsample_op_math<O::upsample_nearest3d>, all},
      {O::upsample_linear1d, upsample_op_math<O::upsample_linear1d>, all},
      {O::upsample_bilinear2d, upsample_op_math<O::upsample_bilinear2d>, all},
      {O::upsample_trilinear3d, upsample_op_math<O::upsample_trilinear3d>, all},
      {O::affine_grid_generator, affine_grid_generator_math, all},
      {O::grid_sampler, grid_sampler_math, all},
      {O::frac, frac_math, floats},
      {O::clamp_tensor, clamp_tensor_math, all},
      {O::where_condition, where_condition_math, all},
      {O::tile, tile_math, all},
      {O::bernoulli, bernoulli_math, floats},
      {O::nansum, nansum_math, all},
      {O::nanmean, nanmean_math, all},
      {O::count_nonzero, count_nonzero_math, all},
      {O::aminmax, aminmax_math, all},
      {O::median, median_math, all},
      {O::median_dim, median_dim_math, all},
      {O::kthvalue, kthvalue_math, all},
      {O::vdot, vdot_math, all},
      {O::cross, cross_math, all},
      {O::bilinear, bilinear_math, floats},
      {O::dist, dist_math, floats},
      {O::pdist, pdist_math, floats},
      {O::renorm, renorm_math, floats},
      {O::rms_norm, rms_norm_math, floats},
      {O::quantile, quantile_math, all},
      {O::nanquantile, nanquantile_math, all},
      {O::bincount, bincount_math, all},
      {O::histc, histc_math, all},
      {O::meshgrid, meshgrid_math, all},
      {O::det, det_math, all},
      {O::logdet, logdet_math, all},
      {O::slogdet, slogdet_math, all},
      {O::matrix_power, matrix_power_math, all},
      {O::tensordot, tensordot_math, all},
      {O::chain_matmul, chain_matmul_math, all},
      {O::cholesky_solve, cholesky_solve_math, all},
      {O::cholesky_inverse, cholesky_inverse_math, all},
      {O::triangular_solve, triangular_solve_math, all},
      {O::pinverse, pinverse_math, all},
      {O::linalg_eigvalsh, linalg_eigvalsh_math, all},
      {O::linalg_qr, linalg_qr_math, all},
      {O::linalg_svd, linalg_svd_math, all},
      {O::linalg_svdvals, linalg_svdvals_math, all},
      {O::linalg_vector_norm, linalg_vector_norm_math, all},
      {O::linalg_matrix_norm, linalg_matrix_norm_math, all},
      {O::linalg_matrix_norm_str_ord, linalg_matrix_norm_str_ord_math, all},
      {O::linalg_norm, linalg_norm_math, all},
      {O::linalg_norm_ord_str, linalg_norm_ord_str_math, all},
      {O::linalg_multi_dot, linalg_multi_dot_math, all},
      {O::linalg_vecdot, linalg_vecdot_math, all},
      {O::linalg_matrix_rank, linalg_matrix_rank_math, all},
      {O::linalg_pinv, linalg_pinv_math, all},
      {O::linalg_lstsq, linalg_lstsq_math, all},
      {O::linalg_cross, linalg_cross_math, all},
      {O::linalg_lu_factor, linalg_lu_factor_math, all},
      {O::linalg_lu, linalg_lu_math, all},
      {O::lu_unpack, lu_unpack_math, all},
      {O::linalg_lu_solve, linalg_lu_solve_math, all},
      {O::lu_solve, lu_solve_math, all},
      {O::_lu_with_info, lu_with_info_math, all},
      {O::matrix_exp, matrix_exp_math, all},
      // shape, indexing and statistics (shape_composites.hpp)
      {O::atleast_1d, atleast_math<1>, all},
      {O::atleast_2d, atleast_math<2>, all},
      {O::atleast_3d, atleast_math<3>, all},
      {O::hstack, hstack_math, all},
      {O::vstack, vstack_math, all},
      {O::row_stack, row_stack_math, all},
      {O::dstack, dstack_math, all},
      {O::column_stack, column_stack_math, all},
      {O::broadcast_to, broadcast_to_math, all},
      {O::broadcast_tensors, broadcast_tensors_math, all},
      {O::rot90, rot90_math, all},
      {O::fliplr, fliplr_math, all},
      {O::flipud, flipud_math, all},
      {O::kron, kron_math, all},
      {O::block_diag, block_diag_math, all},
      {O::cartesian_prod, cartesian_prod_math, all},
      {O::take, take_math, all},
      {O::take_along_dim, take_along_dim_math, all},
      {O::index_fill, index_fill_math, all},
      {O::index_fill_, index_fill__math, all},
      {O::diag_embed, diag_embed_math, all},
      {O::tril_indices, tril_indices_math, all},
      {O::triu_indices, triu_indices_math, all},
      {O::unfold_backward, unfold_backward_math, all},
      {O::diff, diff_math, all},
      {O::logcumsumexp, logcumsumexp_math, all},
      {O::var_mean, var_mean_math<false>, all},
      {O::std_mean, var_mean_math<true>, all},
      {O::cov, cov_math, all},
      {O::corrcoef, corrcoef_math, all},
      {O::bucketize, bucketize_math, all},
      {O::isin, isin_math, all},
      // the scatter family beyond scatter/scatter_add (scatter_extra_composites.hpp)
      {O::select_scatter, select_scatter_math, all},
      {O::slice_scatter, slice_scatter_math, all},
      {O::diagonal_scatter, diagonal_scatter_math, all},
      {O::index_put, index_put_math, all},
      {O::index_put_, index_put__math, all},
      {O::masked_scatter, masked_scatter_math, all},
      {O::masked_scatter_, masked_scatter__math, all},
      {O::put, put_math, all},
      {O::put_, put__math, all},
      {O::scatter_reduce_, scatter_reduce__math, all},
      {O::index_reduce, index_reduce_math, all},
      {O::index_reduce_, index_reduce__math, all},
      {O::as_strided, as_strided_math, all},  // a view (its gradient: scatter_extra_rules.cpp)
      {O::as_strided_scatter, as_strided_scatter_math, all},
      // PyTorch's torch-namespace reductions, draws and creation functions (util_composites.hpp)
      {O::msort, msort_math, all},
      {O::mode, mode_math, all},
      {O::nanmedian, nanmedian_math, all},
      {O::nanmedian_dim, nanmedian_dim_math, all},
      {O::normal_tensor_tensor, normal_tensor_tensor_math, all},
      {O::normal_tensor_float, normal_tensor_float_math, all},
      {O::normal_float_float, normal_float_float_math, all},
      {O::randint_like, randint_like_math, all},
      {O::randint_like_low, randint_like_math, all},
      {O::randint_high, randint_high_math, all},
      {O::random_, random__math, all},
      {O::random__to, random__to_math, all},
      {O::random__from, random__from_math, all},
      {O::cauchy_, cauchy__math, all},
      {O::exponential_, exponential__math, all},
      {O::geometric_, geometric__math, all},
      {O::log_normal_, log_normal__math, all},
      {O::bartlett_window, bartlett_window_math, all},
      {O::blackman_window, blackman_window_math, all},
      {O::hamming_window, hamming_window_math, all},
      {O::hann_window, hann_window_math, all},
      {O::kaiser_window, kaiser_window_math, all},
      {O::scalar_tensor, scalar_tensor_math, all},
      {O::vander, vander_math, all},
      {O::combinations, combinations_math, all},
      {O::trapezoid, trapezoid_math, all},
      {O::trapezoid_dx, trapezoid_dx_math, all},
      {O::cumulative_trapezoid, cumulative_trapezoid_math, all},
      {O::cumulative_trapezoid_dx, cumulative_trapezoid_dx_math, all},
      // elementwise extras (elementwise_extra_composites.hpp)
      {O::fmax, fmax_math, all},
      {O::fmin, fmin_math, all},
      {O::copysign, copysign_math, all},
      {O::ldexp, ldexp_math, all},
      {O::isneginf, isneginf_math, all},
      {O::isposinf, isposinf_math, all},
      {O::isreal, isreal_math, all},
      {O::positive, positive_math, all},
      {O::rsub, rsub_math, all},
      {O::logical_xor, logical_xor_math, all},
      {O::clamp_min, clamp_min_math, all},
      {O::clamp_max, clamp_max_math, all},
      {O::fill, fill_math, all},
      {O::round_decimals, round_decimals_math, all},
      {O::polygamma_method, polygamma_method_math, all},
  };
  return table;
}

namespace {

// The kernel of every implicit composite: the definition listed for the op it is called for.
Tensors composite_kernel(const ArgReader& a, const KernelContext&) {
  static const auto by_op = [] {
    std::array<Tensors (*)(Args&), size_t(op_count)> m{};
    for (const ImplicitComposite& c : implicit_composites()) m[size_t(c.op)] = c.math;
    return m;
  }();
  Args args = a.args();
  return by_op[size_t(a.op())](args);
}

}  // namespace

void register_implicit_composites(cpu::KernelTable& t) {
  for (const ImplicitComposite& c : implicit_composites()) t.add(c.op, composite_kernel, c.dtypes);
}

}  // namespace amps::rt::common
