// Tests of the oneDNN convolution/deconvolution helpers (all three passes) against double loops.
#include "runtime/backend/cpu/dnnl_conv.hpp"

#include <functional>

#include "tests/unit/runtime/dnnl_test_util.hpp"

namespace amps::rt::dnnl_cpu::test {
namespace {

// A convolution case. "small" is the side a kernel window maps to one position of (conv dst,
// deconv src); "big" is the other side. Torch's weight is [C_small, C_big/groups, *k] for both.
struct Case {
  ConvParams p;
  int64_t n, c_small, c_big;
  Dims small_sp, k;
  Dims big_sp() const {
    Dims b;
    for (size_t i = 0; i < k.size(); ++i) {
      const int64_t span = p.dilation[i] * (k[i] - 1) + 1, op = p.transposed ? p.output_padding[i] : 0;
      b.push_back((small_sp[i] - 1) * p.stride[i] - 2 * p.padding[i] + span + op);
    }
    return b;
  }
  Dims with(int64_t c, const Dims& sp) const {
    Dims d{n, c};
    d.insert(d.end(), sp.begin(), sp.end());
    return d;
  }
  Dims small_dims() const { return with(c_small, small_sp); }
  Dims big_dims() const { return with(c_big, big_sp()); }
  Dims wdims() const {
    Dims d{c_small, c_big / p.groups};
    d.insert(d.end(), k.begin(), k.end());
    return d;
  }
};

// Calls f(big_flat, small_flat, weight_flat) for every multiply of the convolution.
void each_tap(const Case& c, const std::function<void(int64_t, int64_t, int64_t)>& f) {
  const Dims big = c.big_sp();
  const size_t sp = c.k.size();
  int64_t ns = 1, nk = 1, nb = 1;
  for (size_t i = 0; i < sp; ++i) ns *= c.small_sp[i], nk *= c.k[i], nb *= big[i];
  const int64_t g = c.p.groups, cs = c.c_small / g, cb = c.c_big / g;
  for (int64_t n = 0; n < c.n; ++n)
    for (int64_t gi = 0; gi < g; ++gi)
      for (int64_t a = 0; a < cs; ++a)
        for (int64_t b = 0; b < cb; ++b)
          for (int64_t s = 0; s < ns; ++s)
            for (int64_t kk = 0; kk < nk; ++kk) {
              int64_t bpos = 0, rs = s, rk = kk, mul = 1;
              bool ok = true;
              for (size_t i = sp; i-- > 0;) {
                const int64_t si = rs % c.small_sp[i], ki = rk % c.k[i];
                rs /= c.small_sp[i], rk /= c.k[i];
                const int64_t bi = si * c.p.stride[i] - c.p.padding[i] + ki * c.p.dilation[i];
                ok = ok && bi >= 0 && bi < big[i];
                bpos += bi * mul, mul *= big[i];
              }
              if (!ok) continue;
              const int64_t cs_i = gi * cs + a, cb_i = gi * cb + b;
              f((n * c.c_big + cb_i) * nb + bpos, (n * c.c_small + cs_i) * ns + s, (cs_i * cb + b) * nk + kk);
            }
}

class ConvTest : public ::testing::TestWithParam<DnnlType> {};

void run_case(const Case& c, DnnlType t, Dims src_perm = {}) {
  const bool tr = c.p.transposed;
  const Dims src_dims = tr ? c.small_dims() : c.big_dims(), dst_dims = tr ? c.big_dims() : c.small_dims();
  HostTensor x = HostTensor::random(src_dims, t, 1, src_perm), w = HostTensor::random(c.wdims(), t, 2);
  HostTensor bias = HostTensor::random({dst_dims[1]}, t, 3), dy = HostTensor::random(dst_dims, t, 4);
  HostTensor y = HostTensor::make(dst_dims, t), dx = HostTensor::make(src_dims, t, src_perm);
  HostTensor dw = HostTensor::make(c.wdims(), t), db = HostTensor::make({dst_dims[1]}, t);
  std::vector<double> ry(y.numel()), rdx(dx.numel()), rdw(dw.numel()), rdb(db.numel());
  const int64_t per = y.numel() / dst_dims[0] / dst_dims[1];
  for (int64_t i = 0; i < y.numel(); ++i) ry[i] = bias.get((i / per) % dst_dims[1]), rdb[(i / per) % dst_dims[1]] += dy.get(i);
  each_tap(c, [&](int64_t big, int64_t small, int64_t wi) {
    const int64_t xi = tr ? small : big, yi = tr ? big : small;
    ry[yi] += x.get(xi) * w.get(wi);
    rdx[xi] += dy.get(yi) * w.get(wi);
    rdw[wi] += dy.get(yi) * x.get(xi);
  });
  DnnlArg barg = bias.arg(), dbarg = db.arg();
  conv_forward(c.p, x.arg(), w.arg(), &barg, y.arg());
  conv_backward_data(c.p, dy.arg(), w.arg(), dx.arg());
  conv_backward_weights(c.p, x.arg(), dy.arg(), dw.arg(), &dbarg);
  expect_close(y, ry, 0, 8);
  expect_close(dx, rdx, 0, 8);
  expect_close(dw, rdw, 0, 16);
  expect_close(db, rdb, 0, 16);
}

Case conv2d() {
  return Case{ConvParams{{2, 1}, {1, 0}, {1, 2}, {}, 2, false}, 2, 6, 4, {4, 4}, {3, 2}};
}

TEST_P(ConvTest, Conv2dGroupsStrideDilationPadding) { run_case(conv2d(), GetParam()); }

TEST_P(ConvTest, Conv2dChannelsLastSource) { run_case(conv2d(), GetParam(), {0, 2, 3, 1}); }

// 3x3, stride 1, 16+ channels: half types computed in f32 take Winograd here (dnnl_conv.cpp).
Case winograd_shape() {
  return Case{ConvParams{{1, 1}, {1, 1}, {1, 1}, {}, 1, false}, 2, 32, 16, {6, 6}, {3, 3}};
}

TEST_P(ConvTest, Conv2dWinogradShape) { run_case(winograd_shape(), GetParam()); }

TEST_P(ConvTest, Conv1dAnd3d) {
  run_case(Case{ConvParams{{2}, {2}, {1}, {}, 1, false}, 3, 5, 3, {6}, {4}}, GetParam());
  run_case(Case{ConvParams{{1, 2, 1}, {1, 0, 1}, {1, 1, 2}, {}, 1, false}, 1, 4, 2, {3, 2, 3}, {2, 3, 2}},
           GetParam());
}

TEST_P(ConvTest, Depthwise) {
  run_case(Case{ConvParams{{1, 1}, {1, 1}, {1, 1}, {}, 4, false}, 2, 4, 4, {5, 5}, {3, 3}}, GetParam());
}

TEST_P(ConvTest, Deconv2dOutputPaddingGroups) {
  run_case(Case{ConvParams{{2, 2}, {1, 0}, {1, 1}, {1, 1}, 2, true}, 2, 4, 6, {3, 4}, {3, 2}}, GetParam());
}

TEST_P(ConvTest, Deconv1dAnd3dDilated) {
  run_case(Case{ConvParams{{3}, {1}, {2}, {2}, 1, true}, 2, 3, 5, {4}, {3}}, GetParam());
  run_case(Case{ConvParams{{2, 1, 1}, {0, 1, 0}, {1, 1, 1}, {1, 0, 0}, 1, true}, 1, 2, 3, {2, 3, 2}, {2, 3, 1}},
           GetParam());
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ConvTest,
                         ::testing::Values(DnnlType::f32, DnnlType::bf16, DnnlType::f16));

TEST(ConvMixed, Bf16InputsWriteF32Outputs) {
  Case c = conv2d();
  HostTensor x = HostTensor::random(c.big_dims(), DnnlType::bf16, 1), w = HostTensor::random(c.wdims(), DnnlType::bf16, 2);
  HostTensor y = HostTensor::make(c.small_dims(), DnnlType::f32);
  std::vector<double> ry(y.numel());
  each_tap(c, [&](int64_t big, int64_t small, int64_t wi) { ry[small] += x.get(big) * w.get(wi); });
  conv_forward(c.p, x.arg(), w.arg(), nullptr, y.arg());
  expect_close(y, ry, 1e-5, 8);
}

// An f32 result gets no Winograd error even from half inputs: the forward and backward-data passes
// with bf16 operands and f32 outputs at a Winograd-eligible shape agree with the exact products.
TEST(ConvMixed, Bf16OperandsWriteExactF32ResultsAtWinogradShapes) {
  Case c = winograd_shape();
  HostTensor x = HostTensor::random(c.big_dims(), DnnlType::bf16, 1), w = HostTensor::random(c.wdims(), DnnlType::bf16, 2);
  HostTensor dy = HostTensor::random(c.small_dims(), DnnlType::bf16, 4);
  HostTensor y = HostTensor::make(c.small_dims(), DnnlType::f32), dx = HostTensor::make(c.big_dims(), DnnlType::f32);
  std::vector<double> ry(y.numel()), rdx(dx.numel());
  each_tap(c, [&](int64_t big, int64_t small, int64_t wi) {
    ry[small] += x.get(big) * w.get(wi);
    rdx[big] += dy.get(small) * w.get(wi);
  });
  conv_forward(c.p, x.arg(), w.arg(), nullptr, y.arg());
  conv_backward_data(c.p, dy.arg(), w.arg(), dx.arg());
  expect_close(y, ry, 1e-6, 8);
  expect_close(dx, rdx, 1e-6, 8);
}

TEST(ConvErrors, WrongOutputSizeThrows) {
  Case c = conv2d();
  HostTensor x = HostTensor::random(c.big_dims(), DnnlType::f32, 1), w = HostTensor::random(c.wdims(), DnnlType::f32, 2);
  HostTensor y = HostTensor::make({2, 6, 5, 4}, DnnlType::f32);
  EXPECT_THROW(conv_forward(c.p, x.arg(), w.arg(), nullptr, y.arg()), DnnlError);
}

}  // namespace
}  // namespace amps::rt::dnnl_cpu::test
