// Tests of the oneDNN pooling helper (max/avg, padding, ceil mode, dilation) against double loops.
#include "runtime/backend/cpu/dnnl_pool.hpp"

#include "tests/unit/runtime/dnnl_test_util.hpp"

namespace amps::rt::dnnl_cpu::test {
namespace {

struct PoolCase {
  PoolParams p;
  Dims src;
  bool ceil = false;
  int64_t dil(size_t i) const { return p.dilation.empty() ? 1 : p.dilation[i]; }
  Dims dst() const {  // torch's output-size formula
    Dims d{src[0], src[1]};
    for (size_t i = 0; i < p.kernel.size(); ++i) {
      const int64_t num = src[2 + i] + 2 * p.padding[i] - dil(i) * (p.kernel[i] - 1) - 1, s = p.stride[i];
      int64_t o = (ceil ? (num + s - 1) / s : num / s) + 1;
      if (ceil && (o - 1) * s >= src[2 + i] + p.padding[i]) --o;
      d.push_back(o);
    }
    return d;
  }
};

// Calls f(src_flat or -1 when in padding) for each tap of dst element 'o'; returns torch's divisor.
template <class F>
double each_tap(const PoolCase& c, const Dims& dst, int64_t o, F&& f) {
  const size_t sp = c.p.kernel.size();
  int64_t nk = 1, plane = o;
  for (size_t i = 0; i < sp; ++i) nk *= c.p.kernel[i], plane /= dst[2 + i];
  double div_inc = 1, div_exc = 1;
  for (size_t i = sp, r = o; i-- > 0;) {
    const int64_t oi = r % dst[2 + i], st = oi * c.p.stride[i] - c.p.padding[i];
    r /= dst[2 + i];
    const int64_t end = std::min(st + c.p.kernel[i], c.src[2 + i] + c.p.padding[i]);
    div_inc *= end - st, div_exc *= std::min(end, c.src[2 + i]) - std::max<int64_t>(st, 0);
  }
  for (int64_t k = 0; k < nk; ++k) {
    int64_t flat = 0, mul = 1, r = o, rk = k;
    bool ok = true;
    for (size_t i = sp; i-- > 0;) {
      const int64_t oi = r % dst[2 + i], ki = rk % c.p.kernel[i];
      r /= dst[2 + i], rk /= c.p.kernel[i];
      const int64_t x = oi * c.p.stride[i] - c.p.padding[i] + ki * c.dil(i);
      ok = ok && x >= 0 && x < c.src[2 + i];
      flat += x * mul, mul *= c.src[2 + i];
    }
    f(ok ? plane * mul + flat : -1);
  }
  return c.p.count_include_pad ? div_inc : div_exc;
}

void run_pool(const PoolCase& c, DnnlType t, Dims perm = {}) {
  const Dims dd = c.dst();
  HostTensor x = HostTensor::random(c.src, t, 1, perm), dy = HostTensor::random(dd, t, 2);
  HostTensor y = HostTensor::make(dd, t), dx = HostTensor::make(c.src, t, perm);
  std::vector<double> ry(y.numel()), rdx(dx.numel());
  std::vector<int64_t> arg(y.numel());
  for (int64_t o = 0; o < y.numel(); ++o) {
    double best = -INFINITY, sum = 0;
    double div = each_tap(c, dd, o, [&](int64_t i) {
      if (i < 0) return;
      sum += x.get(i);
      if (x.get(i) > best) best = x.get(i), arg[o] = i;
    });
    ry[o] = c.p.max ? best : sum / div;
    if (c.p.max) rdx[arg[o]] += dy.get(o);
    else each_tap(c, dd, o, [&](int64_t i) { if (i >= 0) rdx[i] += dy.get(o) / div; });
  }
  std::vector<uint8_t> ws(static_cast<size_t>(pool_workspace_bytes(c.p, x.arg(), y.arg())));
  pool_forward(c.p, x.arg(), y.arg(), ws.empty() ? nullptr : ws.data());
  pool_backward(c.p, dy.arg(), dx.arg(), ws.empty() ? nullptr : ws.data());
  expect_close(y, ry);
  expect_close(dx, rdx, 0, 2);
  if (!c.p.max) return;
  std::vector<int64_t> idx(y.numel());
  pool_indices(c.p, c.src, dd, ws.data(), idx.data());
  const int64_t plane = x.numel() / (c.src[0] * c.src[1]);
  for (int64_t o = 0; o < y.numel(); ++o) ASSERT_EQ(idx[o], arg[o] % plane) << o;
}

class PoolTest : public ::testing::TestWithParam<DnnlType> {};

TEST_P(PoolTest, MaxPadded2d) {
  run_pool(PoolCase{PoolParams{{3, 2}, {2, 2}, {1, 1}, {}, true, true}, {2, 3, 7, 6}}, GetParam());
}

TEST_P(PoolTest, MaxCeilDilatedStridedInput) {
  PoolCase c{PoolParams{{2, 3}, {2, 1}, {0, 1}, {2, 1}, true, true}, {2, 3, 8, 5}, true};
  run_pool(c, GetParam(), {0, 2, 3, 1});
}

TEST_P(PoolTest, AvgIncludeAndExcludePad) {
  run_pool(PoolCase{PoolParams{{3, 3}, {2, 2}, {1, 1}, {}, false, true}, {1, 2, 7, 7}}, GetParam());
  run_pool(PoolCase{PoolParams{{3, 3}, {2, 2}, {1, 1}, {}, false, false}, {1, 2, 7, 7}}, GetParam());
}

TEST_P(PoolTest, AvgCeilModeDivisorsFollowTorch) {
  run_pool(PoolCase{PoolParams{{3, 3}, {2, 2}, {0, 0}, {}, false, true}, {2, 2, 8, 6}, true}, GetParam());
  run_pool(PoolCase{PoolParams{{3, 2}, {2, 2}, {1, 0}, {}, false, true}, {1, 2, 6, 5}, true}, GetParam());
  run_pool(PoolCase{PoolParams{{3, 3}, {2, 2}, {1, 0}, {}, false, false}, {1, 2, 6, 8}, true}, GetParam());
}

TEST_P(PoolTest, OneAndThreeDims) {
  run_pool(PoolCase{PoolParams{{3}, {2}, {1}, {}, true, true}, {2, 3, 9}}, GetParam());
  run_pool(PoolCase{PoolParams{{2, 2, 2}, {2, 1, 2}, {0, 1, 0}, {}, false, true}, {1, 2, 4, 3, 5}, true}, GetParam());
  run_pool(PoolCase{PoolParams{{2, 2, 2}, {1, 2, 2}, {1, 0, 0}, {}, true, true}, {1, 2, 4, 5, 4}}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Dtypes, PoolTest,
                         ::testing::Values(DnnlType::f32, DnnlType::bf16, DnnlType::f16));

TEST(PoolInference, MaxWithoutWorkspace) {
  PoolCase c{PoolParams{{2, 2}, {2, 2}, {0, 0}, {}, true, true}, {1, 1, 4, 4}};
  HostTensor x = HostTensor::random(c.src, DnnlType::f32, 3), y = HostTensor::make(c.dst(), DnnlType::f32);
  pool_forward(c.p, x.arg(), y.arg(), nullptr);
  EXPECT_EQ(y.get(0), std::max({x.get(0), x.get(1), x.get(4), x.get(5)}));
  HostTensor dx = HostTensor::make(c.src, DnnlType::f32);
  EXPECT_THROW(pool_backward(c.p, y.arg(), dx.arg(), nullptr), DnnlError);
}

}  // namespace
}  // namespace amps::rt::dnnl_cpu::test
