// Tests for max pooling's window scan (the bounds-free interior path and the border path) in every float
// dtype: values, indices and backward against a naive PyTorch-rule reference, with ties, signed zeros and NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::make;

struct Geo {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  bool ceil;
  Args args() const { return {Dims{kh, kw}, Dims{sh, sw}, Dims{ph, pw}, Dims{dh, dw}, ceil}; }
};

// Few distinct values so windows tie often, with -0.0 next to 0.0 and scattered NaNs.
std::vector<double> tie_heavy(int64_t n) {
  std::vector<double> v(size_t(n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t h = uint32_t(i) * 2654435761u >> 7;
    v[size_t(i)] = h % 53 == 0 ? NAN : h % 7 == 0 ? -0.0 : double(int(h % 5) - 2);
  }
  return v;
}

// PyTorch's scan: row-major over the window's in-bounds elements, a larger value or a NaN takes over.
int64_t ref_argmax(const double* x, int64_t H, int64_t W, const Geo& g, int64_t oh, int64_t ow) {
  int64_t at = -1;
  double best = 0;
  for (int64_t i = 0; i < g.kh; ++i)
    for (int64_t j = 0; j < g.kw; ++j) {
      const int64_t h = oh * g.sh - g.ph + i * g.dh, w = ow * g.sw - g.pw + j * g.dw;
      if (h < 0 || h >= H || w < 0 || w >= W) continue;
      const double v = x[h * W + w];
      if (at < 0 || v > best || std::isnan(v)) best = v, at = h * W + w;
    }
  return at;
}

bool same_bits(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

// Checks max_pool2d, max_pool2d_with_indices and max_pool2d_backward on [x] against the reference.
void expect_matches_reference(const Tensor& x, const Geo& g) {
  Args fwd{x};
  const Args geo = g.args();
  fwd.insert(fwd.end(), geo.begin(), geo.end());
  Tensors r = dispatch(OpId::max_pool2d_with_indices, Args(fwd));
  Tensor plain = dispatch(OpId::max_pool2d, Args(fwd))[0];
  const int64_t H = x.size(2), W = x.size(3), OH = r[0].size(2), OW = r[0].size(3), planes = x.size(0) * x.size(1);
  ASSERT_EQ(std::memcmp(plain.raw_data(), r[0].raw_data(), size_t(plain.numel()) * plain.element_size()), 0);
  Tensor g_out = make(test::wavy(r[0].numel(), 0.7), r[0].sizes(), x.dtype());
  Args bwd{g_out, x};
  bwd.insert(bwd.end(), geo.begin(), geo.end());
  Tensor gi = dispatch(OpId::max_pool2d_backward, bwd)[0];
  const std::vector<double> xv = x.to_doubles(), ov = r[0].to_doubles(), iv = r[1].to_doubles(),
                            gv = g_out.to_doubles();
  std::vector<double> acc(xv.size(), 0.0);
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t o = 0; o < OH * OW; ++o) {
      const int64_t at = ref_argmax(xv.data() + p * H * W, H, W, g, o / OW, o % OW), k = p * OH * OW + o;
      ASSERT_EQ(int64_t(iv[size_t(k)]), at) << "plane " << p << " output " << o;
      ASSERT_TRUE(same_bits(ov[size_t(k)], xv[size_t(p * H * W + at)])) << "plane " << p << " output " << o;
      acc[size_t(p * H * W + at)] += gv[size_t(k)];
    }
  const std::vector<double> want = make(acc, x.sizes(), x.dtype()).to_doubles(), got = gi.to_doubles();
  for (size_t i = 0; i < want.size(); ++i) ASSERT_TRUE(same_bits(got[i], want[i])) << "grad_input " << i;
}

TEST(MaxPoolScan, MatchesReferenceWithTiesZerosAndNaN) {
  const std::vector<Geo> geos{{2, 2, 2, 2, 0, 0, 1, 1, false}, {2, 2, 2, 2, 1, 1, 1, 1, true},
                              {3, 3, 2, 2, 1, 1, 1, 1, false}, {3, 2, 2, 1, 1, 0, 1, 2, true},
                              {2, 2, 1, 1, 0, 0, 1, 1, false}, {2, 3, 1, 2, 0, 1, 2, 1, false},
                              {3, 3, 3, 3, 0, 0, 1, 1, true}};
  for (DType dt : {DType::float64, DType::float32, DType::bfloat16, DType::float16})
    for (const Dims& shape : {Dims{2, 3, 9, 8}, Dims{1, 2, 28, 28}, Dims{1, 2, 6, 40}})  // SIMD blocks + tails
      for (const Geo& g : geos) {
        SCOPED_TRACE(testing::Message() << dtype_name(dt) << " " << format_shape(shape) << " k" << g.kh << g.kw
                                        << " s" << g.sh << g.sw << " p" << g.ph << g.pw << " d" << g.dh << g.dw);
        expect_matches_reference(make(tie_heavy(numel_of(shape)), shape, dt), g);
      }
}

// The first of equal maxima wins, so a window of (-0.0, 0.0) keeps -0.0; the last NaN wins.
TEST(MaxPoolScan, FirstMaxAndLastNaNWin) {
  for (DType dt : {DType::float32, DType::bfloat16}) {
    Tensor z = make({-0.0, 0.0, 0.0, -0.0}, {1, 1, 2, 2}, dt);
    EXPECT_TRUE(std::signbit(max_pool2d(z, {2}).to_doubles()[0])) << dtype_name(dt);
    Tensor n = make({NAN, 1, 2, NAN}, {1, 1, 2, 2}, dt);
    EXPECT_EQ(dispatch(OpId::max_pool2d_with_indices, Args{n, Dims{2}})[1].to_doubles()[0], 3) << dtype_name(dt);
  }
}

}  // namespace
}  // namespace amps::rt
