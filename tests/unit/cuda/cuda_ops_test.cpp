// CUDA backend vs the CPU reference: every CUDA kernel family on the same inputs, compared within per-dtype
// tolerances, plus moves, the allocator's counter and the error for ops without a CUDA kernel. Every test
// skips itself when no GPU is present (CPU-only builds and machines run none of them).
#include "cuda_test_util.hpp"

namespace amps::rt {
namespace {

TEST_F(Cuda, RoundTripKeepsEveryDtype) {
  for (DType t : {DType::float64, DType::float32, DType::float16, DType::bfloat16, DType::int64, DType::int32, DType::bool_}) {
    Tensor x = make({0, 1, -2, 3.5, 4, -5}, {2, 3}, t);
    Tensor d = x.to(kCuda);
    EXPECT_EQ(d.device(), kCuda);
    EXPECT_TRUE(test::all_close(d.to(Device::cpu()), x, 0, 0)) << dtype_name(t);
    EXPECT_TRUE(test::all_close(d.t().contiguous().to(Device::cpu()), x.t().contiguous(), 0, 0)) << dtype_name(t);
  }
}

TEST_F(Cuda, CastsMatchTheCpu) {
  const DType all[] = {DType::float64, DType::float32, DType::float16, DType::bfloat16, DType::int64, DType::int32, DType::bool_};
  for (DType from : all)
    for (DType to : all) {
      Tensor x = make({0, 1, -2, 3.25, 1000.5, -7, 0.1, 65000}, {2, 4}, from);
      EXPECT_TRUE(same_on_cuda(OpId::to, {x, to})) << dtype_name(from) << " -> " << dtype_name(to);
    }
}

TEST_F(Cuda, BinaryOpsBroadcastAndPromote) {
  const OpId ops[] = {OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::maximum, OpId::minimum, OpId::eq, OpId::lt,
                      OpId::ge, OpId::pow, OpId::atan2};
  for (DType t : kFloats)
    for (OpId op : ops) {
      Tensor x = input({3, 1, 4}, t, 0.0, op == OpId::pow ? 1.5 : 0.0), y = input({5, 4}, t, 0.7);
      EXPECT_TRUE(same_on_cuda(op, {x, y}));
      EXPECT_TRUE(same_on_cuda(op, {x.transpose(0, 2), input({4, 1, 3}, t, 1.1)}));  // strided operand
      EXPECT_TRUE(same_on_cuda(op, {x, wrap_number(Scalar(2.5))}));                 // Python number
    }
  EXPECT_TRUE(same_on_cuda(OpId::add, {input({4, 3}, DType::float32), input({3}, DType::float32), Scalar(-0.5)}));
  EXPECT_TRUE(same_on_cuda(OpId::add, {make({1, 2, 3}, {3}, DType::int64), input({3}, DType::float16)}));
  EXPECT_TRUE(same_on_cuda(OpId::div, {make({7, -7, 9}, {3}, DType::int64), make({2, 2, -4}, {3}, DType::int64)}));
  EXPECT_TRUE(same_on_cuda(OpId::floor_divide, {make({7, -7, 9}, {3}, DType::int64), make({2, 2, -4}, {3}, DType::int64)}));
  EXPECT_TRUE(same_on_cuda(OpId::remainder, {make({7, -7, 9}, {3}, DType::int32), make({2, 2, -4}, {3}, DType::int32)}));
}

TEST_F(Cuda, InPlaceBinaryOpsWriteTheirInput) {
  Tensor x = input({4, 5}, DType::float32).to(kCuda), y = input({5}, DType::float32, 0.3);
  Tensor ref = add(x.to(Device::cpu()), y, Scalar(2.0));
  Tensors r = dispatch(OpId::add_, {x, y.to(kCuda), Scalar(2.0)});
  EXPECT_TRUE(r[0].is_same(x));
  EXPECT_TRUE(test::all_close(x, ref, 1e-6, 1e-6));
}

TEST_F(Cuda, UnaryOpsMatchTheCpu) {
  const OpId any_sign[] = {OpId::neg, OpId::abs, OpId::square, OpId::exp, OpId::sin, OpId::cos, OpId::tanh,
                           OpId::sigmoid, OpId::relu, OpId::silu, OpId::erf, OpId::floor, OpId::ceil, OpId::round,
                           OpId::trunc, OpId::sign, OpId::expm1, OpId::isfinite, OpId::logical_not,
                           OpId::sinh, OpId::cosh, OpId::atan};
  const OpId unit_interval[] = {OpId::asin, OpId::acos, OpId::erfinv, OpId::tan};
  const OpId positive[] = {OpId::sqrt, OpId::rsqrt, OpId::log, OpId::log2, OpId::log10, OpId::log1p, OpId::reciprocal};
  for (DType t : kFloats) {
    for (OpId op : any_sign) EXPECT_TRUE(same_on_cuda(op, {input({6, 7}, t, 0.0, 0.0, 3.0)}));
    for (OpId op : positive) EXPECT_TRUE(same_on_cuda(op, {input({6, 7}, t, 0.0, 2.0)}));
    for (OpId op : unit_interval) EXPECT_TRUE(same_on_cuda(op, {input({6, 7}, t, 0.0, 0.0, 0.9)}));
    EXPECT_TRUE(same_on_cuda(OpId::gelu, {input({6, 7}, t), std::string("tanh")}));
    for (const char* mode : {"none", "tanh"}) {  // 6400 elements: oneDNN on the CPU for float32/bfloat16
      EXPECT_TRUE(same_on_cuda(OpId::gelu, {input({64, 100}, t, 0.0, 0.0, 4.0), std::string(mode)}));
      EXPECT_TRUE(same_on_cuda(OpId::gelu_backward, {input({6, 7}, t, 0.3), input({6, 7}, t, 0.0, 0.0, 3.0),
                                                     std::string(mode)}));
      EXPECT_TRUE(same_on_cuda(OpId::gelu_backward, {input({64, 100}, t, 0.3), input({64, 100}, t, 0.0, 0.0, 4.0),
                                                     std::string(mode)}));
      EXPECT_TRUE(same_on_cuda(OpId::gelu_backward, {input({7}, t, 0.3), input({6, 7}, t), std::string(mode)}));
    }
    EXPECT_TRUE(same_on_cuda(OpId::leaky_relu, {input({6, 7}, t), Scalar(0.2)}));
    EXPECT_TRUE(same_on_cuda(OpId::clamp, {input({6, 7}, t), Scalar(-0.3), Scalar(0.4)}));
  }
  EXPECT_TRUE(same_on_cuda(OpId::exp, {make({0, 1, 2}, {3}, DType::int64)}));  // integers compute in float32
  EXPECT_TRUE(same_on_cuda(OpId::neg, {make({0, 1, -2}, {3}, DType::int32)}));
}

TEST_F(Cuda, SumAndMeanOverDims) {
  for (DType t : kFloats) {
    Tensor x = input({4, 33, 5}, t);
    EXPECT_TRUE(same_on_cuda(OpId::sum, {x}, 660));
    EXPECT_TRUE(same_on_cuda(OpId::mean, {x}, 660));
    EXPECT_TRUE(same_on_cuda(OpId::sum, {x, Dims{1}, true}, 33));
    EXPECT_TRUE(same_on_cuda(OpId::mean, {x, Dims{0, 2}}, 20));
    EXPECT_TRUE(same_on_cuda(OpId::sum, {x.transpose(0, 2), Dims{-1}}, 4));
  }
  Tensor big = input({3, 200000}, DType::float32);  // long rows take the split path
  EXPECT_TRUE(same_on_cuda(OpId::sum, {big, Dims{1}}, 200000));
  EXPECT_TRUE(same_on_cuda(OpId::sum, {make({1, 2, 3, 4}, {2, 2}, DType::int32)}));
  EXPECT_TRUE(same_on_cuda(OpId::sum, {make({1, 0, 1}, {3}, DType::bool_)}));
  EXPECT_TRUE(same_on_cuda(OpId::sum, {input({8}, DType::float16), std::nullopt, false, DType::float32}, 8));
}

TEST_F(Cuda, MatrixProductsMatchTheCpu) {
  for (DType t : kFloats) {
    Tensor a = input({7, 13}, t), b = input({13, 5}, t, 0.4), c = input({5}, t, 0.9);
    EXPECT_TRUE(same_on_cuda(OpId::mm, {a, b}, 13));
    EXPECT_TRUE(same_on_cuda(OpId::mm, {input({13, 7}, t).t(), input({5, 13}, t).t()}, 13));  // transposed operands
    EXPECT_TRUE(same_on_cuda(OpId::addmm, {c, a, b, Scalar(0.5), Scalar(2.0)}, 13));
    EXPECT_TRUE(same_on_cuda(OpId::linear, {input({2, 3, 13}, t), input({5, 13}, t, 0.2), c}, 13));
    EXPECT_TRUE(same_on_cuda(OpId::bmm, {input({3, 7, 13}, t), input({3, 13, 5}, t, 0.1)}, 13));
    EXPECT_TRUE(same_on_cuda(OpId::matmul, {input({2, 1, 7, 13}, t), input({4, 13, 5}, t, 0.3)}, 13));  // broadcast batch
    EXPECT_TRUE(same_on_cuda(OpId::matmul, {input({13}, t), input({13, 5}, t)}, 13));
    EXPECT_TRUE(same_on_cuda(OpId::matmul, {input({7, 13}, t), input({13}, t)}, 13));
  }
  Tensor big_a = input({256, 512}, DType::float16), big_b = input({512, 128}, DType::float16, 0.5);
  EXPECT_TRUE(same_on_cuda(OpId::mm, {big_a, big_b}, 512));
}

TEST_F(Cuda, FactoriesAndFills) {
  EXPECT_TRUE(test::all_close(zeros({2, 3}, DType::float16, kCuda), std::vector<double>(6, 0.0), 0, 0));
  EXPECT_TRUE(test::all_close(ones({4}, DType::int32, kCuda), std::vector<double>(4, 1.0), 0, 0));
  EXPECT_TRUE(test::all_close(full({3}, Scalar(2.5), DType::bfloat16, kCuda), std::vector<double>(3, 2.5), 0, 0));
  EXPECT_TRUE(test::all_close(arange(Scalar(int64_t(5)), std::nullopt, int64_t(1), std::nullopt, kCuda), {0, 1, 2, 3, 4}, 0, 0));
  Tensor x = input({3, 4}, DType::float32).to(kCuda);
  x.transpose(0, 1).fill_(Scalar(7.0));
  EXPECT_TRUE(test::all_close(x, std::vector<double>(12, 7.0), 0, 0));
  manual_seed(3);
  Tensor r_cpu = randn({5});
  manual_seed(3);
  EXPECT_TRUE(test::all_close(randn({5}, DType::float32, kCuda), r_cpu, 0, 0));  // same numbers for a seed
}

// *_like(x, device=D) makes its result on D whichever device x is on (the input gives only the sizes).
TEST_F(Cuda, LikeOpsFollowTheirDeviceArgument) {
  const Tensor host = input({2, 3}, DType::float32), dev = host.to(kCuda);
  for (OpId op : {OpId::zeros_like, OpId::ones_like, OpId::empty_like, OpId::rand_like, OpId::randn_like}) {
    SCOPED_TRACE(op_name(op));
    EXPECT_EQ(dispatch(op, {dev, IValue(), Device::cpu()})[0].device(), Device::cpu());
    EXPECT_EQ(dispatch(op, {host, IValue(), kCuda})[0].device(), kCuda);
  }
  const Tensor full_dev = dispatch(OpId::full_like, {host, Scalar(3.0), IValue(), kCuda})[0];
  EXPECT_EQ(full_dev.device(), kCuda);
  EXPECT_TRUE(test::all_close(full_dev, std::vector<double>(6, 3.0), 0, 0));
  EXPECT_TRUE(test::all_close(dispatch(OpId::ones_like, {dev, IValue(), Device::cpu()})[0], std::vector<double>(6, 1.0), 0, 0));
}

TEST_F(Cuda, MovesBetweenDevicesAndViews) {
  Tensor x = input({4, 6}, DType::float32);
  Tensor d = x.to(kCuda);
  Tensor v = d.slice(1, 1, 5, 2).transpose(0, 1);  // a strided view on the device
  EXPECT_TRUE(test::all_close(v.to(Device::cpu()), x.slice(1, 1, 5, 2).transpose(0, 1), 0, 0));
  Tensor host = zeros({2, 4});
  host.copy_(v);  // device -> host copy_ into a host tensor
  EXPECT_TRUE(test::all_close(host, x.slice(1, 1, 5, 2).transpose(0, 1), 0, 0));
  Tensor dd = zeros({4, 6}, DType::float16, kCuda);
  dd.copy_(x);  // host -> device copy_ with a cast
  EXPECT_TRUE(test::all_close(dd, x, 1e-3, 1e-3));
  EXPECT_EQ(d.reshape({6, 4}).device(), kCuda);
  EXPECT_TRUE(same_on_cuda(OpId::cat, {std::vector<Tensor>{x, x.slice(1, 0, 2)}, int64_t(1)}));
  EXPECT_TRUE(same_on_cuda(OpId::stack, {std::vector<Tensor>{x, input({4, 6}, DType::float16, 0.5)}, int64_t(0)}));
  EXPECT_TRUE(test::all_close(d.t().reshape({24}), x.t().reshape({24}), 0, 0));  // reshape that must copy
}

TEST_F(Cuda, AllocatorCountsLiveTensors) {
  Backend* b = backend_for(DeviceType::cuda);
  const int64_t before = b->memory_allocated(kCuda);
  {
    Tensor t = Tensor::empty({1 << 20}, DType::float32, kCuda);
    EXPECT_GE(b->memory_allocated(kCuda) - before, int64_t(4) << 20);
  }
  EXPECT_EQ(b->memory_allocated(kCuda), before);
  b->synchronize(kCuda);
}

TEST_F(Cuda, DtypesWithoutACudaKernelRaiseNamingOpAndDevice) {
  Tensor x = make({4, 1, 1, 4}, {2, 2}, DType::int64).to(kCuda);  // cholesky runs for float dtypes only
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::cholesky, {x, false}); }, "RuntimeError",
                                 "\"cholesky\" not implemented for 'int64' on cuda"));
}

// A 0-dim CPU tensor joins a cuda op (PyTorch's CPU-scalar rule): the backend uploads it before the kernel reads
// it (an unbatched class target, an index); one the op would write is refused instead of written on the device.
TEST_F(Cuda, CpuScalarTensorsAreUploadedAndNeverWritten) {
  const Tensor logits = input({5}, DType::float32);
  EXPECT_TRUE(test::all_close(dispatch(OpId::cross_entropy, {logits.to(kCuda), make({3}, {}, DType::int64)})[0],
                              dispatch(OpId::cross_entropy, {logits, make({3}, {}, DType::int64)})[0], 1e-6, 1e-6));
  const Tensor x = input({4, 3}, DType::float32);
  EXPECT_TRUE(test::all_close(dispatch(OpId::index_select, {x.to(kCuda), int64_t(0), make({2}, {}, DType::int64)})[0],
                              dispatch(OpId::index_select, {x, int64_t(0), make({2}, {}, DType::int64)})[0], 0, 0));
  // elementwise ops take it by value (no upload)
  EXPECT_TRUE(test::all_close(dispatch(OpId::mul, {x.to(kCuda), make({2}, {})})[0], mul(x, make({2}, {})), 0, 0));
  EXPECT_TRUE(test::all_close(dispatch(OpId::where, {gt(x, wrap_number(Scalar(0.0))).to(kCuda), x.to(kCuda), make({7}, {})})[0],
                              dispatch(OpId::where, {gt(x, wrap_number(Scalar(0.0))), x, make({7}, {})})[0], 0, 0));
  Tensor host = make({1}, {}, DType::float32);
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::add_, {host, make({2}, {}).to(kCuda)}); }, "RuntimeError",
                                 "add_ writes its argument 'input', a cpu tensor"));
  EXPECT_EQ(host.item<double>(), 1.0);
}

}  // namespace
}  // namespace amps::rt
