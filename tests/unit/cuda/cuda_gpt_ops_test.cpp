// CUDA tril/triu, index_select/embedding/index_add, layer_norm, var/std and dropout vs the CPU backend (the
// kernels a small GPT training step needs beyond the others), and the gradients autograd runs through them.
// Every test skips without a GPU.
#include <cmath>

#include "cuda_test_util.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

const DType kAll[] = {DType::float32, DType::float16, DType::bfloat16, DType::float64,
                      DType::int64,   DType::int32,   DType::bool_};

Tensor ids(const std::vector<double>& v, const Dims& shape, DType t = DType::int64) { return make(v, shape, t); }

TEST_F(Cuda, TrilTriuMatchTheCpu) {
  for (DType t : kAll)
    for (OpId op : {OpId::tril, OpId::triu}) {
      Tensor x = input({2, 3, 5, 7}, t, 0.0, 0.5, 20.0);
      for (int64_t k : {-7, -2, 0, 1, 4, 9}) EXPECT_TRUE(same_on_cuda(op, {x, k})) << dtype_name(t) << " k=" << k;
      EXPECT_TRUE(same_on_cuda(op, {x.transpose(-1, -2), int64_t(1)}));  // strided input
      EXPECT_TRUE(same_on_cuda(op, {input({4, 4}, t, 0.3, 0.5, 20.0), int64_t(0)}));
    }
  EXPECT_TRUE(same_on_cuda(OpId::triu, {ones({9, 9}, DType::bool_), int64_t(1)}));  // the causal mask
  Tensor v = input({5}, DType::float32).to(kCuda);
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::triu, {v, int64_t(0)}); }, "RuntimeError", "at least 2 dimensions"));
}

TEST_F(Cuda, IndexSelectAndEmbeddingMatchTheCpu) {
  const Tensor idx = ids({2, 0, -1, 2, 1}, {5});  // repeats and a negative index (valid for every dim below)
  for (DType t : kAll) {
    Tensor x = input({5, 6, 3}, t, 0.0, 0.5, 20.0);
    for (int64_t d : {0, 1, -1}) {
      EXPECT_TRUE(same_on_cuda(OpId::index_select, {x, d, idx, IValue()})) << dtype_name(t) << " dim " << d;
      EXPECT_TRUE(same_on_cuda(OpId::index_select, {x, d, idx.to(DType::int32), IValue()}));
    }
    EXPECT_TRUE(same_on_cuda(OpId::index_select, {x.transpose(0, 2), int64_t(1), idx, IValue()}));  // strided
    EXPECT_TRUE(same_on_cuda(OpId::index_select, {x, int64_t(0), ids({3}, {}), IValue()}));          // 0-d index
    Tensor w = input({10, 8}, t, 0.4, 0.0, 20.0);
    Tensor tokens = ids({1, 3, 9, 0, 3, 3}, {3, 2});
    EXPECT_TRUE(same_on_cuda(OpId::embedding, {tokens, w, IValue()})) << dtype_name(t);
    EXPECT_TRUE(same_on_cuda(OpId::embedding, {tokens.to(DType::int32), w, int64_t(3)}));
  }
  Tensor w = input({4, 2}, DType::float32).to(kCuda);
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::embedding, {ids({1}, {1}).to(kCuda), w.reshape({8}), IValue()}); },
                                 "RuntimeError", "must be 2-D"));
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::index_select, {w, int64_t(0), ids({1, 2, 0, 1}, {2, 2}).to(kCuda),
                                                                     IValue()}); }, "RuntimeError", "vector"));
}

// Where the CPU raises IndexError, cuda cannot without a host sync: the slice of an out-of-range index is NaN
// (0 for integer types) and index_add skips it; nothing is read on the host.
TEST_F(Cuda, OutOfRangeIndicesGiveNanSlicesWithoutAHostRead) {
  Tensor x = input({4, 3}, DType::float32).to(kCuda), bad = ids({1, 7, -5}, {3}).to(kCuda);
  const uint64_t reads = cuda_host_reads();
  Tensor out = dispatch(OpId::index_select, {x, int64_t(0), bad, IValue()})[0];
  Tensor xi = dispatch(OpId::index_select, {x.to(DType::int64), int64_t(0), bad, IValue()})[0];
  Tensor acc = dispatch(OpId::index_add, {zeros({4, 3}, DType::float32, kCuda), int64_t(0), bad, ones({3, 3})
                                                                                                    .to(kCuda)})[0];
  EXPECT_EQ(cuda_host_reads(), reads);
  std::vector<double> got = out.to(Device::cpu()).to_doubles(), want = x.to(Device::cpu()).to_doubles();
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(got[size_t(j)], want[size_t(3 + j)]);
    EXPECT_TRUE(std::isnan(got[size_t(3 + j)]) && std::isnan(got[size_t(6 + j)])) << j;
  }
  std::vector<double> gi = xi.to(Device::cpu()).to_doubles();
  for (int j = 3; j < 9; ++j) EXPECT_EQ(gi[size_t(j)], 0.0) << j;
  EXPECT_TRUE(test::all_close(acc.to(Device::cpu()), {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 0, 0));
}

TEST_F(Cuda, IndexAddMatchesTheCpu) {
  const Tensor idx = ids({2, 0, 2, 4, 2, 1}, {6});  // index 2 three times
  for (DType t : kFloats) {
    Tensor base = input({5, 4, 3}, t, 0.2);
    for (int64_t d : {0, 1, 2}) {
      Dims src_shape = base.sizes();
      src_shape[size_t(d)] = 6;
      Tensor i = d == 0 ? idx : ids({0, 2, 1, 2, 0, 0}, {6});
      EXPECT_TRUE(same_on_cuda(OpId::index_add, {base, d, i, input(src_shape, t, 0.9)}, 4)) << dtype_name(t) << d;
    }
    EXPECT_TRUE(same_on_cuda(OpId::index_add, {base, int64_t(0), idx.to(DType::int32), input({6, 4, 3}, DType::float32)}, 4));
  }
}

TEST_F(Cuda, GatherScatterAndScatterAddMatchTheCpu) {
  for (DType t : kFloats) {
    const Tensor x = input({4, 5, 3}, t, 0.4), xt = input({5, 4, 3}, t, 0.4).transpose(0, 1);  // contiguous, strided
    const Tensor i1 = ids({0, 4, -1, 2, 2, 1, 3, 0, 4, 1, 1, 2}, {2, 2, 3});           // along dim 1, index < x
    for (const Tensor& in : {x, xt}) {
      EXPECT_TRUE(same_on_cuda(OpId::gather, {in, int64_t(1), i1})) << dtype_name(t);
      EXPECT_TRUE(same_on_cuda(OpId::gather, {in, int64_t(-1), ids({2, 0, 1, 1}, {1, 2, 2})})) << dtype_name(t);
    }
    const Tensor i2 = ids({0, 4, 4, 2, 2, 1, 3, 0, 4, 1, 1, 2}, {2, 2, 3});  // repeats accumulate
    EXPECT_TRUE(same_on_cuda(OpId::scatter_add, {x, int64_t(1), i2, input({2, 3, 3}, t, 0.8)}, 3)) << dtype_name(t);
    EXPECT_TRUE(same_on_cuda(OpId::scatter_add, {x, int64_t(1), i2, Tensor::scalar(0.5)}, 3)) << dtype_name(t);
    const Tensor i3 = ids({0, 4, 3, 2, 2, 1, 3, 0, 4, 1, 1, 2}, {2, 2, 3});  // no position written twice
    EXPECT_TRUE(same_on_cuda(OpId::scatter, {xt, int64_t(1), i3, input({2, 3, 3}, t, 0.8)})) << dtype_name(t);
    EXPECT_TRUE(same_on_cuda(OpId::scatter, {x, int64_t(-2), i3, Tensor::scalar(-1.5)})) << dtype_name(t);
  }
  EXPECT_TRUE(same_on_cuda(OpId::gather, {ids({5, 6, 7, 8}, {2, 2}), int64_t(0), ids({1, 0}, {1, 2})}));
  EXPECT_TRUE(same_on_cuda(OpId::scatter, {ids({5, 6, 7, 8}, {2, 2}), int64_t(0), ids({1, 0}, {1, 2}),
                                           ids({9, 10, 11}, {1, 3})}));
  for (const Tensor& x : {ids({0, 3, 0, -1, 0, 0, 2, 0}, {2, 2, 2}), ids({0, 0}, {2}), ids({1}, {}, DType::bool_)})
    for (OpId op : {OpId::nonzero, OpId::argwhere}) EXPECT_TRUE(same_on_cuda(op, {x}));
  EXPECT_TRUE(same_on_cuda(OpId::_unique2, {ids({3, 1, 3, 2, 1, 1}, {2, 3}), true, true, true}));
  EXPECT_TRUE(same_on_cuda(OpId::_unique2, {input({4, 5}, DType::float32), true, true, true}));
}

TEST_F(Cuda, LayerNormVarStdMatchTheCpu) {
  for (DType t : kFloats) {
    Tensor x = input({4, 5, 96}, t, 0.0, 0.3, 2.0);
    Tensor w = input({96}, t, 0.5, 1.0, 0.5), b = input({96}, t, 1.5, 0.0, 0.5);
    EXPECT_TRUE(same_on_cuda(OpId::layer_norm, {x, Dims{96}, w, b, 1e-5}, 96)) << dtype_name(t);
    EXPECT_TRUE(same_on_cuda(OpId::layer_norm, {x, Dims{96}, IValue(), IValue(), 1e-3}, 96));
    EXPECT_TRUE(same_on_cuda(OpId::layer_norm, {x, Dims{5, 96}, IValue(), input({5, 96}, t), 1e-5}, 480));
    EXPECT_TRUE(same_on_cuda(OpId::layer_norm, {x.transpose(0, 1), Dims{96}, w, IValue(), 1e-5}, 96));  // strided
    EXPECT_TRUE(same_on_cuda(OpId::layer_norm, {input({3, 3000}, t), Dims{3000}, IValue(), IValue(), 1e-5}, 3000));
    for (OpId op : {OpId::var, OpId::std}) {
      EXPECT_TRUE(same_on_cuda(op, {x, Dims{-1}, Scalar(int64_t(0)), true}, 96)) << op_name(op);
      EXPECT_TRUE(same_on_cuda(op, {x, Dims{0, 2}, IValue(), false}, 384));
      EXPECT_TRUE(same_on_cuda(op, {x, IValue(), Scalar(2.0), false}, 1920));
      EXPECT_TRUE(same_on_cuda(op, {x.transpose(1, 2), Dims{1}, IValue(), false}, 96));
    }
  }
  Tensor x = input({2, 4}, DType::float32).to(kCuda);
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::layer_norm, {x, Dims{3}, IValue(), IValue(), 1e-5}); },
                                 "RuntimeError", "normalized_shape=[3]"));
}

// The keep-mask is drawn on the host from the context's generator: the same seed gives the CPU's mask and values.
TEST_F(Cuda, DropoutDrawsTheCpuMaskFromTheSameSeed) {
  Context ctx;
  ContextGuard guard(ctx);
  for (DType t : kFloats)
    for (double p : {0.0, 0.3, 1.0}) {
      Tensor x = input({64, 33}, t);
      ctx.manual_seed(7);
      Tensors want = dispatch(OpId::native_dropout, {x, p, true});
      ctx.manual_seed(7);
      Tensors got = dispatch(OpId::native_dropout, {x.to(kCuda), p, true});
      auto [atol, rtol] = tolerance(t);
      EXPECT_TRUE(test::all_close(got[0].to(Device::cpu()), want[0], atol, rtol)) << dtype_name(t) << " p=" << p;
      EXPECT_TRUE(test::all_close(got[1].to(Device::cpu()), want[1], 0, 0));
      ctx.manual_seed(7);
      Tensor d = dispatch(OpId::dropout, {x.to(kCuda), p, true})[0];
      EXPECT_TRUE(test::all_close(d.to(Device::cpu()), want[0], atol, rtol));
    }
  Tensor x = input({3}, DType::float32).to(kCuda);
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::native_dropout, {x, 1.5, true}); }, "ValueError", "between 0 and 1"));
}

// A pre-LayerNorm causal attention step of a tiny GPT (token embedding, positions by index_select, layer_norm,
// a triu mask with masked_fill, softmax): every gradient on cuda agrees with the CPU's.
TEST_F(Cuda, GptBlockGradientsMatchTheCpu) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  const int64_t T = 6, D = 8, V = 11;
  const Tensor tokens = ids({1, 4, 10, 4, 0, 7, 3, 3, 9, 2, 5, 4}, {2, T}), positions = ids({0, 1, 2, 3, 4, 5}, {T});
  for (DType t : {DType::float32, DType::float64}) {
    const Tensors params{input({V, D}, t, 0.3), input({T, D}, t, 1.1), input({D}, t, 0.2, 1.0, 0.3),
                         input({D}, t, 0.7, 0.0, 0.2)};
    auto grads_on = [&](Device d) {
      Tensors p;
      for (const Tensor& q : params) {
        p.push_back(q.to(d).detach());
        p.back().set_requires_grad(true);
      }
      Tensor x = add(call_op(OpId::embedding, tokens.to(d), p[0], IValue()), index_select(p[1], 0, positions.to(d)));
      Tensor h = layer_norm(x, {D}, p[2], p[3]);
      Tensor mask = call_op(OpId::triu, ones({T, T}, DType::bool_, d), int64_t(1));
      Tensor att = softmax(masked_fill(matmul(h, h.transpose(-2, -1)), mask, Scalar(-INFINITY)), -1);
      Tensor y = matmul(att, h);
      autograd::backward({sum(y * y)});
      Tensors g;
      for (const Tensor& q : p) g.push_back(q.grad().to(Device::cpu()));
      return g;
    };
    Tensors got = grads_on(kCuda), want = grads_on(Device::cpu());
    auto [atol, rtol] = tolerance(t, 64);
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(test::all_close(got[i], want[i], atol, rtol)) << dtype_name(t) << " parameter " << i;
  }
}

}  // namespace
}  // namespace amps::rt
