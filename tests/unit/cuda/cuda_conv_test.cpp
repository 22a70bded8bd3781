// CUDA convolutions (cuDNN), pooling and batch_norm vs the CPU backend: every op and backward op on the same
// inputs, the gradients autograd runs through a small CNN, and a CNN training step under autocast cuda<float16>.
// Every test skips without a GPU.
#include <cmath>
#include <limits>

#include "amp/autocast_layer.hpp"
#include "cuda_test_util.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

// One convolution geometry: input and weight shapes, stride, padding, dilation, output_padding (transposed only).
struct ConvCase {
  Dims x, w, stride, padding, dilation, output_padding;
  int64_t groups;
  bool transposed;
};

const ConvCase kConvCases[] = {
    {{2, 4, 9, 8}, {6, 4, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 1, false},
    {{2, 4, 11, 10}, {6, 2, 3, 2}, {2, 1}, {1, 0}, {2, 1}, {0, 0}, 2, false},       // strided, dilated, groups
    {{1, 3, 7, 7}, {3, 1, 5, 5}, {2, 2}, {2, 2}, {1, 1}, {0, 0}, 3, false},          // depthwise
    {{3, 4, 17}, {6, 2, 4}, {3}, {2}, {2}, {0}, 2, false},                           // conv1d
    {{2, 2, 5, 6, 4}, {4, 2, 3, 3, 2}, {1, 2, 1}, {1, 1, 0}, {1, 1, 2}, {0, 0, 0}, 1, false},  // conv3d
    {{2, 4, 5, 6}, {4, 3, 3, 3}, {2, 2}, {1, 0}, {1, 1}, {1, 0}, 1, true},           // conv_transpose2d
    {{1, 4, 4, 5}, {4, 2, 2, 3}, {2, 1}, {0, 1}, {2, 1}, {1, 0}, 2, true},           // groups, dilation
    {{2, 3, 7}, {3, 2, 3}, {2}, {1}, {1}, {1}, 1, true},                             // conv_transpose1d
    {{1, 2, 3, 4, 3}, {2, 2, 2, 3, 2}, {2, 1, 2}, {0, 1, 0}, {1, 1, 1}, {1, 0, 0}, 1, true},  // conv_transpose3d
};

OpId forward_op(const ConvCase& c) {
  const size_t nd = c.x.size() - 2;
  if (c.transposed) return nd == 1 ? OpId::conv_transpose1d : nd == 2 ? OpId::conv_transpose2d : OpId::conv_transpose3d;
  return nd == 1 ? OpId::conv1d : nd == 2 ? OpId::conv2d : OpId::conv3d;
}

Args forward_args(const ConvCase& c, const Tensor& x, const Tensor& w, const IValue& bias) {
  if (c.transposed) return {x, w, bias, c.stride, c.padding, c.output_padding, c.groups, c.dilation};
  return {x, w, bias, c.stride, c.padding, c.dilation, c.groups};
}

int64_t volume(const Dims& d, size_t from) {
  int64_t v = 1;
  for (size_t i = from; i < d.size(); ++i) v *= d[i];
  return v;
}

TEST_F(Cuda, ConvolutionsMatchTheCpu) {
  for (const ConvCase& c : kConvCases)
    for (DType t : kFloats) {
      Tensor x = input(c.x, t, 0.1), w = input(c.w, t, 0.7, 0.0, 0.5), b = input({c.transposed ? c.w[1] * c.groups : c.w[0]}, t, 1.3);
      const int64_t k = c.x[1] * volume(c.w, 2);
      const OpId op = forward_op(c);
      EXPECT_TRUE(same_on_cuda(op, forward_args(c, x, w, b), k)) << op_name(op) << " " << dtype_name(t);
      EXPECT_TRUE(same_on_cuda(op, forward_args(c, x, w, IValue()), k)) << op_name(op) << " " << dtype_name(t);
      Tensor unbatched = x.select(0, 0);
      EXPECT_TRUE(same_on_cuda(op, forward_args(c, unbatched, w, b), k)) << op_name(op) << " unbatched";
      Tensor strided = x.transpose(0, 1).contiguous().transpose(0, 1);  // same shape, not row-major
      EXPECT_TRUE(same_on_cuda(op, forward_args(c, strided, w, b), k)) << op_name(op) << " strided";
    }
}

TEST_F(Cuda, ConvolutionBackwardOpsMatchTheCpu) {
  for (const ConvCase& c : kConvCases)
    for (DType t : kFloats) {
      Tensor x = input(c.x, t, 0.4), w = input(c.w, t, 0.9, 0.0, 0.5);
      Tensor y = dispatch(forward_op(c), forward_args(c, x, w, IValue()))[0];
      Tensor g = input(y.sizes(), t, 2.1);
      const Dims opad = c.transposed ? c.output_padding : Dims(c.stride.size(), 0);
      const int64_t k_in = volume(c.w, 0) / std::max<int64_t>(c.x[1], 1), k_w = volume(y.sizes(), 0) / y.size(1);
      EXPECT_TRUE(same_on_cuda(OpId::convolution_backward_input, {g, w, c.x, c.stride, c.padding, c.dilation,
                                                                  c.transposed, opad, c.groups}, k_in))
          << dtype_name(t) << (c.transposed ? " transposed" : "") << " rank " << c.x.size();
      EXPECT_TRUE(same_on_cuda(OpId::convolution_backward_weight, {g, x, c.w, c.stride, c.padding, c.dilation,
                                                                   c.transposed, opad, c.groups}, k_w))
          << dtype_name(t) << (c.transposed ? " transposed" : "") << " rank " << c.x.size();
    }
}

TEST_F(Cuda, ConvolutionErrorsAreTheCpus) {
  Tensor x = input({1, 4, 6, 6}, DType::float32).to(kCuda), w = input({2, 4, 3, 3}, DType::float32).to(kCuda);
  const Dims one{1, 1}, zero{0, 0};
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::conv2d, {x, w.to(DType::float16), IValue(), one, zero, one, int64_t(1)}); },
                                 "RuntimeError", "Input type (float32) and weight type (float16) should be the same"));
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::conv2d, {x, w, IValue(), one, zero, one, int64_t(2)}); },
                                 "RuntimeError", "expected input[1, 4, 6, 6] to have 8 channels"));
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::conv2d, {x.flatten(1), w, IValue(), one, zero, one, int64_t(1)}); },
                                 "RuntimeError", "Expected 3D (unbatched) or 4D (batched) input"));
}

// A window pattern of 2-D pooling: kernel, stride ([] = kernel), padding, dilation, ceil_mode.
struct PoolCase {
  Dims x, kernel, stride, padding, dilation;
  bool ceil_mode;
};

const PoolCase kPoolCases[] = {
    {{2, 3, 8, 9}, {2, 2}, {}, {0, 0}, {1, 1}, false},
    {{2, 3, 9, 10}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, true},   // ceil_mode: a last window hanging over
    {{1, 2, 10, 9}, {3, 2}, {1, 2}, {1, 1}, {2, 1}, false},  // overlapping dilated windows
    {{3, 7, 7}, {2, 2}, {2, 2}, {0, 0}, {1, 1}, true},       // unbatched
};

TEST_F(Cuda, MaxPoolMatchesTheCpu) {
  for (const PoolCase& c : kPoolCases)
    for (DType t : kFloats) {
      Tensor x = input(c.x, t, 0.2, 0.0, 3.0);
      const Args args{x, c.kernel, c.stride, c.padding, c.dilation, c.ceil_mode};
      EXPECT_TRUE(same_on_cuda(OpId::max_pool2d, args)) << dtype_name(t);
      EXPECT_TRUE(same_on_cuda(OpId::max_pool2d_with_indices, args)) << dtype_name(t);
      Tensor y = dispatch(OpId::max_pool2d, Args(args))[0];
      Tensor g = input(y.sizes(), t, 1.7);
      EXPECT_TRUE(same_on_cuda(OpId::max_pool2d_backward, {g, x, c.kernel, c.stride, c.padding, c.dilation, c.ceil_mode}, 4))
          << dtype_name(t);
    }
  // Ties take the first element of the scan, a NaN takes over (and later NaNs after it).
  Tensor x = make({1, 1, 3, 1, std::numeric_limits<double>::quiet_NaN(), 2, 2, 0, 5, 5, 5, 5, 5, 5, 5, 5}, {1, 1, 4, 4});
  const Args args{x, Dims{2, 2}, Dims{1, 1}, Dims{0, 0}, Dims{1, 1}, false};
  EXPECT_TRUE(same_on_cuda(OpId::max_pool2d_with_indices, args));
  EXPECT_TRUE(same_on_cuda(OpId::max_pool2d_backward, {input({1, 1, 3, 3}, DType::float32), x, Dims{2, 2}, Dims{1, 1},
                                                       Dims{0, 0}, Dims{1, 1}, false}));
}

TEST_F(Cuda, AvgPoolMatchesTheCpu) {
  for (const PoolCase& c : kPoolCases)
    for (DType t : kFloats)
      for (bool include_pad : {true, false})
        for (IValue divisor : {IValue(), IValue(int64_t(5)), IValue(int64_t(-3))}) {  // a negative override divides too
          Tensor x = input(c.x, t, 0.6);
          const Args args{x, c.kernel, c.stride, c.padding, c.ceil_mode, include_pad, divisor};
          EXPECT_TRUE(same_on_cuda(OpId::avg_pool2d, args, 9)) << dtype_name(t);
          Tensor y = dispatch(OpId::avg_pool2d, Args(args))[0];
          const Args back{input(y.sizes(), t, 0.8), c.x, c.kernel, c.stride, c.padding, c.ceil_mode, include_pad, divisor};
          EXPECT_TRUE(same_on_cuda(OpId::avg_pool2d_backward, back, 9)) << dtype_name(t);
        }
}

TEST_F(Cuda, AdaptiveAvgPoolMatchesTheCpu) {
  for (DType t : kFloats)
    for (const Dims& out : {Dims{4, 3}, Dims{10, 7}, Dims{1, 1}, Dims{14, 9}}) {
      for (const Dims& in : {Dims{2, 3, 10, 7}, Dims{3, 10, 7}}) {
        Tensor x = input(in, t, 0.5);
        EXPECT_TRUE(same_on_cuda(OpId::adaptive_avg_pool2d, {x, out}, 70)) << dtype_name(t);
        Dims gs(in.begin(), in.end() - 2);
        gs.push_back(out[0]);
        gs.push_back(out[1]);
        EXPECT_TRUE(same_on_cuda(OpId::adaptive_avg_pool2d_backward, {input(gs, t, 1.1), in}, 4)) << dtype_name(t);
      }
    }
}

// Output and the running stats after the call, on both devices.
void expect_batch_norm_matches(const Tensor& x, const Tensor& rm, const Tensor& rv, const IValue& w, const IValue& b,
                               bool training) {
  Tensor rm_cpu = rm.defined() ? rm.clone() : Tensor(), rv_cpu = rv.defined() ? rv.clone() : Tensor();
  Tensor rm_cuda = rm.defined() ? rm.to(kCuda) : Tensor(), rv_cuda = rv.defined() ? rv.to(kCuda) : Tensor();
  auto opt = [](const Tensor& t) { return t.defined() ? IValue(t) : IValue(); };
  Tensor want = dispatch(OpId::batch_norm, {x, opt(rm_cpu), opt(rv_cpu), w, b, training, 0.1, 1e-5})[0];
  Tensor got = dispatch(OpId::batch_norm, {x.to(kCuda), opt(rm_cuda), opt(rv_cuda), to_cuda(w), to_cuda(b), training,
                                           0.1, 1e-5})[0];
  auto [atol, rtol] = tolerance(x.dtype(), 4);
  EXPECT_TRUE(test::all_close(got.to(Device::cpu()), want, atol, rtol)) << dtype_name(x.dtype()) << " training " << training;
  if (!rm.defined()) return;
  auto [satol, srtol] = tolerance(rm.dtype(), 4);
  EXPECT_TRUE(test::all_close(rm_cuda.to(Device::cpu()), rm_cpu, satol, srtol)) << "running_mean";
  EXPECT_TRUE(test::all_close(rv_cuda.to(Device::cpu()), rv_cpu, satol, srtol)) << "running_var";
}

TEST_F(Cuda, BatchNormMatchesTheCpu) {
  for (DType t : kFloats)
    for (const Dims& shape : {Dims{4, 3, 5, 6}, Dims{8, 5}, Dims{2, 3, 2, 3, 2}}) {
      const int64_t C = shape[1];
      Tensor x = input(shape, t, 0.3, 0.5, 2.0), w = input({C}, t, 0.1, 1.0, 0.3), b = input({C}, t, 0.9, 0.0, 0.3);
      Tensor rm = input({C}, t, 0.2, 0.0, 0.1), rv = input({C}, t, 0.4, 1.0, 0.2);
      expect_batch_norm_matches(x, rm, rv, w, b, true);
      expect_batch_norm_matches(x, rm, rv, w, b, false);
      expect_batch_norm_matches(x, Tensor(), Tensor(), IValue(), IValue(), true);
      expect_batch_norm_matches(x.transpose(0, 1).contiguous().transpose(0, 1), rm, rv, IValue(), b, true);  // strided
      // half activations with float32 statistics and affine (as an autocast region leaves them)
      expect_batch_norm_matches(x, rm.to(DType::float32), rv.to(DType::float32), w.to(DType::float32), IValue(), true);
    }
  Tensor x = input({1, 3}, DType::float32).to(kCuda);
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::batch_norm, {x, IValue(), IValue(), IValue(), IValue(), true, 0.1, 1e-5}); },
                                 "RuntimeError", "Expected more than 1 value per channel when training"));
  EXPECT_TRUE(test::throws_error([&] { dispatch(OpId::batch_norm, {x, IValue(), IValue(), IValue(), IValue(), false, 0.1, 1e-5}); },
                                 "RuntimeError", "must be defined in evaluation mode"));
}

// ---- a small CNN (conv -> relu -> max_pool -> linear -> cross_entropy) on both devices ----
struct Cnn {
  Tensors params;  // conv weight, conv bias, linear weight, linear bias
};

Cnn make_cnn(DType t) {
  return {{input({6, 1, 3, 3}, t, 0.3, 0.0, 0.5), input({6}, t, 0.8, 0.0, 0.1), input({10, 6 * 5 * 5}, t, 1.4, 0.0, 0.1),
           input({10}, t, 2.2, 0.0, 0.1)}};
}

// The params of [net] on [d] as leaves that require grad.
Tensors leaves(const Cnn& net, Device d) {
  Tensors p;
  for (const Tensor& q : net.params) {
    p.push_back(q.to(d).detach());
    p.back().set_requires_grad(true);
  }
  return p;
}

Tensor cnn_loss(const Tensors& p, const Tensor& x, const Tensor& target) {
  Tensor h = max_pool2d(relu(conv2d(x, p[0], p[1], {1, 1}, {1, 1})), {2, 2});
  return cross_entropy(linear(h.flatten(1), p[2], p[3]), target);
}

Tensor targets() { return make({3, 7, 0, 9}, {4}, DType::int64); }

TEST_F(Cuda, CnnGradientsMatchTheCpu) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  for (DType t : {DType::float32, DType::float64}) {
    const Cnn net = make_cnn(t);
    const Tensor x = input({4, 1, 10, 10}, t, 0.6);
    auto grads_on = [&](Device d) {
      Tensors p = leaves(net, d);
      autograd::backward({cnn_loss(p, x.to(d), targets().to(d))});
      Tensors g;
      for (const Tensor& q : p) g.push_back(q.grad().to(Device::cpu()));
      return g;
    };
    Tensors got = grads_on(kCuda), want = grads_on(Device::cpu());
    auto [atol, rtol] = tolerance(t, 150);
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(test::all_close(got[i], want[i], atol, rtol)) << dtype_name(t) << " parameter " << i;
  }
}

// One SGD step of the CNN with its forward under autocast cuda<float16>: the conv runs in float16, the gradients
// reach the float32 weights in float32, agree with the CPU's float32 step within float16's precision, and the
// step lowers the loss.
TEST_F(Cuda, CnnTrainingStepUnderAutocastFloat16) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  auto autocast = amp::install_autocast(ctx);
  const Cnn net = make_cnn(DType::float32);
  const Tensor x = input({4, 1, 10, 10}, DType::float32, 0.6), target = targets();
  Tensors p = leaves(net, kCuda);
  Tensor xc = x.to(kCuda), tc = target.to(kCuda), loss;
  {
    amp::AutocastGuard region(autocast, DeviceType::cuda, true, DType::float16, true);
    EXPECT_EQ(conv2d(xc, p[0], p[1]).dtype(), DType::float16);
    loss = cnn_loss(p, xc, tc);
  }
  EXPECT_EQ(loss.dtype(), DType::float32);
  autograd::backward({loss});
  Tensors ref = leaves(net, Device::cpu());
  autograd::backward({cnn_loss(ref, x, target)});
  const double lr = 0.5;
  for (size_t i = 0; i < p.size(); ++i) {
    ASSERT_TRUE(p[i].grad().defined()) << i;
    EXPECT_EQ(p[i].grad().dtype(), DType::float32) << i;
    EXPECT_TRUE(test::all_close(p[i].grad().to(Device::cpu()), ref[i].grad(), 2e-3, 2e-2)) << "parameter " << i;
    GradModeGuard no_grad(false);
    p[i].copy_(sub(p[i], mul(p[i].grad(), wrap_number(Scalar(lr)))));
  }
  GradModeGuard no_grad(false);
  amp::AutocastGuard region(autocast, DeviceType::cuda, true, DType::float16, true);
  const double before = loss.to(Device::cpu()).to_doubles()[0], after = cnn_loss(p, xc, tc).to(Device::cpu()).to_doubles()[0];
  EXPECT_LT(after, before);
}

}  // namespace
}  // namespace amps::rt
