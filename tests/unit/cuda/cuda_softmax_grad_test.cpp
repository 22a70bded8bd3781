// The softmax/log_softmax forward's row layouts (a warp per row up to 1024 elements, vectorised when aligned; a
// block per longer row; a thread per column for other dims) and the gradient ops _softmax_backward_data,
// _log_softmax_backward_data and nll_loss_backward on cuda vs the CPU backend, then whole gradients (cross_entropy
// with weights, ignore_index, label smoothing and every reduction; double backward) through autograd. Every test
// skips without a GPU.
#include "cuda_test_util.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

using O = OpId;

// Row lengths around the kernels' boundaries: 1, a warp (32), the vector widths, 8 and 16 halves per lane, the
// warp-per-row limit (1024) and a block per row beyond it (1025: element loads; 1028: float32 and float64 vectors
// only; 5000: vectors in every dtype).
const int64_t kRowLengths[] = {1, 5, 8, 31, 32, 33, 64, 100, 256, 257, 1000, 1024, 1025, 1028, 5000};

Tensor classes(const std::vector<double>& v, const Dims& shape) { return make(v, shape, DType::int64); }

// [rows, n] values of [t] starting one element into a buffer: contiguous but not 16-byte aligned.
Tensor misaligned(int64_t rows, int64_t n, DType t, double phase) {
  return input({rows * n + 1}, t, phase, 0.0, 3.0).narrow(0, 1, rows * n).view({rows, n});
}

TEST_F(Cuda, SoftmaxForwardRowLengths) {
  for (DType t : kFloats)
    for (O op : {O::softmax, O::log_softmax})
      for (int64_t n : kRowLengths) {
        const int64_t rows = n > 1000 ? 3 : 7;  // not a multiple of the 4 rows a block takes
        EXPECT_TRUE(same_on_cuda(op, {input({rows, n}, t, 0.1, 0.0, 4.0), int64_t(-1), std::nullopt}, n))
            << dtype_name(t) << " n=" << n;
        EXPECT_TRUE(same_on_cuda(op, {misaligned(rows, n, t, 0.2), int64_t(1), std::nullopt}, n))
            << "misaligned " << dtype_name(t) << " n=" << n;
      }
}

// softmax(x, dtype=float32) of float16/bfloat16 rows (the warp kernel reads the half type and writes float32 up to
// 1024 elements; longer rows, other dims and strided inputs are cast first), and the gradient back into the half type.
TEST_F(Cuda, SoftmaxHalfIntoFloat32AndBack) {
  for (DType t : {DType::float16, DType::bfloat16})
    for (bool log : {false, true})
      for (int64_t n : kRowLengths) {
        const int64_t rows = n > 1000 ? 3 : 7;
        const O fwd = log ? O::log_softmax : O::softmax;
        const O bwd = log ? O::_log_softmax_backward_data : O::_softmax_backward_data;
        EXPECT_TRUE(same_on_cuda(fwd, {input({rows, n}, t, 0.1, 0.0, 4.0), int64_t(1), DType::float32}, n))
            << dtype_name(t) << " n=" << n;
        EXPECT_TRUE(same_on_cuda(fwd, {misaligned(rows, n, t, 0.3), int64_t(-1), DType::float32}, n));
        EXPECT_TRUE(same_on_cuda(fwd, {input({n, 3}, t, 0.2), int64_t(0), DType::float32}, n));  // not innermost
        Tensor y = (log ? log_softmax : softmax)(input({rows, n}, DType::float32, 0.4, 0.0, 3.0), 1);
        EXPECT_TRUE(same_on_cuda(bwd, {input({rows, n}, DType::float32, 0.7), y, int64_t(1), t}, n))
            << "backward " << dtype_name(t) << " n=" << n;
        EXPECT_TRUE(same_on_cuda(bwd, {misaligned(rows, n, DType::float32, 0.5), y, int64_t(-1), t}, n));
      }
}

TEST_F(Cuda, SoftmaxForwardLayouts) {
  for (DType t : kFloats)
    for (O op : {O::softmax, O::log_softmax}) {
      Tensor x = input({3, 256, 5}, t, 0.3, 0.0, 4.0);
      for (int64_t d : {0, 1, 2}) EXPECT_TRUE(same_on_cuda(op, {x, d, std::nullopt}, 256)) << d;
      EXPECT_TRUE(same_on_cuda(op, {x.transpose(1, 2), int64_t(-1), std::nullopt}, 256));  // strided, copied
      EXPECT_TRUE(same_on_cuda(op, {input({2, 12, 16, 16}, t), int64_t(-1), std::nullopt}, 16));  // attention-like
      EXPECT_TRUE(same_on_cuda(op, {input({4, 64}, t), int64_t(1), DType::float32}, 64));  // dtype=
      EXPECT_TRUE(same_on_cuda(op, {input({}, t), int64_t(0), std::nullopt}));               // 0-dim
    }
  // extreme values: -inf entries, a row of one huge value, NaN rows (NaN throughout, as the CPU)
  const double inf = INFINITY, nan = std::nan("");
  Tensor ext = make({0, -inf, 1, 2, 1e30, -1e30, 0, 0, nan, 1, 2, 3}, {3, 4}, DType::float32);
  for (O op : {O::softmax, O::log_softmax}) EXPECT_TRUE(same_on_cuda(op, {ext, int64_t(1), std::nullopt}, 4));
}

TEST_F(Cuda, SoftmaxBackwardDataRowLengths) {
  for (DType t : kFloats)
    for (O op : {O::_softmax_backward_data, O::_log_softmax_backward_data})
      for (int64_t n : kRowLengths) {
        const int64_t rows = n > 1000 ? 3 : 7;
        const bool log = op == O::_log_softmax_backward_data;
        Tensor y = (log ? log_softmax : softmax)(input({rows, n}, DType::float32, 0.4, 0.0, 3.0), 1).to(t);
        Tensor g = input({rows, n}, t, 0.7);
        EXPECT_TRUE(same_on_cuda(op, {g, y, int64_t(-1), t}, n)) << dtype_name(t) << " n=" << n;
        Tensor gm = misaligned(rows, n, t, 0.5), ym = y.contiguous();
        EXPECT_TRUE(same_on_cuda(op, {gm, ym, int64_t(1), t}, n)) << "misaligned " << dtype_name(t) << " n=" << n;
      }
}

TEST_F(Cuda, SoftmaxBackwardDataLayoutsAndDtypes) {
  for (DType t : kFloats)
    for (O op : {O::_softmax_backward_data, O::_log_softmax_backward_data}) {
      const bool log = op == O::_log_softmax_backward_data;
      Tensor x = input({3, 40, 5}, DType::float32, 0.3, 0.0, 3.0);
      for (int64_t d : {0, 1, 2, -1}) {
        Tensor y = (log ? log_softmax : softmax)(x, d).to(t), g = input({3, 40, 5}, t, 0.9);
        EXPECT_TRUE(same_on_cuda(op, {g, y, d, t}, 40)) << dtype_name(t) << " dim " << d;
        EXPECT_TRUE(same_on_cuda(op, {g.transpose(0, 2).contiguous().transpose(0, 2), y, d, t}, 40));  // strided grad
      }
      Tensor y32 = (log ? log_softmax : softmax)(input({6, 48}, DType::float32), 1);
      // softmax(x, dtype=float32) of a half-type x: float32 operands, the input's dtype out (computed in float32,
      // so a float64 result is as exact as float32: compared at float32's tolerance)
      const Tensor want = dispatch(op, {input({6, 48}, DType::float32, 0.2), y32, int64_t(1), t})[0];
      const Tensor got = dispatch(op, {input({6, 48}, DType::float32, 0.2).to(kCuda), y32.to(kCuda), int64_t(1), t})[0];
      EXPECT_EQ(got.dtype(), t);
      auto [atol32, rtol32] = tolerance(t == DType::float64 ? DType::float32 : t, 48);
      EXPECT_TRUE(test::all_close(got, want, atol32, rtol32)) << dtype_name(t);
      // a grad of another dtype than the output (cast to the output's first)
      EXPECT_TRUE(same_on_cuda(op, {input({6, 48}, t, 0.2), y32, int64_t(1), DType::float32}, 48));
      Tensor y0 = (log ? log_softmax : softmax)(input({}, DType::float32), 0).to(t);
      EXPECT_TRUE(same_on_cuda(op, {input({}, t, 0.6), y0, int64_t(0), t}));  // 0-dim
      EXPECT_TRUE(same_on_cuda(op, {input({0, 7}, t), input({0, 7}, t), int64_t(1), t}));  // empty
    }
}

TEST_F(Cuda, NllLossBackwardMatchesTheCpu) {
  for (DType t : kFloats)
    for (const char* red : {"mean", "sum", "none"}) {
      const bool none = std::string(red) == "none";
      Tensor target = classes({0, 4, 2, -100, 1, 3, 4}, {7}), w = input({5}, t, 0.5, 1.5, 0.5);
      Tensor g = none ? input({7}, t, 0.3) : input({}, t, 0.3, 1.2);
      for (const Tensor& wt : {Tensor(), w}) {
        IValue wv = wt.defined() ? IValue(wt) : IValue();
        EXPECT_TRUE(same_on_cuda(O::nll_loss_backward, {g, target, wv, Dims{7, 5}, int64_t(-100), std::string(red)}))
            << dtype_name(t) << " " << red;
        Tensor target2 = classes({0, 4, 2, 2, 1, 3, 4}, {7});  // ignore_index 2 (-100 would be out of range)
        EXPECT_TRUE(same_on_cuda(O::nll_loss_backward, {g, target2, wv, Dims{7, 5}, int64_t(2), std::string(red)}));
      }
      // [N, C, d1, d2] with a class dim in the middle
      Tensor t4 = classes({0, 1, 2, 3, 0, -100, 2, 3, 1, 3, 2, 1}, {2, 2, 3});
      Tensor g4 = none ? input({2, 2, 3}, t, 0.1) : input({}, t, 0.1, 1.0);
      EXPECT_TRUE(same_on_cuda(O::nll_loss_backward, {g4, t4, input({4}, t, 0.2, 1.0, 0.5), Dims{2, 4, 2, 3},
                                                      int64_t(-100), std::string(red)}));
      // unbatched: input [C], target 0-dim
      EXPECT_TRUE(same_on_cuda(O::nll_loss_backward, {input({}, t, 0.4, 1.0), classes({3}, {}), IValue(), Dims{6},
                                                      int64_t(-100), std::string(red)}));
      // many classes (the cross-entropy shape of a language model head, smaller)
      std::vector<double> k(64);
      for (size_t i = 0; i < k.size(); ++i) k[i] = double((i * 37) % 1000);
      Tensor gk = none ? input({64}, t, 0.8) : input({}, t, 0.8, 1.0);
      EXPECT_TRUE(same_on_cuda(O::nll_loss_backward, {gk, classes(k, {64}), IValue(), Dims{64, 1000}, int64_t(-100),
                                                      std::string(red)}));
    }
  // every row ignored: zeros (not 0/0) under 'mean', as the CPU and PyTorch
  Tensor all_ignored = classes({-100, -100}, {2});
  EXPECT_TRUE(same_on_cuda(O::nll_loss_backward, {input({}, DType::float32, 0.1, 1.0), all_ignored, IValue(), Dims{2, 3},
                                                  int64_t(-100), std::string("mean")}));
}

// The gradient of [loss_of(x)] with respect to x, computed on [d] (the rules run the gradient ops on cuda there).
template <typename F> Tensor grad_on(Device d, const Tensor& x, F loss_of) {
  Tensor xd = x.to(d).detach();
  xd.set_requires_grad(true);
  autograd::backward({loss_of(xd, d)});
  return xd.grad().to(Device::cpu());
}

TEST_F(Cuda, CrossEntropyGradientsMatchTheCpu) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  for (DType t : kFloats) {
    Tensor x = input({7, 33}, t, 0.0, 0.0, 2.0), w = input({33}, t, 0.5, 1.0, 0.5);
    Tensor target = classes({0, 32, 2, -100, 1, 3, 17}, {7});
    for (const char* red : {"mean", "sum", "none"})
      for (double eps : {0.0, 0.1})
        for (bool weighted : {false, true}) {
          auto loss = [&](const Tensor& xd, Device d) {
            Tensor l = call_op(O::cross_entropy, xd, target.to(d), weighted ? IValue(w.to(d)) : IValue(),
                               int64_t(-100), std::string(red), eps);
            return std::string(red) == "none" ? sum(l * input({7}, t, 0.3).to(d)) : l;
          };
          auto [atol, rtol] = tolerance(t, 33);
          EXPECT_TRUE(test::all_close(grad_on(kCuda, x, loss), grad_on(Device::cpu(), x, loss), atol, rtol))
              << dtype_name(t) << " " << red << " eps=" << eps << " weighted=" << weighted;
        }
    // [N, C, d] logits (class dim 1, not innermost) and probability targets
    Tensor x3 = input({2, 6, 5}, t, 0.2, 0.0, 2.0), t3 = classes({0, 1, 2, 3, 4, 5, 0, 1, 2, -100}, {2, 5});
    Tensor probs = softmax(input({2, 6, 5}, DType::float32, 0.9), 1).to(t);
    auto l3 = [&](const Tensor& xd, Device d) {
      return add(call_op(O::cross_entropy, xd, t3.to(d), IValue(), int64_t(-100), std::string("mean"), 0.0),
                 call_op(O::cross_entropy, xd, probs.to(d), IValue(), int64_t(-100), std::string("sum"), 0.2));
    };
    auto [atol, rtol] = tolerance(t, 30);
    EXPECT_TRUE(test::all_close(grad_on(kCuda, x3, l3), grad_on(Device::cpu(), x3, l3), atol, rtol)) << dtype_name(t);
    // softmax along a middle dim and log_softmax with dtype=float32 (the gradient comes back in the input's dtype)
    auto ls = [&](const Tensor& xd, Device d) {
      Tensor v = input({2, 6, 5}, DType::float32, 0.6).to(d);
      return add(sum(softmax(xd, 1).to(DType::float32) * v),
                 sum(call_op(O::log_softmax, xd, int64_t(-1), DType::float32) * v));
    };
    Tensor gc = grad_on(kCuda, x3, ls);
    EXPECT_EQ(gc.dtype(), t);
    // computed in float32 (dtype=float32, .to(float32)): a float64 input's gradient is as exact as float32
    auto [atol_ls, rtol_ls] = tolerance(t == DType::float64 ? DType::float32 : t, 30);
    EXPECT_TRUE(test::all_close(gc, grad_on(Device::cpu(), x3, ls), atol_ls, rtol_ls)) << dtype_name(t);
  }
}

// create_graph records the gradient ops' decompositions: a second derivative on cuda agrees with the CPU's.
TEST_F(Cuda, SoftmaxAndCrossEntropyDoubleBackward) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  for (DType t : {DType::float32, DType::float64}) {
    Tensor x = input({5, 9}, t, 0.1, 0.0, 2.0), target = classes({0, 8, -100, 3, 4}, {5}), v = input({5, 9}, t, 0.7);
    auto second = [&](Device d) {
      Tensor xd = x.to(d).detach();
      xd.set_requires_grad(true);
      Tensor l = add(call_op(O::cross_entropy, xd, target.to(d), IValue(), int64_t(-100), std::string("mean"), 0.1),
                     sum(softmax(xd, 0) * v.to(d)));
      Tensor g = autograd::grad({l}, {xd}, {}, std::nullopt, true)[0];
      return autograd::grad({sum(g * g)}, {xd})[0].to(Device::cpu());
    };
    auto [atol, rtol] = tolerance(t, 9);
    EXPECT_TRUE(test::all_close(second(kCuda), second(Device::cpu()), atol, rtol)) << dtype_name(t);
  }
}

}  // namespace
}  // namespace amps::rt
