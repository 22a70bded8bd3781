// Emulated devices keep their tag: every op family run on xla tensors returns xla tensors, checked by a
// dispatch layer that inspects every result; a coverage check makes sure every script-visible op ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::make;
using test::wavy;

const Device kXla{DeviceType::xla, 0};

// Whether [v] is an xla tensor, holds one, or is the xla device (a factory's device=).
bool mentions_xla(const IValue& v) {
  if (v.is_tensor()) return v.tensor().defined() && v.tensor().device() == kXla;
  if (v.kind() == IValue::Kind::tensor_list)
    return std::any_of(v.tensors().begin(), v.tensors().end(), [](const Tensor& t) { return t.device() == kXla; });
  return v.kind() == IValue::Kind::device && v.device() == kXla;
}

// Records every op dispatched with xla arguments, and those that returned a tensor not tagged xla
// (explicit moves off the device, such as to_doubles()'s, excepted).
class DeviceProbe : public DispatchLayer {
 public:
  std::set<OpId> seen;
  std::vector<std::string> wrong;
  std::string_view name() const override { return "device_probe"; }
  Tensors call(OpId op, Args& args, const Next& next) override {
    const bool moves_off = op == OpId::to && args[2].kind() == IValue::Kind::device && args[2].device() != kXla;
    const bool xla = !moves_off && std::any_of(args.begin(), args.end(), mentions_xla);
    Tensors r = next(op, args);
    if (!xla) return r;
    seen.insert(op);
    for (const Tensor& t : r)
      if (t.defined() && t.device() != kXla) wrong.push_back(std::string(op_id_name(op)) + " -> " + device_str(t.device()));
    return r;
  }
};

Tensor X(const Dims& s, DType dt = DType::float32, double phase = 0.0) {
  return make(wavy(numel_of(s), phase), s, dt, kXla);
}
Tensor Xv(const std::vector<double>& v, const Dims& s, DType dt = DType::float32) { return make(v, s, dt, kXla); }
void run(OpId op, Args a) { dispatch(op, std::move(a)); }
Tensor run_one(OpId op, Args a) { return dispatch(op, std::move(a))[0]; }

void elementwise_family() {
  Tensor a = X({2, 3}), b = X({2, 3}, DType::float32, 1.0), pos = Xv({1, 2, 3, 4, 5, 6}, {2, 3});
  for (OpId op : {OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::remainder, OpId::floor_divide, OpId::maximum,
                  OpId::minimum, OpId::eq, OpId::ne, OpId::lt, OpId::le, OpId::gt, OpId::ge, OpId::logical_and,
                  OpId::logical_or, OpId::isclose})
    run(op, {a, b});
  run(OpId::pow, {pos, b});
  run(OpId::atan2, {a, b});
  run(OpId::add, {a, 2.0});
  run(OpId::mul, {a, Tensor::scalar(3.0)});  // a 0-dim cpu tensor joins the xla op
  for (OpId op : {OpId::add_, OpId::sub_, OpId::mul_, OpId::div_}) run(op, {a.clone(), b});
  run(OpId::pow_, {pos.clone(), b});
  for (OpId op : {OpId::neg, OpId::abs, OpId::square, OpId::sqrt, OpId::rsqrt, OpId::exp, OpId::log, OpId::log2,
                  OpId::log1p, OpId::expm1, OpId::sin, OpId::cos, OpId::tanh, OpId::sigmoid, OpId::relu, OpId::gelu,
                  OpId::silu, OpId::leaky_relu, OpId::softplus, OpId::erf, OpId::floor, OpId::ceil, OpId::round,
                  OpId::trunc, OpId::sign, OpId::reciprocal, OpId::isfinite, OpId::isnan, OpId::isinf,
                  OpId::logical_not, OpId::nan_to_num, OpId::tan, OpId::sinh, OpId::cosh, OpId::asin, OpId::acos,
                  OpId::atan, OpId::log10, OpId::erfinv})
    run(op, {op == OpId::log || op == OpId::log10 || op == OpId::sqrt || op == OpId::rsqrt || op == OpId::log2 ? pos : a});
  for (OpId op : {OpId::neg_, OpId::abs_, OpId::sqrt_, OpId::exp_, OpId::log_, OpId::tanh_, OpId::sigmoid_,
                  OpId::relu_, OpId::silu_, OpId::leaky_relu_, OpId::nan_to_num_})
    run(op, {pos.clone()});
  run(OpId::clamp, {a, -0.5, 0.5});
  run(OpId::clamp_, {a.clone(), -0.5, 0.5});
  run(OpId::prelu, {a, X({3})});
}

void ternary_family() {
  Tensor a = X({2, 3}), b = X({2, 3}, DType::float32, 1.0), c = Xv({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor mask = Xv({1, 0, 1, 0, 1, 0}, {2, 3}, DType::bool_);
  run(OpId::where, {mask, a, b});
  run(OpId::masked_fill, {a, mask, 1.0});
  run(OpId::masked_fill_, {a.clone(), mask, 1.0});
  for (OpId op : {OpId::addcmul, OpId::addcmul_, OpId::addcdiv, OpId::addcdiv_}) run(op, {a.clone(), b, c});
  run(OpId::lerp, {a, b, 0.5});
  run(OpId::lerp_, {a.clone(), b, c});
}

void reduction_family() {
  Tensor a = X({2, 3, 4});
  for (OpId op : {OpId::sum, OpId::mean, OpId::prod, OpId::max, OpId::min, OpId::amax, OpId::amin, OpId::argmax,
                  OpId::argmin, OpId::var, OpId::std, OpId::norm, OpId::all, OpId::any})
    run(op, {a});
  run(OpId::sum, {a, Dims{0, 2}});
  run(OpId::mean, {a, Dims{1}, true});
  for (OpId op : {OpId::max_dim, OpId::min_dim, OpId::cumsum, OpId::cumprod}) run(op, {a, int64_t(1)});
  for (OpId op : {OpId::sort, OpId::argsort}) run(op, {a});
  run(OpId::topk, {a, int64_t(1)});
  run(OpId::scaled_dot_product_attention, {a, a, a});
  for (OpId op : {OpId::kl_div, OpId::huber_loss}) run(op, {a, abs(a)});
  for (OpId op : {OpId::elu, OpId::selu, OpId::celu, OpId::hardtanh, OpId::relu6, OpId::hardsigmoid, OpId::hardswish,
                  OpId::mish, OpId::logsigmoid, OpId::softsign, OpId::normalize})
    run(op, {a});
  for (OpId op : {OpId::asinh, OpId::atanh, OpId::erfc, OpId::exp2, OpId::sinc, OpId::deg2rad, OpId::rad2deg,
                  OpId::logit, OpId::hardshrink, OpId::softshrink})
    run(op, {a});
  run(OpId::acosh, {abs(a) + 1.0});
  for (OpId op : {OpId::lgamma, OpId::digamma}) run(op, {abs(a) + 0.5});
  run(OpId::polygamma, {int64_t(2), abs(a) + 0.5});
  run(OpId::mvlgamma, {abs(a) + 2.0, int64_t(2)});
  for (OpId op : {OpId::special_entr, OpId::special_ndtr}) run(op, {a});
  run(OpId::special_ndtri, {sigmoid(a)});
  run(OpId::special_xlog1py, {a, abs(a)});
  run(OpId::threshold, {a, 0.1, -1.0});
  for (OpId op : {OpId::logaddexp, OpId::logaddexp2, OpId::hypot, OpId::xlogy, OpId::heaviside, OpId::float_power})
    run(op, {a, abs(a)});
  run(OpId::max_pool1d, {X({2, 3, 9}), Dims{3}});
  run(OpId::avg_pool1d, {X({3, 8}), Dims{2}});
  run(OpId::adaptive_avg_pool1d, {X({2, 3, 7}), Dims{3}});
  const Tensor x = X({2, 3}), h = X({2, 4}, DType::float32, 1.0);
  run(OpId::lstm_cell, {x, std::vector<Tensor>{h, h}, X({16, 3}), X({16, 4}), X({16}), X({16})});
  run(OpId::gru_cell, {x, h, X({12, 3}), X({12, 4}), X({12}), X({12})});
  for (OpId op : {OpId::rnn_tanh_cell, OpId::rnn_relu_cell}) run(op, {x, h, X({4, 3}), X({4, 4})});
  run(OpId::pad, {a, Dims{1, 1, 2, 0}, std::string("reflect")});
  run(OpId::constant_pad_nd, {a, Dims{1, 2}});
  run(OpId::einsum, {std::string("ijk,ikl->ijl"), std::vector<Tensor>{a, a.transpose(1, 2)}});
  run(OpId::roll, {a, Dims{1}, Dims{0}});
  run(OpId::flip, {a, Dims{0}});
  run(OpId::repeat_interleave, {a, int64_t(2)});
  run(OpId::interpolate, {a.unsqueeze(0), IValue(), 2.0, std::string("bilinear")});
  run(OpId::multinomial, {abs(a).reshape({6, 4}), int64_t(2)});
  run(OpId::logsumexp, {a, Dims{1}});
  run(OpId::sum, {X({}), Dims{}});
}

void shape_family() {
  Tensor a = X({2, 3}), b = X({2, 3}, DType::float32, 1.0);
  run(OpId::view, {a, Dims{6}});
  run(OpId::view_dtype, {a, DType::int32});
  run(OpId::reshape, {a.t(), Dims{6}});
  run(OpId::transpose, {a, int64_t(0), int64_t(1)});
  for (OpId op : {OpId::t, OpId::contiguous, OpId::detach, OpId::clone, OpId::squeeze, OpId::flatten}) run(op, {a.t()});
  run(OpId::permute, {a, Dims{1, 0}});
  run(OpId::slice, {a, int64_t(1), int64_t(0), int64_t(2)});
  run(OpId::select, {a, int64_t(0), int64_t(1)});
  run(OpId::expand, {X({1, 3}), Dims{4, 3}});
  run(OpId::unsqueeze, {a, int64_t(0)});
  run(OpId::narrow, {a, int64_t(1), int64_t(0), int64_t(2)});
  run(OpId::to, {a, DType::float64});
  run(OpId::copy_, {a.clone(), b});
  run(OpId::cat, {std::vector<Tensor>{a, b}});
  run(OpId::stack, {std::vector<Tensor>{a, b}, int64_t(1)});
  run(OpId::split, {a, int64_t(1)});
  run(OpId::split_sizes, {a, Dims{1, 1}});
  run(OpId::chunk, {a, int64_t(2), int64_t(1)});
  run(OpId::tril, {a});
  run(OpId::triu, {a, int64_t(1)});
  run(OpId::diagonal, {a, int64_t(1)});
  run(OpId::diag, {a, int64_t(-1)});
  run(OpId::diag, {X({3}), int64_t(1)});
}

// The scatter family beyond scatter/scatter_add, on a [3, 4] xla tensor [a] and an index [idx] of dim 0's rows.
void scatter_extra_family(const Tensor& a, const Tensor& idx) {
  run(OpId::select_scatter, {a, X({4}), int64_t(0), int64_t(1)});
  run(OpId::slice_scatter, {a, X({3, 2}), int64_t(1), int64_t(0), IValue(), int64_t(2)});
  run(OpId::diagonal_scatter, {a, X({3}), int64_t(1), int64_t(0), int64_t(1)});
  for (OpId op : {OpId::index_put, OpId::index_put_}) run(op, {a.clone(), std::vector<Tensor>{idx}, X({2, 4}), true});
  const Tensor mask = Xv({1, 0, 1, 1}, {4}, DType::bool_);
  for (OpId op : {OpId::masked_scatter, OpId::masked_scatter_}) run(op, {a.clone(), mask, X({12})});
  for (OpId op : {OpId::put, OpId::put_}) run(op, {a.clone(), idx, X({2}), false});
  const Tensor pos = Xv({0, 1, 2, 0, 2, 1, 0, 1}, {2, 4}, DType::int64);
  for (OpId op : {OpId::scatter_reduce, OpId::scatter_reduce_}) run(op, {a.clone(), int64_t(0), pos, X({2, 4}), "amax", true});
  for (OpId op : {OpId::index_reduce, OpId::index_reduce_}) run(op, {a.clone(), int64_t(0), idx, X({2, 4}), "mean", false});
  run(OpId::as_strided, {a, Dims{2, 2}, Dims{1, 4}, int64_t(1)});
  run(OpId::as_strided_scatter, {a, X({2, 2}), Dims{2, 2}, Dims{1, 4}, IValue()});
}

void indexing_family() {
  Tensor a = X({3, 4}), idx = Xv({2, 0}, {2}, DType::int64), w = X({5, 3});
  run(OpId::index_select, {a, int64_t(0), idx});
  run(OpId::index_select, {X({}), int64_t(0), Xv({0}, {1}, DType::int64)});
  run(OpId::gather, {a, int64_t(1), Xv({0, 1, 2, 3, 3, 2, 1, 0, 0, 0, 0, 0}, {3, 4}, DType::int64)});
  run(OpId::index_copy, {a, int64_t(0), idx, X({2, 4})});
  const Tensor pos = Xv({0, 1, 2, 3, 3, 2, 1, 0}, {2, 4}, DType::int64);
  for (OpId op : {OpId::scatter, OpId::scatter_add}) {
    run(op, {a, int64_t(1), pos, X({2, 4})});
    run(op, {a, int64_t(1), pos, Tensor::scalar(1.5)});  // a number: scatter's value form
  }
  for (OpId op : {OpId::nonzero, OpId::argwhere}) run(op, {Xv({0, 1, 0, 2, 0, 0}, {2, 3})});
  run(OpId::masked_select, {a, Xv({1, 0, 1, 1}, {4}, DType::bool_)});
  run(OpId::_unique2, {Xv({3, 1, 3, 2}, {2, 2}), true, true, true});
  for (OpId op : {OpId::scatter_, OpId::scatter_add_}) run(op, {a.clone(), int64_t(0), Xv({0, 1, 2, 0, 2, 1, 0, 1}, {2, 4}, DType::int64), X({2, 4})});
  run(OpId::index_copy_, {a.clone(), int64_t(0), idx, X({2, 4})});
  run(OpId::index_select, {a, int64_t(1), Tensor::scalar(int64_t(2))});
  run(OpId::embedding, {idx, w});
  run(OpId::embedding, {Xv({4}, {}, DType::int64), w});
  run(OpId::one_hot, {idx});
  scatter_extra_family(a, idx);
}

void factory_family() {
  Tensor a = X({2, 3});
  for (OpId op : {OpId::zeros_like, OpId::ones_like, OpId::empty_like, OpId::rand_like, OpId::randn_like}) run(op, {a});
  run(OpId::full_like, {a, 2.5});
  run(OpId::zero_, {a.clone()});
  run(OpId::fill_, {a.clone(), 2.0});
  for (OpId op : {OpId::zeros, OpId::ones, OpId::empty, OpId::rand, OpId::randn}) run(op, {Dims{2, 2}, IValue(), kXla});
  run(OpId::full, {Dims{2}, 1.5, IValue(), kXla});
  run(OpId::arange, {int64_t(0), int64_t(4), int64_t(1), IValue(), kXla});
  run(OpId::linspace, {0.0, 1.0, int64_t(5), IValue(), kXla});
  run(OpId::eye, {int64_t(3), IValue(), IValue(), kXla});
  run(OpId::randint, {int64_t(0), int64_t(5), Dims{3}, IValue(), kXla});
  run(OpId::randperm, {int64_t(4), IValue(), kXla});
  for (OpId op : {OpId::normal_, OpId::uniform_, OpId::bernoulli_}) run(op, {a.clone()});
  run(OpId::dropout, {a, 0.5, true});
  run(OpId::native_dropout, {a, 0.5, true});
}

void matmul_family() {
  Tensor m = X({2, 3}), n = X({3, 2}, DType::float32, 1.0), sq = X({2, 2}), v = X({3}), v2 = X({2});
  Tensor b1 = X({2, 2, 3}), b2 = X({2, 3, 2}, DType::float32, 0.5);
  for (OpId op : {OpId::matmul, OpId::mm}) run(op, {m, n});
  run(OpId::bmm, {b1, b2});
  run(OpId::addmm, {sq, m, n});
  run(OpId::addmm_, {sq.clone(), m, n});
  run(OpId::addbmm, {sq, b1, b2});
  run(OpId::baddbmm, {X({2, 2, 2}), b1, b2});
  run(OpId::addmv, {v2, m, v});
  run(OpId::addr, {X({2, 3}), v2, v});
  run(OpId::dot, {v, v});
  run(OpId::mv, {m, v});
  run(OpId::outer, {v2, v});
  run(OpId::linear, {m, X({4, 3}), X({4})});
  run(OpId::matmul, {m.to(DType::float64), n.to(DType::float64)});
}

void conv_pool_family() {
  for (DType dt : {DType::float32, DType::float64}) {
    run(OpId::conv1d, {X({1, 2, 5}, dt), X({3, 2, 2}, dt), X({3}, dt)});
    run(OpId::conv2d, {X({1, 2, 5, 4}, dt), X({3, 2, 2, 2}, dt)});
    run(OpId::conv3d, {X({1, 2, 3, 3, 3}, dt), X({3, 2, 2, 2, 2}, dt)});
    run(OpId::conv_transpose1d, {X({1, 2, 4}, dt), X({2, 3, 2}, dt)});
    run(OpId::conv_transpose2d, {X({1, 2, 3, 3}, dt), X({2, 3, 2, 2}, dt)});
    run(OpId::conv_transpose3d, {X({1, 2, 2, 2, 2}, dt), X({2, 3, 2, 2, 2}, dt)});
    Tensor img = X({1, 2, 4, 4}, dt);
    run(OpId::max_pool2d, {img, Dims{2}});
    run(OpId::max_pool2d_with_indices, {img, Dims{2}});
    run(OpId::max_pool2d_backward, {X({1, 2, 2, 2}, dt), img, Dims{2}, Dims{}, Dims{0}, Dims{1}, false});
    for (OpId op : {OpId::convolution_backward_input, OpId::convolution_backward_weight})
      run(op, {X({1, 3, 4, 3}, dt), op == OpId::convolution_backward_input ? X({3, 2, 2, 2}, dt) : X({1, 2, 5, 4}, dt),
               op == OpId::convolution_backward_input ? Dims{1, 2, 5, 4} : Dims{3, 2, 2, 2}, Dims{1}, Dims{0}, Dims{1},
               false, Dims{}, int64_t(1)});
    run(OpId::avg_pool2d, {img, Dims{2}});
    run(OpId::avg_pool2d, {img, Dims{2}, Dims{}, Dims{0}, false, true, int64_t(3)});
    run(OpId::adaptive_avg_pool2d, {img, Dims{3}});
    run(OpId::adaptive_avg_pool2d, {X({2, 4, 4}, dt), Dims{1}});
    const Tensor vol = X({1, 2, 4, 4, 4}, dt);
    for (OpId op : {OpId::max_pool3d, OpId::max_pool3d_with_indices, OpId::avg_pool3d}) run(op, {vol, Dims{2}});
    run(OpId::adaptive_avg_pool3d, {vol, Dims{3}});
    run(OpId::adaptive_max_pool1d, {X({2, 5}, dt), Dims{3}});
    run(OpId::adaptive_max_pool2d, {img, Dims{3}});
    run(OpId::adaptive_max_pool3d, {vol, Dims{3}});
    run(OpId::max_unpool2d, {X({1, 2, 1, 1}, dt), Xv({0, 3}, {1, 2, 1, 1}, DType::int64), Dims{2, 2}});
    run(OpId::max_unpool3d, {X({1, 2, 1, 1, 1}, dt), Xv({0, 7}, {1, 2, 1, 1, 1}, DType::int64), Dims{2, 2, 2}});
    // the spatial-transformer sampling: the grid composites and the grid sampler kernels, forward and backward
    const Tensor grid2 = run_one(OpId::affine_grid_generator, {X({1, 2, 3}, dt, 0.5), Dims{1, 2, 3, 2}, false});
    const Tensor grid3 = run_one(OpId::affine_grid_generator, {X({1, 3, 4}, dt, 0.5), Dims{1, 2, 2, 2, 3}, true});
    run(OpId::grid_sampler, {img, grid2, int64_t(2), int64_t(2), false});
    run(OpId::grid_sampler_2d, {img, grid2, int64_t(0), int64_t(1), true});
    run(OpId::grid_sampler_3d, {vol, grid3, int64_t(1), int64_t(0), false});
    run(OpId::grid_sampler_2d_backward, {X({1, 2, 3, 2}, dt), img, grid2, int64_t(0), int64_t(2), false, true});
    run(OpId::grid_sampler_3d_backward, {X({1, 2, 2, 2, 3}, dt), vol, grid3, int64_t(0), int64_t(0), true, false});
  }
  run(OpId::adaptive_avg_pool2d, {X({1, 2, 4, 4}, DType::bfloat16), Dims{2}});
}

void norm_family() {
  Tensor a = X({2, 3}), c = X({3});
  run(OpId::layer_norm, {a, Dims{3}, c, c});
  run(OpId::batch_norm, {a, X({3}), Xv({1, 1, 1}, {3}), c, c, true});
  run(OpId::batch_norm, {a, X({3}), Xv({1, 1, 1}, {3}), c, c, false});
  run(OpId::group_norm, {X({2, 4, 3}), int64_t(2)});
  for (OpId op : {OpId::softmax, OpId::log_softmax}) run(op, {a, int64_t(1)});
}

void loss_family() {
  Tensor logits = X({2, 3}), target = Xv({0, 2}, {2}, DType::int64), b = X({2, 3}, DType::float32, 1.0);
  Tensor probs = Xv({0.2, 0.5, 0.9, 0.1, 0.4, 0.7}, {2, 3}), labels = Xv({0, 1, 1, 0, 1, 0}, {2, 3});
  for (const char* red : {"mean", "sum", "none"}) {
    run(OpId::cross_entropy, {logits, target, IValue(), int64_t(-100), red});
    run(OpId::cross_entropy, {logits, probs, IValue(), int64_t(-100), red});
    run(OpId::nll_loss, {logits, target, IValue(), int64_t(-100), red});
    for (OpId op : {OpId::mse_loss, OpId::l1_loss, OpId::smooth_l1_loss}) run(op, {logits, b, red});
    run(OpId::binary_cross_entropy, {probs, labels, IValue(), red});
    run(OpId::binary_cross_entropy_with_logits, {logits, labels, IValue(), red});
    run(OpId::cosine_embedding_loss, {logits, b, Xv({1, -1}, {2}), 0.0, red});
  }
  run(OpId::cross_entropy, {X({3}), Xv({1}, {}, DType::int64)});
  const Tensor sign = Xv({1, -1, 1, -1, 1, -1}, {2, 3});
  run(OpId::margin_ranking_loss, {logits, b, sign});
  run(OpId::hinge_embedding_loss, {logits, sign});
  run(OpId::soft_margin_loss, {logits, sign});
  run(OpId::triplet_margin_loss, {logits, b, X({2, 3}, DType::float32, 2.0)});
  run(OpId::poisson_nll_loss, {logits, probs});
  run(OpId::multi_margin_loss, {logits, target});
  run(OpId::cosine_similarity, {logits, b});
  run(OpId::cosine_similarity, {X({3}), X({3}, DType::float32, 1.0), int64_t(0)});
  // the gradient ops of softmax, log_softmax and nll_loss
  run(OpId::_softmax_backward_data, {logits, b, int64_t(1), DType::float32});
  run(OpId::_log_softmax_backward_data, {logits, b, int64_t(-1), DType::float64});
  run(OpId::nll_loss_backward, {Xv({1.0}, {}), target, X({3}), Dims{2, 3}, int64_t(-100), "mean"});
}

// The LU factorizations, their unpacking and solves (the pivots int32 on the device too) and matrix_exp.
void lu_family(const Tensor& a, const Tensor& b) {
  for (OpId op : {OpId::linalg_lu_factor_ex, OpId::linalg_lu_factor, OpId::linalg_lu, OpId::_lu_with_info,
                  OpId::linalg_matrix_exp, OpId::matrix_exp})
    run(op, {a});
  run(OpId::linalg_lu, {b});
  const Tensor piv = Xv({2, 2}, {2}, DType::int32);
  run(OpId::lu_unpack, {a, piv});
  run(OpId::linalg_lu_solve, {a, piv, b});
  run(OpId::linalg_lu_solve, {a, piv, X({3, 2}), false, true});
  run(OpId::lu_solve, {b, a, piv});
}

// The LU family, the solves, eigh and the torch.linalg composites, on the 2 x 2 positive-definite [a].
void linalg_solve_family(const Tensor& a) {
  for (OpId op : {OpId::det, OpId::logdet, OpId::slogdet, OpId::linalg_det, OpId::linalg_slogdet, OpId::linalg_svdvals,
                  OpId::cholesky_inverse, OpId::pinverse, OpId::linalg_pinv, OpId::linalg_matrix_rank,
                  OpId::linalg_vector_norm, OpId::linalg_matrix_norm_str_ord, OpId::linalg_norm})
    run(op, {a});
  const Tensor b = X({2, 3});
  run(OpId::linalg_solve, {a, b});
  run(OpId::linalg_solve_triangular, {a, b, true});
  run(OpId::cholesky_solve, {b, a});
  run(OpId::triangular_solve, {b, a});
  run(OpId::linalg_lstsq, {a, b});
  for (OpId op : {OpId::linalg_eigh, OpId::linalg_eigvalsh}) run(op, {a, "L"});
  run(OpId::linalg_qr, {a, "complete"});
  run(OpId::linalg_svd, {a, false});
  run(OpId::linalg_matrix_norm, {a, 2.0});
  run(OpId::linalg_norm_ord_str, {a, "nuc"});
  run(OpId::matrix_power, {a, int64_t(3)});
  run(OpId::tensordot, {b, b, Dims{1}, Dims{1}});
  run(OpId::chain_matmul, {std::vector<Tensor>{a, a, b}});
  run(OpId::linalg_multi_dot, {std::vector<Tensor>{X({2}), a, b}});
  run(OpId::linalg_vecdot, {b, b});
  run(OpId::linalg_cross, {b, X({2, 3}, DType::float32, 1.0)});
  lu_family(a, b);
}

void linalg_family() {
  Tensor a = Xv({4, 2, 2, 3}, {2, 2});
  for (OpId op : {OpId::trace, OpId::cholesky, OpId::inverse}) run(op, {a});
  run(OpId::qr, {X({3, 2})});
  run(OpId::svd, {X({2, 3})});
  run(OpId::svd, {X({2, 3}), true, false});
  run(OpId::cdist, {X({2, 3}), X({4, 3})});
  linalg_solve_family(a);
}

// The composed reductions, norms and products of reduction_, norm_, product_ and elementwise_composites.
void composite_family() {
  Tensor a = X({3, 4}), b = X({3, 4}, DType::float32, 1.0);
  run(OpId::fmod, {a, b});
  for (OpId op : {OpId::frac, OpId::median, OpId::nansum, OpId::nanmean, OpId::count_nonzero, OpId::aminmax,
                  OpId::bernoulli})
    run(op, {op == OpId::bernoulli ? Xv({0.2, 0.9}, {2}) : a});
  run(OpId::median_dim, {a, int64_t(1)});
  run(OpId::kthvalue, {a, int64_t(2), int64_t(0)});
  run(OpId::clamp_tensor, {a, X({4}), IValue()});
  run(OpId::where_condition, {Xv({0, 1, 1, 0}, {2, 2})});
  run(OpId::tile, {a, Dims{2, 1, 1}});
  run(OpId::index_add, {a, int64_t(0), Xv({2, 0}, {2}, DType::int64), X({2, 4}), Scalar(2.0)});
  run(OpId::index_add_, {a.clone(), int64_t(0), Xv({2, 0}, {2}, DType::int64), X({2, 4})});
  run(OpId::vdot, {X({4}), X({4}, DType::float32, 1.0)});
  run(OpId::cross, {X({2, 3}), X({2, 3}, DType::float32, 1.0)});
  run(OpId::bilinear, {X({2, 3}), X({2, 2}), X({4, 3, 2}), X({4})});
  run(OpId::dist, {a, b});
  run(OpId::pdist, {a});
  run(OpId::renorm, {a, 2.0, int64_t(0), 0.5});
  run(OpId::rms_norm, {a, Dims{4}, X({4})});
  for (OpId op : {OpId::quantile, OpId::nanquantile}) run(op, {a, Xv({0.25, 0.5}, {2}), int64_t(1)});
  run(OpId::bincount, {Xv({0, 2, 2}, {3}, DType::int64), X({3})});
  run(OpId::histc, {a, int64_t(4)});
  run(OpId::meshgrid, {std::vector<Tensor>{X({3}), X({2})}});
  run(OpId::logspace, {Scalar(0.0), Scalar(2.0), int64_t(3), 10.0, IValue(), kXla});
}

// The shape, indexing and statistics composites of shape_composites.hpp and the scan kernels.
void shape_stats_family() {
  const Tensor a = X({3, 4}), v = X({4}), idx = Xv({2, 0, 2}, {3}, DType::int64);
  for (OpId op : {OpId::atleast_1d, OpId::atleast_2d, OpId::atleast_3d, OpId::fliplr, OpId::flipud, OpId::corrcoef})
    run(op, {a});
  for (OpId op : {OpId::hstack, OpId::vstack, OpId::row_stack, OpId::dstack, OpId::column_stack, OpId::block_diag})
    run(op, {std::vector<Tensor>{a, a}});
  run(OpId::cartesian_prod, {std::vector<Tensor>{v, X({2})}});
  run(OpId::broadcast_to, {v, Dims{2, 4}});
  run(OpId::broadcast_tensors, {std::vector<Tensor>{a, v}});
  run(OpId::rot90, {a});
  run(OpId::kron, {a, X({2, 2})});
  run(OpId::diag_embed, {a});
  for (OpId op : {OpId::tril_indices, OpId::triu_indices})
    run(op, {int64_t(3), int64_t(4), int64_t(0), IValue(), kXla});
  run(OpId::take, {a, idx});
  run(OpId::take_along_dim, {a, Xv({1, 0, 3}, {3, 1}, DType::int64), int64_t(1)});
  run(OpId::index_fill, {a, int64_t(1), idx, Scalar(2.0)});
  run(OpId::index_fill_, {a.clone(), int64_t(0), idx, Scalar(2.0)});
  run(OpId::unfold, {a, int64_t(1), int64_t(2), int64_t(1)});
  run(OpId::diff, {a, int64_t(1), int64_t(0)});
  for (OpId op : {OpId::logcumsumexp, OpId::cummax, OpId::cummin}) run(op, {a, int64_t(1)});
  for (OpId op : {OpId::var_mean, OpId::std_mean, OpId::cov}) run(op, {a});
  run(OpId::searchsorted, {Xv({1, 2, 3}, {3}), a});
  run(OpId::bucketize, {a, Xv({1, 2, 3}, {3})});
  run(OpId::isin, {a, v});
}

// The torch-namespace reductions, samplers and creation functions (util_composites.hpp).
void util_family() {
  Tensor a = X({3, 4}), v = X({4}), rates = run_one(OpId::abs, {a});
  for (OpId op : {OpId::msort, OpId::nanmedian, OpId::poisson}) run(op, {op == OpId::poisson ? rates : a});
  run(OpId::mode, {Xv({1, 2, 2, 3, 3, 3}, {2, 3}), int64_t(1), false});
  run(OpId::nanmedian_dim, {a, int64_t(0), false});
  run(OpId::binomial, {Xv({5, 10}, {2}), Xv({0.5, 0.25}, {2})});
  run(OpId::normal_tensor_tensor, {a, rates});
  run(OpId::normal_tensor_float, {a, 2.0});
  run(OpId::normal_float_float, {0.0, 1.0, Dims{2, 2}, IValue(), kXla});
  run(OpId::randint_like, {a, int64_t(5)});
  run(OpId::randint_like_low, {a, int64_t(2), int64_t(5)});
  run(OpId::randint_high, {int64_t(5), Dims{3}, IValue(), kXla});
  run(OpId::random_, {a.clone()});
  run(OpId::random__to, {a.clone(), int64_t(4)});
  run(OpId::random__from, {a.clone(), int64_t(-2), int64_t(3)});
  for (OpId op : {OpId::cauchy_, OpId::exponential_, OpId::log_normal_}) run(op, {a.clone()});
  run(OpId::geometric_, {a.clone(), 0.5});
  for (OpId op : {OpId::bartlett_window, OpId::blackman_window, OpId::hann_window})
    run(op, {int64_t(5), true, IValue(), kXla});
  run(OpId::hamming_window, {int64_t(5), true, 0.54, 0.46, IValue(), kXla});
  run(OpId::kaiser_window, {int64_t(5), true, 12.0, IValue(), kXla});
  run(OpId::scalar_tensor, {Scalar(2.5), IValue(), kXla});
  run(OpId::vander, {v});
  run(OpId::combinations, {v, int64_t(2)});
  run(OpId::trapezoid, {a, v});
  run(OpId::trapezoid_dx, {a, Scalar(0.5)});
  run(OpId::cumulative_trapezoid, {a, v});
  run(OpId::cumulative_trapezoid_dx, {a, Scalar(0.5)});
}

// The elementwise extras: the derived in-place forms, the composites and the CPU kernels (elementwise_extra_*).
void elementwise_extra_family() {
  using O = OpId;
  Tensor a = X({2, 3}), b = X({2, 3}, DType::float32, 1.0), pos = Xv({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor p01 = Xv({0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {2, 3});
  Tensor i = Xv({12, -7, 0, 5, 3, 9}, {2, 3}, DType::int64), j = Xv({10, 3, -1, 6, 2, 4}, {2, 3}, DType::int64);
  for (O op : {O::floor_, O::ceil_, O::round_, O::trunc_, O::frac_, O::sin_, O::cos_, O::tan_, O::sinh_, O::cosh_,
               O::asin_, O::acos_, O::atan_, O::asinh_, O::atanh_, O::exp2_, O::expm1_, O::log2_, O::log10_,
               O::log1p_, O::rsqrt_, O::square_, O::reciprocal_, O::sign_, O::erf_, O::erfc_, O::erfinv_,
               O::lgamma_, O::digamma_, O::sinc_, O::deg2rad_, O::rad2deg_, O::logical_not_, O::logit_, O::i0_})
    run(op, {p01.clone()});
  run(O::acosh_, {pos.clone()});
  run(O::mvlgamma_, {pos.clone(), int64_t(1)});
  run(O::round_decimals, {a, int64_t(1)});
  run(O::round_decimals_, {a.clone(), int64_t(-1)});
  run(O::polygamma_method, {pos, int64_t(1)});
  run(O::polygamma_method_, {pos.clone(), int64_t(2)});
  for (O op : {O::atan2_, O::hypot_, O::xlogy_, O::heaviside_, O::fmod_, O::remainder_, O::floor_divide_, O::eq_,
               O::ne_, O::lt_, O::le_, O::gt_, O::ge_, O::logical_and_, O::logical_or_, O::logical_xor_,
               O::copysign_, O::nextafter_, O::ldexp_, O::igamma_, O::igammac_, O::clamp_min_, O::clamp_max_})
    run(op, {pos.clone(), b});
  run(O::float_power_, {pos.to(DType::float64), b});
  for (O op : {O::gcd_, O::lcm_, O::bitwise_and_, O::bitwise_or_, O::bitwise_xor_, O::bitwise_left_shift_,
               O::bitwise_right_shift_})
    run(op, {i.clone(), j});
  run(O::bitwise_not_, {i.clone()});
  run(O::addmv_, {X({2}), a, X({3})});
  run(O::addr_, {a.clone(), X({2}), X({3})});
  run(O::addbmm_, {X({2, 2}), X({3, 2, 4}), X({3, 4, 2})});
  run(O::baddbmm_, {X({3, 2, 2}), X({3, 2, 4}), X({3, 4, 2})});
  for (O op : {O::fmax, O::fmin, O::copysign, O::nextafter, O::ldexp, O::igamma, O::igammac, O::logical_xor,
               O::clamp_min, O::clamp_max, O::rsub})
    run(op, {pos, b});
  for (O op : {O::frexp, O::i0, O::special_i1, O::signbit, O::isneginf, O::isposinf, O::isreal, O::positive})
    run(op, {a});
  run(O::fill, {a, Xv({2}, {})});
  for (O op : {O::gcd, O::lcm, O::bitwise_and, O::bitwise_or, O::bitwise_xor, O::bitwise_left_shift,
               O::bitwise_right_shift})
    run(op, {i, j});
  run(O::bitwise_not, {i});
}

// The fused optimizer steps write their xla lists in place (no outputs to check, but they must run there).
void optimizer_family() {
  std::vector<Tensor> p{X({3})}, g{X({3}, DType::float32, 1.0)}, m{X({3})}, v{Xv({1, 2, 3}, {3})};
  std::vector<Tensor> step{Xv({1}, {})}, none;
  run(OpId::_fused_sgd_, {p, g, m, 0.0, 0.9, 0.1, 0.0, false, false, true, Xv({2}, {}), Xv({0}, {})});
  for (OpId op : {OpId::_fused_adam_, OpId::_fused_adamw_, OpId::_single_tensor_adam_, OpId::_single_tensor_adamw_})
    run(op, {p, g, m, v, none, step, 0.1, 0.9, 0.999, 0.01, 1e-8, false, false});
}

void (*const kFamilies[])() = {elementwise_family, ternary_family, reduction_family, shape_family, indexing_family,
                               factory_family, matmul_family, conv_pool_family, norm_family, loss_family,
                               linalg_family, composite_family, shape_stats_family, optimizer_family,
                               util_family, elementwise_extra_family};

// Runs [family] under a DeviceProbe and returns the probe.
std::shared_ptr<DeviceProbe> probe(void (*family)()) {
  Context ctx;
  ContextGuard guard(ctx);
  auto p = std::make_shared<DeviceProbe>();
  ctx.add_layer(p, layer_order::autograd);
  family();
  return p;
}

TEST(DeviceTag, EveryFamilyKeepsTheXlaTag) {
  for (auto family : kFamilies) {
    auto p = probe(family);
    EXPECT_FALSE(p->seen.empty());
    for (const std::string& w : p->wrong) ADD_FAILURE() << w;
  }
}

TEST(DeviceTag, EveryScriptVisibleOpWasProbed) {
  std::set<OpId> seen;
  for (auto family : kFamilies) {
    auto p = probe(family);
    seen.insert(p->seen.begin(), p->seen.end());
  }
  for (int i = 0; i < op_count; ++i) {
    if (!op_has(OpId(i), opflag::internal)) {
      EXPECT_TRUE(seen.count(OpId(i))) << op_id_name(OpId(i)) << " not probed";
    }
  }
}

}  // namespace
}  // namespace amps::rt
