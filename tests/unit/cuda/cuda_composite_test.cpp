// The ops the CUDA backend composes from its other kernels (common/composite_kernels.cpp: norm, logsumexp, all,
// any, the pointwise losses, slice/select backward) and rand_like/randn_like (drawn on the host), against the CPU.
// The composition itself is checked on the CPU by composite_kernels_test.cpp; these check it on the device.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cuda_test_util.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

TEST_F(Cuda, NormAndLogsumexpMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({4, 5, 6}, dt);
    for (double p : {2.0, 1.0, 0.0, 3.0, kInf, -kInf}) {
      EXPECT_TRUE(same_on_cuda(OpId::norm, {x, Scalar(p)}, 120));
      EXPECT_TRUE(same_on_cuda(OpId::norm, {x, Scalar(p), Dims{1}, true}, 5));
    }
    EXPECT_TRUE(same_on_cuda(OpId::logsumexp, {x, Dims{-1}}, 6));
    EXPECT_TRUE(same_on_cuda(OpId::logsumexp, {make({1, 2, -kInf, -kInf, kInf, 3}, {3, 2}, dt), Dims{1}, true}));
  }
}

TEST_F(Cuda, AllAndAnyMatchTheCpu) {
  const Tensor x = make({0, 1, 2, 3, std::numeric_limits<double>::quiet_NaN(), 5, 0, 0, 0}, {3, 3});
  for (OpId op : {OpId::all, OpId::any}) {
    EXPECT_TRUE(same_on_cuda(op, {x}));
    EXPECT_TRUE(same_on_cuda(op, {x, int64_t(1), true}));
    EXPECT_TRUE(same_on_cuda(op, {make({1, 0, 1}, {3}, DType::bool_), int64_t(0)}));
  }
}

TEST_F(Cuda, PointwiseLossesMatchTheCpu) {
  for (DType dt : kFloats)
    for (const char* red : {"mean", "sum", "none"}) {
      const Tensor x = input({8, 16}, dt, 0.1), y = input({16}, dt, 2.0);
      EXPECT_TRUE(same_on_cuda(OpId::mse_loss, {x, y, std::string(red)}, 128));
      EXPECT_TRUE(same_on_cuda(OpId::l1_loss, {x, y, std::string(red)}, 128));
      EXPECT_TRUE(same_on_cuda(OpId::smooth_l1_loss, {x, y, std::string(red), 0.5}, 128));
      const Tensor p = input({8, 16}, dt, 0.3, 0.5, 0.45), t = input({8, 16}, dt, 0.9, 0.5, 0.5);
      EXPECT_TRUE(same_on_cuda(OpId::binary_cross_entropy, {p, t, IValue(), std::string(red)}, 128));
      EXPECT_TRUE(same_on_cuda(OpId::binary_cross_entropy_with_logits,
                               {input({8, 16}, dt, 0.2, 0, 5), t, input({16}, dt, 1, 1, 0.5), std::string(red),
                                input({16}, dt, 3, 2, 1)}, 128));
    }
}

TEST_F(Cuda, SliceAndSelectBackwardMatchTheCpu) {
  for (DType dt : kFloats) {
    EXPECT_TRUE(same_on_cuda(OpId::slice_backward, {input({2, 3}, dt), Dims{5, 3}, int64_t(0), int64_t(1), int64_t(5), int64_t(2)}));
    EXPECT_TRUE(same_on_cuda(OpId::select_backward, {input({4}, dt), Dims{4, 3}, int64_t(1), int64_t(-1)}));
  }
}

TEST_F(Cuda, PreluCosinesGroupNormTraceIsCloseIndexCopyProdCumsumMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({2, 3, 10}, dt), y = input({2, 3, 10}, dt, 1.3);
    EXPECT_TRUE(same_on_cuda(OpId::prelu, {x, input({3}, dt, 0.7)}));
    EXPECT_TRUE(same_on_cuda(OpId::cosine_similarity, {x, y}, 3));
    EXPECT_TRUE(same_on_cuda(OpId::cosine_embedding_loss, {input({4, 3}, dt), input({4, 3}, dt, 2), make({1, -1, 1, -1}, {4}),
                                                           0.1, std::string("mean")}, 12));
    EXPECT_TRUE(same_on_cuda(OpId::group_norm, {input({2, 6, 2, 4}, dt), int64_t(3), input({6}, dt, 3), input({6}, dt, 4)}, 16));
    EXPECT_TRUE(same_on_cuda(OpId::trace, {input({3, 4}, dt)}, 3));
    EXPECT_TRUE(same_on_cuda(OpId::isclose, {x, y, 0.0, 0.5}));
    EXPECT_TRUE(same_on_cuda(OpId::index_copy, {input({4, 6}, dt), int64_t(0), make({3, 0}, {2}, DType::int64),
                                                input({2, 6}, dt, 1)}));
    EXPECT_TRUE(same_on_cuda(OpId::prod, {input({4, 6}, dt, 0, 1, 0.5), int64_t(1)}, 6));
    EXPECT_TRUE(same_on_cuda(OpId::cumsum, {input({4, 6}, dt), int64_t(0)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::cdist, {input({2, 5, 3}, dt), input({4, 3}, dt, 1), 2.0}, 3));
  }
}

// The implicit composites (implicit_composites.hpp and beside): the same definition runs on the CUDA kernels.
TEST_F(Cuda, ImplicitCompositesMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({2, 3, 10}, dt), y = input({2, 3, 10}, dt, 1.3);
    EXPECT_TRUE(same_on_cuda(OpId::scaled_dot_product_attention, {input({2, 2, 5, 8}, dt), input({2, 2, 6, 8}, dt, 1),
                                                                   input({2, 2, 6, 4}, dt, 2)}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::scaled_dot_product_attention, {input({2, 4, 5, 8}, dt), input({2, 2, 5, 8}, dt, 1),
                                                                   input({2, 2, 5, 4}, dt, 2), IValue(), 0.0, true,
                                                                   IValue(), true}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::kl_div, {x, input({2, 3, 10}, dt, 0, 1.2, 0.5), std::string("batchmean")}, 60));
    EXPECT_TRUE(same_on_cuda(OpId::huber_loss, {x, y, std::string("sum"), 0.5}, 60));
    for (const char* mode : {"constant", "reflect", "replicate", "circular"})
      EXPECT_TRUE(same_on_cuda(OpId::pad, {x, Dims{2, 1, 0, 2}, std::string(mode)}));
    EXPECT_TRUE(same_on_cuda(OpId::einsum, {std::string("bij,bkj->bik"), std::vector<Tensor>{x, y}}, 10));
    EXPECT_TRUE(same_on_cuda(OpId::roll, {x, Dims{2, -1}, Dims{2, 0}}));
    EXPECT_TRUE(same_on_cuda(OpId::flip, {x, Dims{0, -1}}));
    EXPECT_TRUE(same_on_cuda(OpId::diag, {input({5}, dt), int64_t(-2)}));
    EXPECT_TRUE(same_on_cuda(OpId::masked_select, {x, make({1, 0, 1}, {3, 1}, DType::bool_)}));
    for (OpId op : {OpId::elu, OpId::selu, OpId::celu, OpId::hardtanh, OpId::relu6, OpId::hardsigmoid,
                    OpId::hardswish, OpId::mish, OpId::logsigmoid, OpId::softsign, OpId::normalize})
      EXPECT_TRUE(same_on_cuda(op, {x * 4.0}, 4)) << op_name(op);
    const Tensor sign = gt(input({2, 3, 10}, dt), Scalar(0.0)).to(dt) * 2.0 - 1.0;
    EXPECT_TRUE(same_on_cuda(OpId::margin_ranking_loss, {x, y, sign, 0.1, std::string("none")}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::hinge_embedding_loss, {x, sign}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::soft_margin_loss, {x, sign, std::string("sum")}, 60));
    EXPECT_TRUE(same_on_cuda(OpId::triplet_margin_loss, {x, y, input({2, 3, 10}, dt, 2.0)}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::poisson_nll_loss, {x, abs(y)}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::multi_margin_loss, {input({3, 4}, dt), make({3, 0, 2}, {3}, DType::int64)}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::max_pool1d, {x, Dims{3}, Dims{2}, Dims{1}, Dims{2}, true}));
    EXPECT_TRUE(same_on_cuda(OpId::avg_pool1d, {x, Dims{4}, Dims{2}, Dims{1}, true, false}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::adaptive_avg_pool1d, {x, Dims{4}}, 4));
    const Tensor in = input({2, 3}, dt), h = input({2, 4}, dt, 1.0);
    EXPECT_TRUE(same_on_cuda(OpId::lstm_cell, {in, std::vector<Tensor>{h, input({2, 4}, dt, 2.0)}, input({16, 3}, dt, 3.0),
                                               input({16, 4}, dt, 4.0), input({16}, dt, 5.0), input({16}, dt, 6.0)}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::gru_cell, {in, h, input({12, 3}, dt, 3.0), input({12, 4}, dt, 4.0),
                                              input({12}, dt, 5.0), input({12}, dt, 6.0)}, 8));
    for (OpId op : {OpId::rnn_tanh_cell, OpId::rnn_relu_cell})
      EXPECT_TRUE(same_on_cuda(op, {in, h, input({4, 3}, dt, 3.0), input({4, 4}, dt, 4.0)}, 8)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::diag, {input({4, 6}, dt).t(), int64_t(1)}));
    EXPECT_TRUE(same_on_cuda(OpId::diagonal_backward, {input({4, 2}, dt), Dims{3, 4, 5}, int64_t(1), int64_t(2), int64_t(0)}));
    EXPECT_TRUE(same_on_cuda(OpId::repeat_interleave, {x, int64_t(3), int64_t(1)}));
    for (const char* mode : {"nearest", "linear"})
      EXPECT_TRUE(same_on_cuda(OpId::interpolate, {x, IValue(), 1.7, std::string(mode)}));
    EXPECT_TRUE(same_on_cuda(OpId::interpolate, {input({2, 3, 4, 5}, dt), Dims{7, 3}, IValue(), std::string("bilinear"),
                                                  true}));
    EXPECT_TRUE(same_on_cuda(OpId::constant_pad_nd, {x, Dims{-1, 2, 1, 1, 0, 1}, Scalar(2.5)}));
  }
}

// fmod (a binary kernel) and the implicit composites of reduction_, norm_, product_ and elementwise_composites.
TEST_F(Cuda, FmodAndComposedReductionsNormsProductsMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({3, 7}, dt, 0.3, 2.0), y = input({3, 7}, dt, 1.1, 1.0, 1.5);
    EXPECT_TRUE(same_on_cuda(OpId::fmod, {x, y}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::frac, {x * 3.0}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::median, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::median_dim, {x, int64_t(1), true}));
    EXPECT_TRUE(same_on_cuda(OpId::kthvalue, {x, int64_t(2), int64_t(0)}));
    EXPECT_TRUE(same_on_cuda(OpId::nansum, {x, Dims{1}}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::nanmean, {x}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::count_nonzero, {x, Dims{0}}));
    EXPECT_TRUE(same_on_cuda(OpId::aminmax, {x, int64_t(0), true}));
    EXPECT_TRUE(same_on_cuda(OpId::clamp_tensor, {x, input({7}, dt, 0.5) - 0.5, input({3, 1}, dt, 0.7) + 0.5}));
    EXPECT_TRUE(same_on_cuda(OpId::tile, {x, Dims{2, 1, 2}}));
    EXPECT_TRUE(same_on_cuda(OpId::index_add, {x, int64_t(1), make({6, 0, 6}, {3}, DType::int64), input({3, 3}, dt),
                                               Scalar(-2.0)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::vdot, {x.reshape({-1}), y.reshape({-1})}, 40));
    EXPECT_TRUE(same_on_cuda(OpId::cross, {input({4, 3}, dt), input({1, 3}, dt, 1.0), int64_t(1)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::bilinear, {input({5, 3}, dt), input({5, 2}, dt, 1.0), input({4, 3, 2}, dt, 2.0),
                                              input({4}, dt, 3.0)}, 10));
    EXPECT_TRUE(same_on_cuda(OpId::dist, {x, y, 3.0}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::pdist, {x}, 10));
    EXPECT_TRUE(same_on_cuda(OpId::renorm, {x, 2.0, int64_t(0), 1.0}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::rms_norm, {x, Dims{7}, input({7}, dt, 0.4)}, 8));
    if (dt == DType::float32 || dt == DType::float64)
      for (OpId op : {OpId::quantile, OpId::nanquantile})
        EXPECT_TRUE(same_on_cuda(op, {x, make({0.1, 0.5, 0.9}, {3}, dt), int64_t(1), true}, 4)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::histc, {x, int64_t(5)}));
    EXPECT_TRUE(same_on_cuda(OpId::meshgrid, {std::vector<Tensor>{input({3}, dt), input({2}, dt, 1.0)}, std::string("xy")}));
  }
  EXPECT_TRUE(same_on_cuda(OpId::bincount, {make({0, 3, 3, 1}, {4}, DType::int64), make({0.5, 1, 2, 4}, {4}), int64_t(6)}));
  const Tensor cond = make({0, 1, 1, 0, 0, 1}, {2, 3}, DType::bool_);
  EXPECT_TRUE(same_on_cuda(OpId::where_condition, {cond}));
}

TEST_F(Cuda, InverseHyperbolicErfcExp2GammaAndFormulasMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({3, 7}, dt, 0.3, 2.0), y = input({3, 7}, dt, 1.1, 1.0, 1.5);
    for (OpId op : {OpId::asinh, OpId::erfc, OpId::exp2, OpId::sinc, OpId::deg2rad, OpId::rad2deg, OpId::hardshrink,
                    OpId::softshrink})
      EXPECT_TRUE(same_on_cuda(op, {x}, 4)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::acosh, {abs(x) + 1.0}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::atanh, {x * 0.3}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::logit, {sigmoid(x), 0.1}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::threshold, {x, 0.2, -1.0}));
    for (OpId op : {OpId::logaddexp, OpId::logaddexp2, OpId::hypot, OpId::float_power})
      EXPECT_TRUE(same_on_cuda(op, {x, y}, 4)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::xlogy, {x, abs(y)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::heaviside, {x, y}));
    const Tensor pos = abs(x) + 0.2;
    for (OpId op : {OpId::lgamma, OpId::digamma}) EXPECT_TRUE(same_on_cuda(op, {x - 0.35}, 4)) << op_name(op);
    for (int64_t n : {1, 2, 3}) EXPECT_TRUE(same_on_cuda(OpId::polygamma, {n, pos}, 8)) << n;
    EXPECT_TRUE(same_on_cuda(OpId::mvlgamma, {pos + 1.0, int64_t(3)}, 8));
    for (OpId op : {OpId::special_entr, OpId::special_ndtr}) EXPECT_TRUE(same_on_cuda(op, {x}, 4)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::special_ndtri, {sigmoid(x)}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::special_xlog1py, {x, abs(y)}, 4));
  }
}

// The shape, indexing and statistics composites (shape_composites.hpp) and the host-fallback scan kernels.
TEST_F(Cuda, ShapeIndexingAndStatisticsOpsMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor x = input({3, 7}, dt, 0.3, 2.0), y = input({3, 7}, dt, 1.1, 1.0, 1.5), v = input({4}, dt, 0.7);
    const Tensor idx = make({6, 0, -1, 3}, {4}, DType::int64);
    for (OpId op : {OpId::hstack, OpId::vstack, OpId::row_stack, OpId::dstack, OpId::column_stack, OpId::block_diag})
      EXPECT_TRUE(same_on_cuda(op, {std::vector<Tensor>{x, y}})) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::cartesian_prod, {std::vector<Tensor>{v, input({3}, dt, 0.2)}}));
    EXPECT_TRUE(same_on_cuda(OpId::broadcast_tensors, {std::vector<Tensor>{x.reshape({3, 1, 7}), v.reshape({4, 1})}}));
    EXPECT_TRUE(same_on_cuda(OpId::rot90, {x, int64_t(3), Dims{1, 0}}));
    EXPECT_TRUE(same_on_cuda(OpId::kron, {x, input({2, 2}, dt, 0.4)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::diag_embed, {x, int64_t(-1), int64_t(0), int64_t(2)}));
    EXPECT_TRUE(same_on_cuda(OpId::take, {x, idx}));
    EXPECT_TRUE(same_on_cuda(OpId::take_along_dim, {x, make({1, 0, 6}, {1, 3}, DType::int64), int64_t(1)}));
    EXPECT_TRUE(same_on_cuda(OpId::index_fill, {x, int64_t(1), idx, Scalar(-2.5)}));
    EXPECT_TRUE(same_on_cuda(OpId::unfold, {x, int64_t(1), int64_t(3), int64_t(2)}));
    EXPECT_TRUE(same_on_cuda(OpId::diff, {x, int64_t(2), int64_t(1), y.narrow(1, 0, 2)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::logcumsumexp, {x, int64_t(1)}, 8));
    for (OpId op : {OpId::cummax, OpId::cummin})
      EXPECT_TRUE(same_on_cuda(op, {call_op(OpId::round, x), int64_t(1)})) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::var_mean, {x, Dims{1}}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::std_mean, {x}, 8));
    EXPECT_TRUE(same_on_cuda(OpId::cov, {x}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::corrcoef, {x}, 20));
    const Tensor edges = make({-1.0, 0.0, 0.5, 2.0}, {4}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::searchsorted, {edges, x, false, true}));
    EXPECT_TRUE(same_on_cuda(OpId::bucketize, {x, edges}));
    EXPECT_TRUE(same_on_cuda(OpId::isin, {call_op(OpId::round, x), edges}));
  }
  const Tensor on_cpu = dispatch(OpId::tril_indices, Args{int64_t(4), int64_t(5), int64_t(1)})[0];
  const Tensor on_cuda = dispatch(OpId::tril_indices, Args{int64_t(4), int64_t(5), int64_t(1), IValue(), kCuda})[0];
  EXPECT_EQ(on_cuda.device(), kCuda);
  EXPECT_TRUE(test::all_close(on_cuda.to(Device::cpu()), on_cpu, 0, 0));
}

TEST_F(Cuda, Pooling3dAdaptiveMaxAndUnpoolMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor vol = input({2, 3, 5, 6, 4}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::max_pool3d, {vol, Dims{2, 3, 2}, Dims{2, 2, 1}, Dims{1, 1, 0}, Dims{1}, true}));
    EXPECT_TRUE(same_on_cuda(OpId::max_pool3d_with_indices, {vol, Dims{3}, Dims{2}, Dims{1}, Dims{1, 2, 1}}));
    EXPECT_TRUE(same_on_cuda(OpId::avg_pool3d, {vol, Dims{3, 2, 2}, Dims{2, 1, 2}, Dims{1, 1, 0}, true, false}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::avg_pool3d, {vol, Dims{2}, Dims{}, Dims{0}, false, true, int64_t(3)}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::adaptive_avg_pool3d, {vol, Dims{3, 4, 3}}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::adaptive_max_pool1d, {input({3, 10}, dt), Dims{4}}));
    EXPECT_TRUE(same_on_cuda(OpId::adaptive_max_pool2d, {input({2, 3, 7, 5}, dt), Dims{3, 4}}));
    EXPECT_TRUE(same_on_cuda(OpId::adaptive_max_pool3d, {vol, Dims{2, 4, 3}}));
    const Tensor idx = make({0, 3, 7, 9, 14, 19, 1, 2, 5, 11, 12, 18}, {2, 2, 3}, DType::int64);
    EXPECT_TRUE(same_on_cuda(OpId::max_unpool2d, {input({2, 2, 3}, dt), idx, Dims{4, 5}}));
    EXPECT_TRUE(same_on_cuda(OpId::max_unpool3d, {input({2, 1, 2, 3}, dt), idx.reshape({2, 1, 2, 3}), Dims{2, 2, 5}}));
  }
}

TEST_F(Cuda, ProdAndCumsumOfIntegersAndWholeTensors) {
  const Tensor i = make({1, 2, 3, 4, 5, 6}, {2, 3}, DType::int64);
  EXPECT_TRUE(same_on_cuda(OpId::cumprod, {i, int64_t(1)}));
  EXPECT_TRUE(same_on_cuda(OpId::cumprod, {input({3, 4}, DType::bfloat16), int64_t(0)}, 4));
  EXPECT_TRUE(same_on_cuda(OpId::cumprod, {input({3, 4}, DType::float16), int64_t(1), DType::float32}, 4));
  EXPECT_TRUE(same_on_cuda(OpId::prod, {i}));
  EXPECT_TRUE(same_on_cuda(OpId::prod, {i, int64_t(0), true}));
  EXPECT_TRUE(same_on_cuda(OpId::cumsum, {i, int64_t(-1)}));
  EXPECT_TRUE(same_on_cuda(OpId::cumsum, {make({1, 0, 1}, {3}, DType::bool_), int64_t(0)}));
  EXPECT_TRUE(same_on_cuda(OpId::cumsum, {input({3, 4}, DType::float16), int64_t(1), DType::float32}, 4));
  EXPECT_TRUE(same_on_cuda(OpId::prod, {i, IValue(), false, DType::bool_}));    // dtype=bool runs in int64
  EXPECT_TRUE(same_on_cuda(OpId::cumsum, {i, int64_t(1), DType::bool_}));
  // a long row: one block of threads multiplies it (1.0001^5000 in float32, a block-wide product order)
  EXPECT_TRUE(same_on_cuda(OpId::prod, {full({5000}, Scalar(1.0001), DType::float32)}, 5000));
  EXPECT_TRUE(same_on_cuda(OpId::prod, {input({70000, 3}, DType::float64), int64_t(1)}));  // rows past one grid
}

// sort/argsort/topk: the same order as the CPU, ties (repeated values, 0.0 and -0.0) in input order, NaN largest.
TEST_F(Cuda, SortArgsortAndTopkMatchTheCpuOrder) {
  const double nan = std::nan(""), inf = INFINITY;
  const std::vector<double> v = {3, 1, nan, 2, 1, 0, -0.0, -inf, inf, 5, 2, 2};
  for (DType dt : {DType::float64, DType::float32, DType::float16, DType::bfloat16, DType::int64, DType::int32,
                   DType::bool_}) {
    std::vector<double> w = v;
    if (!is_floating(dt)) for (double& e : w) e = std::isfinite(e) ? e : 7;
    const Tensor x = make(w, {3, 4}, dt);
    for (bool desc : {false, true}) {
      EXPECT_TRUE(same_on_cuda(OpId::sort, {x, int64_t(-1), desc}));
      EXPECT_TRUE(same_on_cuda(OpId::sort, {x, int64_t(0), desc}));
      EXPECT_TRUE(same_on_cuda(OpId::argsort, {x, int64_t(1), desc}));
      EXPECT_TRUE(same_on_cuda(OpId::topk, {x, int64_t(2), int64_t(-1), desc}));
    }
  }
  EXPECT_TRUE(same_on_cuda(OpId::sort, {make({4}, {}, DType::float32)}));  // 0-dim
  EXPECT_TRUE(same_on_cuda(OpId::topk, {input({300, 5000}, DType::float32), int64_t(40)}));  // sampling-sized rows
  EXPECT_TRUE(same_on_cuda(OpId::sort, {input({2, 70000}, DType::bfloat16), int64_t(1), true}));
}

TEST_F(Cuda, RandLikeDrawsTheCpuNumbers) {
  for (OpId op : {OpId::rand_like, OpId::randn_like}) {
    current_context().generator().manual_seed(7);
    const Tensor want = dispatch(op, {input({3, 4}, DType::float32)})[0];
    current_context().generator().manual_seed(7);
    const Tensor got = dispatch(op, {input({3, 4}, DType::float32).to(kCuda)})[0];
    EXPECT_EQ(got.device(), kCuda);
    EXPECT_TRUE(test::all_close(got.to(Device::cpu()), want, 0, 0));
  }
}

// cholesky, inverse, qr and svd run the CPU kernels on host copies (common/host_fallback_kernels.cpp): the
// results come back to cuda equal to the CPU's, each call counts one host sync, and the CPU's errors pass through.
TEST_F(Cuda, LinalgRunsOnTheHostAndReturnsToTheDevice) {
  for (DType dt : {DType::float32, DType::float64}) {
    Tensor x = input({2, 4, 4}, dt, 0.3);
    Tensor spd = add(matmul(x, x.transpose(-2, -1)), mul(eye(4, std::nullopt, dt), wrap_number(Scalar(4.0))));
    EXPECT_TRUE(same_on_cuda(OpId::cholesky, {spd, false}));
    EXPECT_TRUE(same_on_cuda(OpId::inverse, {spd}));
    EXPECT_TRUE(same_on_cuda(OpId::qr, {input({3, 5, 3}, dt, 0.1), true}));
    EXPECT_TRUE(same_on_cuda(OpId::svd, {input({5, 3}, dt, 0.7), true, true}));
  }
  Context& ctx = current_context();
  const uint64_t syncs = ctx.host_syncs();
  dispatch(OpId::inverse, {make({4, 7, 2, 6}, {2, 2}).to(kCuda)});
  EXPECT_EQ(ctx.host_syncs(), syncs + 1);
  EXPECT_TRUE(test::throws_error([] { dispatch(OpId::cholesky, {make({1, 2, 2, 1}, {2, 2}).to(kCuda)}); },
                                 "RuntimeError", "linalg.cholesky: The factorization could not be completed"));
}

// The LU family, the solves and eigh (host kernels) and the torch.linalg composites built on them, on the device.
TEST_F(Cuda, LinalgSolvesEighAndCompositesMatchTheCpu) {
  for (DType dt : {DType::float32, DType::float64}) {
    Tensor x = input({2, 4, 4}, dt, 0.3);
    Tensor spd = add(matmul(x, x.transpose(-2, -1)), mul(eye(4, std::nullopt, dt), wrap_number(Scalar(4.0))));
    const Tensor b = input({2, 4, 3}, dt, 0.9), L = call_op(OpId::cholesky, spd);
    for (OpId op : {OpId::linalg_det, OpId::det, OpId::logdet, OpId::linalg_slogdet, OpId::linalg_svdvals,
                    OpId::pinverse, OpId::cholesky_inverse, OpId::linalg_matrix_rank, OpId::linalg_norm})
      EXPECT_TRUE(same_on_cuda(op, {op == OpId::cholesky_inverse ? L : spd}, 40)) << op_name(op);
    EXPECT_TRUE(same_on_cuda(OpId::linalg_solve, {spd, b}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_solve, {spd, input({4}, dt)}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_solve_triangular, {L, b, false}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::cholesky_solve, {b, L}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_eigvalsh, {spd, std::string("L")}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_lstsq, {input({5, 3}, dt, 0.2), input({5, 2}, dt, 0.5)}, 40));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_matrix_norm_str_ord, {spd, std::string("nuc")}, 40));
    EXPECT_TRUE(same_on_cuda(OpId::matrix_power, {x, int64_t(5)}, 40));
    EXPECT_TRUE(same_on_cuda(OpId::tensordot, {x, b, Dims{1}, Dims{1}}, 20));
    const Tensor v = input({4}, dt);
    EXPECT_TRUE(same_on_cuda(OpId::linalg_multi_dot, {std::vector<Tensor>{v, spd.select(0, 0), b.select(0, 1)}}, 20));
  }
  EXPECT_TRUE(test::throws_error([] { dispatch(OpId::linalg_solve, {zeros({2, 2}).to(kCuda), ones({2}).to(kCuda)}); },
                                 "RuntimeError", "torch.linalg.solve: The solver failed because the input matrix is singular."));
}

// The LU family (linalg_lu_factor_ex and linalg_matrix_exp as host kernels, the unpacking and solves as composites on
// the device) and PyTorch's zero-pivot error.
TEST_F(Cuda, LuFamilyAndMatrixExpMatchTheCpu) {
  for (DType dt : {DType::float32, DType::float64}) {
    const Tensor a = input({2, 4, 4}, dt, 0.3), wide = input({3, 5}, dt, 0.7), b = input({2, 4, 3}, dt, 0.9);
    for (const Tensor& x : {a, wide, wide.transpose(-2, -1)})
      for (OpId op : {OpId::linalg_lu_factor_ex, OpId::linalg_lu, OpId::_lu_with_info})
        EXPECT_TRUE(same_on_cuda(op, {x}, 20)) << op_name(op);
    for (OpId op : {OpId::linalg_matrix_exp, OpId::matrix_exp}) {
      EXPECT_TRUE(same_on_cuda(op, {a}, 40)) << op_name(op);
      EXPECT_TRUE(same_on_cuda(op, {mul(a, wrap_number(Scalar(0.01)))}, 40)) << op_name(op);
    }
    const Tensors f = dispatch(OpId::linalg_lu_factor, {a});
    EXPECT_TRUE(same_on_cuda(OpId::lu_unpack, {f[0], f[1]}));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_lu_solve, {f[0], f[1], b}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::linalg_lu_solve, {f[0], f[1], b.transpose(-2, -1), false, true}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::lu_solve, {b, f[0], f[1]}, 20));
  }
  EXPECT_TRUE(test::throws_error([] { dispatch(OpId::linalg_lu_factor, {zeros({2, 2}).to(kCuda)}); }, "RuntimeError",
                                 "torch.linalg.lu_factor: U[1,1] is zero"));
}

// The spatial-transformer sampling: affine_grid_generator and grid_sampler (implicit composites) and the grid sampler
// kernels forward and backward (host fallback), every mode and padding, grid points beyond [-1, 1].
TEST_F(Cuda, GridSamplersMatchTheCpu) {
  for (DType dt : kFloats) {
    const Tensor img = input({2, 3, 5, 4}, dt), vol = input({2, 2, 3, 4, 3}, dt, 0.4);
    const Tensor grid2 = input({2, 3, 2, 2}, dt, 0.9, 0.1, 1.3), grid3 = input({2, 2, 2, 3, 3}, dt, 1.7, -0.1, 1.2);
    EXPECT_TRUE(same_on_cuda(OpId::affine_grid_generator, {input({2, 2, 3}, dt, 0.3), Dims{2, 1, 3, 4}, false}, 4));
    EXPECT_TRUE(same_on_cuda(OpId::affine_grid_generator, {input({2, 3, 4}, dt, 0.3), Dims{2, 1, 2, 3, 2}, true}, 4));
    for (int64_t mode : {0, 1, 2})
      for (int64_t pad : {0, 1, 2})
        for (bool align : {false, true}) {
          EXPECT_TRUE(same_on_cuda(OpId::grid_sampler, {img, grid2, mode, pad, align}, 8)) << mode << pad << align;
          EXPECT_TRUE(same_on_cuda(OpId::grid_sampler_2d_backward, {input({2, 3, 3, 2}, dt, 2.1), img, grid2, mode, pad,
                                                                   align, true}, 8)) << mode << pad << align;
          if (mode == 2) continue;
          EXPECT_TRUE(same_on_cuda(OpId::grid_sampler_3d, {vol, grid3, mode, pad, align}, 8)) << mode << pad << align;
          EXPECT_TRUE(same_on_cuda(OpId::grid_sampler_3d_backward, {input({2, 2, 2, 2, 3}, dt, 2.5), vol, grid3, mode,
                                                                   pad, align, true}, 8)) << mode << pad << align;
        }
  }
}

}  // namespace
}  // namespace amps::rt
