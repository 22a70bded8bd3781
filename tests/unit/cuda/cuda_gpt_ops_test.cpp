// CUDA tril/triu and index_select/embedding/index_add vs the CPU backend (kernels a small GPT training step
// needs beyond the others). Every test skips without a GPU.
#include <cmath>

#include "cuda_test_util.hpp"

#ifdef AMPS_HAVE_CUDA
namespace amps::rt::cuda {
uint64_t host_reads();  // runtime/backend/cuda/elementwise.cpp
}
#endif

namespace amps::rt {
namespace {

const DType kAll[] = {DType::float32, DType::float16, DType::bfloat16, DType::float64,
                      DType::int64,   DType::int32,   DType::bool_};

uint64_t cuda_host_reads() {
#ifdef AMPS_HAVE_CUDA
  return cuda::host_reads();
#else
  return 0;
#endif
}

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

}  // namespace
}  // namespace amps::rt
