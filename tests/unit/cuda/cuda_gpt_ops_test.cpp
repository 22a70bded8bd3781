// CUDA tril/triu vs the CPU backend (the first of the kernels a small GPT training step needs beyond the
// others). Every test skips without a GPU.
#include "cuda_test_util.hpp"

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

}  // namespace
}  // namespace amps::rt
