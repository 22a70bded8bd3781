// Tests for the float64 convolution/pooling loops: hand cases, agreement with the oneDNN float32 kernels
// over strides, padding, dilation, groups and ceil mode, and avg_pool2d's divisor_override.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

// Runs [op] on float64 and float32 copies of (x, w, bias) with the trailing [rest] args; checks that both
// agree and that the float64 result is float64.
void expect_f64_matches_f32(OpId op, const Dims& xs, const Dims& ws, int64_t cout, Args rest) {
  Tensor x = make(wavy(numel_of(xs), 0.1), xs, DType::float64), w = make(wavy(numel_of(ws), 0.9), ws, DType::float64);
  Tensor b = make(wavy(cout, 2.0), {cout}, DType::float64);
  Args a64{x, w, b}, a32{x.to(DType::float32), w.to(DType::float32), b.to(DType::float32)};
  a64.insert(a64.end(), rest.begin(), rest.end());
  a32.insert(a32.end(), rest.begin(), rest.end());
  Tensor r64 = dispatch(op, a64)[0], r32 = dispatch(op, a32)[0];
  EXPECT_EQ(r64.dtype(), DType::float64);
  EXPECT_TRUE(all_close(r64, r32, 1e-4, 1e-4)) << op_name(op);
}

TEST(ConvF64, HandCases) {
  Tensor y = call_op(OpId::conv1d, make({1, 2, 3}, {1, 1, 3}, DType::float64), make({1, 1}, {1, 1, 2}, DType::float64));
  EXPECT_TRUE(all_close(y, {3, 5}, 1e-15));
  Tensor t = call_op(OpId::conv_transpose1d, make({1, 2}, {1, 1, 2}, DType::float64), make({1, 10}, {1, 1, 2}, DType::float64));
  EXPECT_TRUE(all_close(t, {1, 12, 20}, 1e-15));
  Tensor g = call_op(OpId::conv1d, make({1, 2, 3, 4}, {1, 2, 2}, DType::float64), make({10, 100}, {2, 1, 1}, DType::float64),
                     IValue(), Dims{1}, Dims{0}, Dims{1}, int64_t(2));
  EXPECT_TRUE(all_close(g, {10, 20, 300, 400}, 1e-12));
}

TEST(ConvF64, MatchesOneDnnAcrossGeometries) {
  expect_f64_matches_f32(OpId::conv1d, {2, 4, 9}, {6, 2, 3}, 6, {Dims{2}, Dims{1}, Dims{2}, int64_t(2)});
  expect_f64_matches_f32(OpId::conv2d, {2, 3, 7, 6}, {4, 3, 3, 2}, 4, {Dims{2, 1}, Dims{1, 0}, Dims{1, 2}, int64_t(1)});
  expect_f64_matches_f32(OpId::conv3d, {1, 2, 5, 4, 6}, {3, 2, 2, 3, 2}, 3, {Dims{1}, Dims{1}, Dims{1}, int64_t(1)});
  expect_f64_matches_f32(OpId::conv_transpose1d, {2, 4, 5}, {4, 3, 3}, 6,
                         {Dims{2}, Dims{1}, Dims{1}, int64_t(2), Dims{1}});
  expect_f64_matches_f32(OpId::conv_transpose2d, {1, 2, 4, 3}, {2, 3, 3, 2}, 3,
                         {Dims{2, 3}, Dims{1, 0}, Dims{1, 2}, int64_t(1), Dims{2, 1}});
  expect_f64_matches_f32(OpId::conv_transpose3d, {1, 2, 3, 3, 2}, {2, 2, 2, 2, 2}, 2,
                         {Dims{2}, Dims{0}, Dims{0}, int64_t(1), Dims{1}});
}

// convolution_backward_input/_weight on oneDNN ([dt] = float32 or bfloat16) against the float64 loops on the
// same (rounded) values: grad_output [out] of an input [in] with weight [ws]; [geo] = stride, padding,
// dilation, transposed, output_padding, groups. bfloat16 results are rounded once from float32 sums.
void expect_backward_ops_match(const Dims& in, const Dims& ws, const Dims& out, const Args& geo, DType dt) {
  auto round = [dt](std::vector<double> v, const Dims& s) { return make(v, s, dt).to(DType::float64); };
  Tensor x = round(wavy(numel_of(in), 0.1), in), w = round(wavy(numel_of(ws), 0.9), ws);
  Tensor g = round(wavy(numel_of(out), 0.4), out);
  const double tol = dt == DType::bfloat16 ? 2e-2 : 1e-4;
  auto run = [&](OpId op, const Tensor& a, const Tensor& b, const Dims& sizes) {
    Args args{a, b, sizes};
    args.insert(args.end(), geo.begin(), geo.end());
    return dispatch(op, args);
  };
  Tensor gi = run(OpId::convolution_backward_input, g.to(dt), w.to(dt), in)[0];
  EXPECT_EQ(gi.dtype(), dt);
  EXPECT_TRUE(all_close(gi, run(OpId::convolution_backward_input, g, w, in)[0], tol, tol)) << format_shape(in);
  Tensors gwb = run(OpId::convolution_backward_weight, g.to(dt), x.to(dt), ws);
  Tensors ref = run(OpId::convolution_backward_weight, g, x, ws);
  EXPECT_EQ(gwb[0].dtype(), dt);
  EXPECT_TRUE(all_close(gwb[0], ref[0], tol, tol)) << format_shape(ws);
  EXPECT_TRUE(all_close(gwb[1], ref[1], tol, tol)) << format_shape(out);
}

TEST(ConvF64, BackwardOpsMatchOneDnnAcrossGeometries) {
  const Args conv1{Dims{2}, Dims{1}, Dims{2}, false, Dims{}, int64_t(2)};
  const Args conv2{Dims{2, 1}, Dims{1, 0}, Dims{1, 2}, false, Dims{}, int64_t(1)};
  const Args conv3{Dims{1}, Dims{1}, Dims{1}, false, Dims{}, int64_t(1)};
  const Args convt2{Dims{2, 3}, Dims{1, 0}, Dims{2, 1}, true, Dims{1, 2}, int64_t(1)};
  const Args same{Dims{1}, Dims{1}, Dims{1}, false, Dims{}, int64_t(1)};
  for (DType dt : {DType::float32, DType::bfloat16}) {
    expect_backward_ops_match({2, 4, 9}, {6, 2, 3}, {2, 6, 4}, conv1, dt);
    expect_backward_ops_match({2, 3, 7, 6}, {4, 3, 3, 2}, {2, 4, 4, 4}, conv2, dt);
    expect_backward_ops_match({1, 2, 5, 4, 6}, {3, 2, 2, 3, 2}, {1, 3, 6, 4, 7}, conv3, dt);
    expect_backward_ops_match({1, 2, 4, 3}, {2, 3, 3, 2}, {1, 3, 10, 10}, convt2, dt);
    expect_backward_ops_match({4, 32, 14, 14}, {64, 32, 3, 3}, {4, 64, 14, 14}, same, dt);  // the main job's conv2
  }
  EXPECT_TRUE(throws_error([&] {
    call_op(OpId::convolution_backward_input, make(wavy(8), {1, 2, 2, 2}), make(wavy(18), {2, 1, 3, 3}), Dims{1, 1, 5, 5},
            Dims{1}, Dims{0}, Dims{1}, false, Dims{}, int64_t(1));
  }, "RuntimeError", "grad_output has shape (1, 2, 2, 2), expected (1, 2, 3, 3)"));
}

// max_pool2d_backward puts each output's gradient where max_pool2d_with_indices points (accumulating
// where windows overlap), in every float dtype.
TEST(PoolF64, MaxPoolBackwardFollowsTheIndices) {
  const std::vector<Args> geos{{Dims{2}, Dims{}, Dims{0}, Dims{1}, false},
                               {Dims{3, 2}, Dims{2, 1}, Dims{1, 0}, Dims{1, 2}, true},
                               {Dims{3}, Dims{1}, Dims{1}, Dims{1}, false}};
  for (DType dt : {DType::float64, DType::float32, DType::bfloat16})
    for (const Args& geo : geos) {
      Tensor x = make(wavy(2 * 3 * 7 * 6, 0.3), {2, 3, 7, 6}, dt);
      Args fwd{x};
      fwd.insert(fwd.end(), geo.begin(), geo.end());
      Tensor idx = dispatch(OpId::max_pool2d_with_indices, fwd)[1];
      Tensor g = make(wavy(idx.numel(), 0.7), idx.sizes(), dt);
      Args bwd{g, x};
      bwd.insert(bwd.end(), geo.begin(), geo.end());
      Tensor gi = dispatch(OpId::max_pool2d_backward, bwd)[0];
      Tensor ref = call_op(OpId::scatter_add, zeros({2, 3, 42}, DType::float64), int64_t(-1), idx.flatten(-2),
                           g.to(DType::float64).flatten(-2)).reshape(x.sizes());
      EXPECT_EQ(gi.dtype(), dt);
      // Overlapping windows accumulate in the tensor's dtype; the reference sums in float64.
      const double tol = dt == DType::bfloat16 ? 2e-2 : dt == DType::float32 ? 1e-6 : 1e-12;
      EXPECT_TRUE(all_close(gi, ref, tol, dt == DType::bfloat16 ? 1e-2 : 0));
    }
}

Tensor plane4x4(DType dt) {
  return make({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {1, 1, 4, 4}, dt);
}

TEST(PoolF64, MaxPoolValuesIndicesAndNaN) {
  Tensor x = make(wavy(2 * 3 * 7 * 6), {2, 3, 7, 6}, DType::float64);
  Args args{x, Dims{3, 2}, Dims{2, 2}, Dims{1, 1}, Dims{2, 1}, true};
  Tensors r64 = dispatch(OpId::max_pool2d_with_indices, Args(args));
  args[0] = x.to(DType::float32);
  Tensors r32 = dispatch(OpId::max_pool2d_with_indices, Args(args));
  EXPECT_EQ(r64[0].dtype(), DType::float64);
  EXPECT_TRUE(all_close(r64[0], r32[0], 1e-6));
  EXPECT_TRUE(all_close(r64[1], r32[1], 0));
  Tensor n = make({1, NAN, 3, 4}, {1, 2, 2}, DType::float64);
  EXPECT_TRUE(all_close(call_op(OpId::max_pool2d, n, Dims{2}), {NAN}));
  EXPECT_TRUE(all_close(dispatch(OpId::max_pool2d_with_indices, Args{n, Dims{2}})[1], {1}, 0));
  EXPECT_TRUE(all_close(max_pool2d(plane4x4(DType::float64), {2}), {6, 8, 14, 16}, 0));
}

TEST(PoolF64, AvgPoolMatchesOneDnnWithPaddingAndCeilMode) {
  Tensor x = make(wavy(2 * 2 * 7 * 5), {2, 2, 7, 5}, DType::float64);
  for (bool include_pad : {true, false})
    for (bool ceil : {true, false}) {
      Args args{x, Dims{3, 2}, Dims{2, 2}, Dims{1, 1}, ceil, include_pad};
      Tensor r64 = dispatch(OpId::avg_pool2d, Args(args))[0];
      args[0] = x.to(DType::float32);
      EXPECT_TRUE(all_close(r64, dispatch(OpId::avg_pool2d, Args(args))[0], 1e-6)) << include_pad << ceil;
    }
  EXPECT_TRUE(all_close(avg_pool2d(plane4x4(DType::float64), {2}), {3.5, 5.5, 11.5, 13.5}, 1e-15));
}

TEST(PoolF64, AvgPoolDivisorOverride) {
  for (DType dt : {DType::float64, DType::float32, DType::bfloat16}) {
    Tensor r = call_op(OpId::avg_pool2d, plane4x4(dt), Dims{2}, Dims{}, Dims{0}, false, true, int64_t(3));
    EXPECT_EQ(r.dtype(), dt);
    EXPECT_TRUE(all_close(r, {14.0 / 3, 22.0 / 3, 46.0 / 3, 54.0 / 3}, dt == DType::bfloat16 ? 0.1 : 1e-6));
  }
  Tensor padded = call_op(OpId::avg_pool2d, plane4x4(DType::float64), Dims{2}, Dims{2}, Dims{1}, false, false, int64_t(2));
  EXPECT_TRUE(all_close(padded.narrow(-1, 0, 1).narrow(-2, 0, 1), {0.5}, 1e-15));
  EXPECT_TRUE(throws_error([] { call_op(OpId::avg_pool2d, plane4x4(DType::float32), Dims{2}, Dims{}, Dims{0}, false, true,
                                        int64_t(0)); }, "RuntimeError", "divisor must be not zero"));
}

}  // namespace
}  // namespace amps::rt
