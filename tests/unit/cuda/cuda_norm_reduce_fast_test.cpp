// The fused layer_norm_backward kernel (a block per row for the input gradient, column tiles for the weight and bias
// gradients) and the column kernel of sum/mean over leading dims, against the CPU backend (oneDNN's fused layer norm
// backward; the CPU's sums): the fast paths and the cases that keep the old ones (mixed dtypes, a broadcast gradient,
// non-contiguous inputs, reduced dims that are not the leading ones). Every test skips without a GPU.
#include <algorithm>
#include <functional>
#include <optional>

#include "cuda_test_util.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

// [op] on the CPU and on cuda with the arguments [make] builds for each device, views made on that device (moving a
// view to cuda copies it into a contiguous tensor, so same_on_cuda() cannot give the kernels strided operands).
// [precision]: the dtype whose tolerance applies when the arithmetic is narrower than the outputs' dtype (a float32
// input's statistics in a float64 gradient); by default each output's own.
::testing::AssertionResult same_views_on_cuda(OpId op, const std::function<Args(Device)>& make, int64_t k = 1,
                                              std::optional<DType> precision = std::nullopt) {
  Args a = make(Device::cpu()), b = make(kCuda);
  Tensors want = dispatch(op, a), got = dispatch(op, b);
  if (want.size() != got.size()) return ::testing::AssertionFailure() << "output count differs";
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i].defined() != got[i].defined()) return ::testing::AssertionFailure() << "output " << i << " defined?";
    if (!want[i].defined()) continue;
    if (got[i].device() != kCuda) return ::testing::AssertionFailure() << "output " << i << " not on cuda";
    if (got[i].dtype() != want[i].dtype()) return ::testing::AssertionFailure() << "output " << i << " dtype differs";
    auto [atol, rtol] = tolerance(precision.value_or(want[i].dtype()), k);
    ::testing::AssertionResult r = test::all_close(got[i].to(Device::cpu()), want[i], atol, rtol);
    if (!r) return r << " (" << op_name(op) << " output " << i << ", " << dtype_name(want[i].dtype()) << ")";
  }
  return ::testing::AssertionSuccess();
}

struct NormCase {
  Dims shape, normalized;
};

// layer_norm_backward(g, x, normalized, weight, eps, bias_grad) on both devices (same_on_cuda() cannot compare its
// undefined outputs); the tolerance grows with the longer of the row (the input gradient's sums) and the column (the
// weight and bias gradients' sums).
::testing::AssertionResult layer_norm_grads_agree(const Tensor& g, const Tensor& x, const Dims& normalized,
                                                  const IValue& w, bool bias_grad,
                                                  std::optional<DType> precision = std::nullopt) {
  const int64_t n = numel_of(normalized), rows = n ? x.numel() / n : 0;
  return same_views_on_cuda(OpId::layer_norm_backward, [&](Device d) -> Args {
    return {g.to(d), x.to(d), normalized, w.is_tensor() ? IValue(w.tensor().to(d)) : w, 1e-5, bias_grad};
  }, std::max(n, rows), precision);
}

TEST_F(Cuda, LayerNormBackwardFusedMatchesTheCpu) {
  const NormCase cases[] = {{{1, 1}, {1}},       {{3, 5}, {5}},      {{3, 5}, {3, 5}},  {{8192, 768}, {768}},
                            {{7, 1000}, {1000}}, {{2, 3, 4}, {4}},   {{2, 3, 4}, {3, 4}}, {{1000, 33}, {33}}};
  for (DType t : kFloats)
    for (const NormCase& c : cases) {
      const Tensor x = input(c.shape, t, 0.0, 0.3, 2.0), g = input(c.shape, t, 0.7);
      const Tensor w = input(c.normalized, t, 0.5, 1.0, 0.5);
      for (bool bias_grad : {true, false}) {
        EXPECT_TRUE(layer_norm_grads_agree(g, x, c.normalized, w, bias_grad))
            << dtype_name(t) << " " << format_shape(c.shape) << " over " << c.normalized.size() << " dims, bias_grad "
            << bias_grad;
        EXPECT_TRUE(layer_norm_grads_agree(g, x, c.normalized, IValue(), bias_grad))
            << dtype_name(t) << " " << format_shape(c.shape) << " without weight, bias_grad " << bias_grad;
      }
    }
}

// Strided and offset operands (made on the device) are copied into the fused kernel; mixed dtypes keep the shared
// definition (on the CPU too).
TEST_F(Cuda, LayerNormBackwardStridedAndFallbackCasesMatchTheCpu) {
  for (DType t : kFloats) {
    const Tensor x = input({6, 4, 40}, t, 0.0, 0.3, 2.0), g = input({6, 4, 40}, t, 0.7), w = input({40}, t, 0.5, 1.0);
    const Tensor x41 = input({6, 4, 41}, t, 0.1, 0.3, 2.0), x7 = input({7, 40}, t, 0.3, 0.3, 2.0);
    const Tensor g9 = input({9, 40}, t, 0.8);
    auto on = [](const Tensor& v, Device d) { return v.to(d); };
    EXPECT_TRUE(same_views_on_cuda(OpId::layer_norm_backward, [&](Device d) -> Args {
      return {on(g, d).transpose(0, 1), on(x, d).transpose(0, 1), Dims{40}, on(w, d), 1e-5, true};
    }, 40)) << dtype_name(t) << " transposed";
    EXPECT_TRUE(same_views_on_cuda(OpId::layer_norm_backward, [&](Device d) -> Args {
      return {on(g, d), on(x41, d).narrow(2, 1, 40), Dims{40}, on(w, d), 1e-5, true};
    }, 40)) << dtype_name(t) << " narrowed rows";
    EXPECT_TRUE(same_views_on_cuda(OpId::layer_norm_backward, [&](Device d) -> Args {
      return {on(g9, d).narrow(0, 3, 6), on(x7, d).narrow(0, 1, 6), Dims{40}, on(w, d), 1e-5, true};
    }, 40)) << dtype_name(t) << " offset views";
    EXPECT_TRUE(same_views_on_cuda(OpId::layer_norm_backward, [&](Device d) -> Args {
      return {on(g, d), on(x, d), Dims{40}, on(input({80}, t, 0.5, 1.0), d).slice(0, 0, 80, 2), 1e-5, false};
    }, 40)) << dtype_name(t) << " strided weight";
  }
  const Tensor x = input({5, 12}, DType::float32, 0.0, 0.3, 2.0);
  // float64 gradients of a float32 input: as exact as the float32 statistics (the devices round their means apart)
  EXPECT_TRUE(layer_norm_grads_agree(input({5, 12}, DType::float64), x, {12}, input({12}, DType::float32), true,
                                     DType::float32));
  EXPECT_TRUE(layer_norm_grads_agree(input({5, 12}, DType::float32), x, {12}, input({12}, DType::float64), true,
                                     DType::float32));
  EXPECT_TRUE(layer_norm_grads_agree(input({5, 12}, DType::float32), x.to(DType::float16), {12}, IValue(), true));
  const Tensor xc = x.to(kCuda);
  EXPECT_TRUE(test::throws_error(
      [&] { dispatch(OpId::layer_norm_backward, {xc, xc, Dims{5}, IValue(), 1e-5, false}); }, "RuntimeError",
      "normalized_shape=[5]"));
}

// layer_norm through autograd on both devices: input, weight and bias gradients (one fused call on cuda).
TEST_F(Cuda, LayerNormAutogradGradientsMatchTheCpu) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  for (DType t : kFloats) {
    const Tensors params{input({2, 3, 4}, t, 0.0, 0.3, 2.0), input({3, 4}, t, 0.5, 1.0, 0.5), input({3, 4}, t, 0.9)};
    const Tensor gy = input({2, 3, 4}, t, 0.4);
    auto grads_on = [&](Device d) {
      Tensors p;
      for (const Tensor& q : params) {
        p.push_back(q.to(d).detach());
        p.back().set_requires_grad(true);
      }
      autograd::backward({sum(layer_norm(p[0], {3, 4}, p[1], p[2]) * gy.to(d))});
      Tensors g;
      for (const Tensor& q : p) g.push_back(q.grad().to(Device::cpu()));
      return g;
    };
    Tensors got = grads_on(kCuda), want = grads_on(Device::cpu());
    auto [atol, rtol] = tolerance(t, 12);
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(test::all_close(got[i], want[i], atol, rtol)) << dtype_name(t) << " parameter " << i;
  }
}

struct SumCase {
  Dims shape, dims;
};

// sum and mean over [dims] (keepdim or not) on both devices, the tolerance growing with the reduced length.
void expect_sums_agree(const Tensor& x, const Dims& dims, const IValue& dtype = IValue()) {
  int64_t k = 1;
  for (int64_t d : dims) k *= x.size(d);
  for (bool keepdim : {false, true}) {
    EXPECT_TRUE(same_on_cuda(OpId::sum, {x, dims, keepdim, dtype}, k))
        << dtype_name(x.dtype()) << " " << format_shape(x.sizes()) << " keepdim " << keepdim;
    if (is_floating(x.dtype())) {
      EXPECT_TRUE(same_on_cuda(OpId::mean, {x, dims, keepdim, dtype}, k))
          << "mean " << dtype_name(x.dtype()) << " " << format_shape(x.sizes());
    }
  }
}

// Leading reduced dims take the column kernel (tall inputs in pieces); inner ones the row kernel.
TEST_F(Cuda, SumOverLeadingDimsMatchesTheCpu) {
  const SumCase cases[] = {{{32, 256, 768}, {0}}, {{32, 256, 768}, {0, 1}}, {{32, 256, 768}, {1}},
                           {{1, 5}, {0}},         {{1, 5}, {1}},            {{5, 1}, {0}},
                           {{5, 1}, {1}},         {{4097, 3}, {0}},         {{4097, 3}, {1}},
                           {{3, 4097}, {0}},      {{3, 4097}, {1}},         {{2, 1, 3, 1, 5}, {0, 1, 3}},
                           {{2, 1, 3, 1, 5}, {0, 3}}, {{300, 7, 9}, {-3, -2}}};
  for (DType t : kFloats) {
    for (const SumCase& c : cases) expect_sums_agree(input(c.shape, t, 0.3), c.dims);
    const Tensor tail = input({1, 301, 7}, t), block = input({5, 200, 7}, t);
    // Contiguous views made on the device: 7 elements past the start, 7 rows past it.
    for (bool keepdim : {false, true}) {
      EXPECT_TRUE(same_views_on_cuda(OpId::sum, [&](Device d) -> Args {
        return {tail.to(d).narrow(1, 1, 300), Dims{0, 1}, keepdim, IValue()};
      }, 300)) << dtype_name(t);
      EXPECT_TRUE(same_views_on_cuda(OpId::mean, [&](Device d) -> Args {
        return {block.to(d).narrow(0, 1, 3), Dims{0, 1}, keepdim, IValue()};
      }, 600)) << dtype_name(t);
    }
  }
  for (DType t : {DType::float16, DType::bfloat16}) {
    expect_sums_agree(input({32, 256, 768}, t), {0, 1}, DType::float32);  // read as half, summed into float32
    expect_sums_agree(input({4097, 3}, t), {0}, DType::float32);
    expect_sums_agree(input({4097, 3}, t), {0}, DType::float64);  // converted first
  }
  expect_sums_agree(input({300, 70}, DType::float32), {0}, DType::float64);
  for (DType t : {DType::int64, DType::int32, DType::uint8, DType::bool_})
    for (const SumCase& c : {SumCase{{4097, 3}, {0}}, SumCase{{3, 4097}, {0}}, SumCase{{40, 6, 33}, {0, 1}}})
      expect_sums_agree(input(c.shape, t, 0.0, 0.5, 20.0), c.dims);
  expect_sums_agree(input({4097, 3}, DType::int64, 0.0, 0.5, 20.0), {0}, DType::float32);
}

// Non-contiguous inputs (made on the device), reduced dims around kept ones and empty inputs keep the
// permute-and-copy path.
TEST_F(Cuda, SumOverOtherLayoutsMatchesTheCpu) {
  for (DType t : kFloats) {
    const Tensor x = input({40, 6, 33}, t, 0.1), y = input({300, 8}, t);
    expect_sums_agree(x, {0, 2});
    for (OpId op : {OpId::sum, OpId::mean}) {
      EXPECT_TRUE(same_views_on_cuda(op, [&](Device d) -> Args {
        return {x.to(d).transpose(0, 1), Dims{0}, false, IValue()};
      }, 6)) << dtype_name(t) << " transposed";
      EXPECT_TRUE(same_views_on_cuda(op, [&](Device d) -> Args {
        return {x.to(d).narrow(2, 1, 30), Dims{0, 1}, true, IValue()};
      }, 240)) << dtype_name(t) << " narrowed";
      EXPECT_TRUE(same_views_on_cuda(op, [&](Device d) -> Args { return {y.to(d).t(), Dims{1}, false, IValue()}; },
                                     300)) << dtype_name(t) << " t()";
    }
    EXPECT_TRUE(same_on_cuda(OpId::sum, {input({0, 5}, t), Dims{0}, false, IValue()}));
  }
}

}  // namespace
}  // namespace amps::rt
