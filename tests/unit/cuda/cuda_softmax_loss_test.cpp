// CUDA softmax/log_softmax, nll_loss, cross_entropy, one_hot and the max/min/argmax family vs the CPU
// backend, plus the backward ops autograd runs for them. Every test skips without a GPU.
#include "cuda_test_util.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

TEST_F(Cuda, SoftmaxAlongEveryDim) {
  for (DType t : kFloats)
    for (OpId op : {OpId::softmax, OpId::log_softmax}) {
      Tensor x = input({4, 37, 6}, t, 0.0, 0.0, 4.0);
      for (int64_t d : {-1, 0, 1}) EXPECT_TRUE(same_on_cuda(op, {x, d, std::nullopt}, 37)) << d;
      EXPECT_TRUE(same_on_cuda(op, {x.transpose(0, 2), int64_t(1), std::nullopt}, 37));  // strided input
      EXPECT_TRUE(same_on_cuda(op, {input({3, 3000}, t), int64_t(1), std::nullopt}, 3000));  // long rows
      EXPECT_TRUE(same_on_cuda(op, {input({5}, t), int64_t(0), DType::float32}, 5));        // dtype=
    }
  // integers are refused on both devices (PyTorch 1.13's CPU message)
  for (Device d : {Device::cpu(), kCuda})
    EXPECT_TRUE(test::throws_error([&] {
      dispatch(OpId::softmax, {make({1, 2, 3}, {3}, DType::int64).to(d), int64_t(0), std::nullopt});
    }, "RuntimeError", "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'")) << device_str(d);
  // an integer input needs dtype= (without it the CPU raises "softmax_lastdim_kernel_impl" not implemented)
  EXPECT_TRUE(same_on_cuda(OpId::softmax, {make({1, 2, 3}, {3}, DType::int64), int64_t(0), DType::float32}, 3));
}

Tensor classes(const std::vector<double>& v, const Dims& shape) { return make(v, shape, DType::int64); }

TEST_F(Cuda, NllLossAndCrossEntropyMatchTheCpu) {
  for (DType t : kFloats) {
    Tensor logits = input({6, 5}, t, 0.0, 0.0, 3.0), target = classes({0, 4, 2, -100, 1, 3}, {6});
    Tensor w = input({5}, t, 0.5, 1.5, 0.5);
    for (const char* red : {"mean", "sum", "none"}) {
      EXPECT_TRUE(same_on_cuda(OpId::cross_entropy, {logits, target, IValue(), int64_t(-100), std::string(red), 0.0}, 30));
      EXPECT_TRUE(same_on_cuda(OpId::cross_entropy, {logits, target, w, int64_t(-100), std::string(red), 0.1}, 30));
      Tensor lp = log_softmax(logits, 1);
      EXPECT_TRUE(same_on_cuda(OpId::nll_loss, {lp, target, w, int64_t(-100), std::string(red)}, 30));
    }
    Tensor img = input({2, 4, 3, 3}, t), img_t = classes({0, 1, 2, 3, 0, 1, 2, 3, 0, 3, 2, 1, 0, 1, 2, 3, 3, 3}, {2, 3, 3});
    EXPECT_TRUE(same_on_cuda(OpId::cross_entropy, {img, img_t, IValue(), int64_t(-100), std::string("mean"), 0.0}, 72));
    Tensor probs = softmax(input({6, 5}, DType::float32, 0.9), 1).to(t);  // probability targets
    EXPECT_TRUE(same_on_cuda(OpId::cross_entropy, {logits, probs, IValue(), int64_t(-100), std::string("mean"), 0.2}, 30));
    EXPECT_TRUE(same_on_cuda(OpId::cross_entropy, {input({5}, t), classes({3}, {}), IValue(), int64_t(-100),
                                                   std::string("none"), 0.0}, 5));  // unbatched
  }
}

TEST_F(Cuda, OneHotAndExtremesMatchTheCpu) {
  Tensor idx = classes({3, 0, 1, 3, 2}, {5});
  EXPECT_TRUE(same_on_cuda(OpId::one_hot, {idx, int64_t(6)}));
  EXPECT_TRUE(same_on_cuda(OpId::one_hot, {idx, int64_t(-1)}));
  for (DType t : {DType::float32, DType::float16, DType::bfloat16, DType::float64, DType::int64, DType::int32}) {
    Tensor x = input({4, 300, 3}, t, 0.0, 0.0, 50.0);
    EXPECT_TRUE(same_on_cuda(OpId::max, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::min, {x}));
    EXPECT_TRUE(same_on_cuda(OpId::amax, {x, Dims{0, 2}, true}));
    EXPECT_TRUE(same_on_cuda(OpId::amin, {x, Dims{1}, false}));
    EXPECT_TRUE(same_on_cuda(OpId::max_dim, {x, int64_t(1), false}));
    EXPECT_TRUE(same_on_cuda(OpId::min_dim, {x.transpose(0, 1), int64_t(0), true}));
    EXPECT_TRUE(same_on_cuda(OpId::argmax, {x, std::nullopt, false}));
    EXPECT_TRUE(same_on_cuda(OpId::argmax, {x, int64_t(-1), true}));
  }
  Tensor ties = make({1, 5, 5, std::nan(""), 2, std::nan(""), 0, 0}, {2, 4}, DType::float32);  // first index wins
  EXPECT_TRUE(same_on_cuda(OpId::max_dim, {ties, int64_t(1), false}));
  EXPECT_TRUE(same_on_cuda(OpId::min_dim, {ties, int64_t(0), false}));
}

// The backward ops autograd runs for relu, softmax, log_softmax and cross_entropy (where/gt, exp, sum,
// one_hot, ...): gradients on cuda agree with the CPU's.
TEST_F(Cuda, ClassifierGradientsMatchTheCpu) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  for (DType t : {DType::float32, DType::float64}) {
    Tensor x = input({6, 5}, t, 0.0, 0.0, 2.0), target = classes({0, 4, 2, -100, 1, 3}, {6});
    auto grad_on = [&](Device d) {
      Tensor xd = x.to(d).detach();
      xd.set_requires_grad(true);
      Tensor h = relu(xd);
      Tensor loss = add(call_op(OpId::cross_entropy, h, target.to(d), IValue(), int64_t(-100), std::string("mean"), 0.0),
                        sum(softmax(xd, 0) * xd));
      autograd::backward({loss});
      return xd.grad().to(Device::cpu());
    };
    auto [atol, rtol] = tolerance(t, 30);
    EXPECT_TRUE(test::all_close(grad_on(kCuda), grad_on(Device::cpu()), atol, rtol)) << dtype_name(t);
  }
}

}  // namespace
}  // namespace amps::rt
