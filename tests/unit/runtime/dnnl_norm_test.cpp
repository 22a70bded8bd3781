// Tests of the oneDNN batch/layer/group norm helpers (forward and backward) against double loops.
#include "runtime/backend/cpu/dnnl_norm.hpp"

#include <functional>

#include "tests/unit/runtime/dnnl_test_util.hpp"

namespace amps::rt::dnnl_cpu::test {
namespace {

constexpr float kEps = 1e-5f;

// Reference of a normalization whose statistics sets are set_of(i) and whose affine parameter
// index is param_of(i). 'training' false normalizes with the given mean/var as constants.
struct RefNorm {
  std::vector<double> y, dx, dw, db, mean, var;
};

RefNorm ref_norm(const HostTensor& x, const HostTensor& dy, int64_t nsets,
                 const std::function<int64_t(int64_t)>& set_of, int64_t nparams,
                 const std::function<int64_t(int64_t)>& param_of, const HostTensor* w,
                 const HostTensor* b, bool training, const std::vector<float>& given_mean = {},
                 const std::vector<float>& given_var = {}) {
  RefNorm r{std::vector<double>(x.numel()), std::vector<double>(x.numel()), std::vector<double>(nparams),
            std::vector<double>(nparams), std::vector<double>(nsets), std::vector<double>(nsets)};
  std::vector<double> cnt(nsets), sg(nsets), sgx(nsets);
  for (int64_t i = 0; i < x.numel(); ++i) r.mean[set_of(i)] += x.get(i), cnt[set_of(i)] += 1;
  for (int64_t s = 0; s < nsets; ++s) r.mean[s] = training ? r.mean[s] / cnt[s] : given_mean[s];
  for (int64_t i = 0; i < x.numel(); ++i) r.var[set_of(i)] += std::pow(x.get(i) - r.mean[set_of(i)], 2);
  for (int64_t s = 0; s < nsets; ++s) r.var[s] = training ? r.var[s] / cnt[s] : given_var[s];
  auto xhat = [&](int64_t i) { return (x.get(i) - r.mean[set_of(i)]) / std::sqrt(r.var[set_of(i)] + kEps); };
  auto wv = [&](int64_t i) { return w ? w->get(param_of(i)) : 1.0; };
  for (int64_t i = 0; i < x.numel(); ++i) {
    r.y[i] = xhat(i) * wv(i) + (b ? b->get(param_of(i)) : 0.0);
    r.dw[param_of(i)] += dy.get(i) * xhat(i), r.db[param_of(i)] += dy.get(i);
    sg[set_of(i)] += dy.get(i) * wv(i), sgx[set_of(i)] += dy.get(i) * wv(i) * xhat(i);
  }
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t s = set_of(i);
    const double g = dy.get(i) * wv(i), rstd = 1 / std::sqrt(r.var[s] + kEps);
    r.dx[i] = training ? rstd * (g - sg[s] / cnt[s] - xhat(i) * sgx[s] / cnt[s]) : g * rstd;
  }
  return r;
}

void expect_stats(const std::vector<float>& got, const std::vector<double>& want) {
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4 * (1 + std::fabs(want[i]))) << i;
}

class NormTest : public ::testing::TestWithParam<DnnlType> {};

void run_bnorm(DnnlType t, bool training, bool affine, Dims perm = {}) {
  const Dims d{3, 4, 5, 2};
  HostTensor x = HostTensor::random(d, t, 1, perm, 1, -2, 3), dy = HostTensor::random(d, t, 2);
  HostTensor w = HostTensor::random({4}, DnnlType::f32, 3, {}, 1, 0.5, 1.5), b = HostTensor::random({4}, t, 4);
  HostTensor y = HostTensor::make(d, t), dx = HostTensor::make(d, t, perm);
  HostTensor dw = HostTensor::make({4}, DnnlType::f32), db = HostTensor::make({4}, t);
  std::vector<float> mean(4), var(4);
  for (int c = 0; c < 4; ++c) mean[c] = 0.1f * c, var[c] = 0.5f + c;
  auto chan = [](int64_t i) { return (i / 10) % 4; };
  RefNorm r = ref_norm(x, dy, 4, chan, 4, chan, affine ? &w : nullptr, affine ? &b : nullptr, training, mean, var);
  DnnlArg wa = w.arg(), ba = b.arg(), dwa = dw.arg(), dba = db.arg();
  batch_norm_forward(x.arg(), affine ? &wa : nullptr, affine ? &ba : nullptr, y.arg(), mean.data(), var.data(), kEps, training);
  expect_close(y, r.y, 0, 2);
  expect_stats(mean, r.mean), expect_stats(var, r.var);
  batch_norm_backward(x.arg(), dy.arg(), mean.data(), var.data(), affine ? &wa : nullptr, dx.arg(),
                      affine ? &dwa : nullptr, &dba, kEps, training);
  expect_close(dx, r.dx, 0, 2);
  if (affine) expect_close(dw, r.dw, 0, 8);
  expect_close(db, r.db, 0, 8);
}

TEST_P(NormTest, BatchNormTrainingAffine) { run_bnorm(GetParam(), true, true); }
TEST_P(NormTest, BatchNormTrainingPlainChannelsLast) { run_bnorm(GetParam(), true, false, {0, 2, 3, 1}); }
TEST_P(NormTest, BatchNormInference) { run_bnorm(GetParam(), false, true); }

void run_lnorm(DnnlType t, int k, bool affine) {
  const Dims d{2, 3, 4, 5};
  int64_t n = 1;
  for (int i = 0; i < k; ++i) n *= d[3 - i];
  Dims nd(d.end() - k, d.end());
  HostTensor x = HostTensor::random(d, t, 5, {0, 1, 3, 2}, 1, -1, 2), dy = HostTensor::random(d, t, 6);
  HostTensor w = HostTensor::random(nd, t, 7, {}, 1, 0.5, 1.5), b = HostTensor::random(nd, DnnlType::f32, 8);
  HostTensor y = HostTensor::make(d, t), dx = HostTensor::make(d, t);
  HostTensor dw = HostTensor::make(nd, t), db = HostTensor::make(nd, DnnlType::f32);
  std::vector<float> mean(120 / n), var(120 / n);
  auto row = [n](int64_t i) { return i / n; };
  auto col = [n](int64_t i) { return i % n; };
  RefNorm r = ref_norm(x, dy, 120 / n, row, n, col, affine ? &w : nullptr, affine ? &b : nullptr, true);
  DnnlArg wa = w.arg(), ba = b.arg(), dwa = dw.arg(), dba = db.arg();
  layer_norm_forward(x.arg(), k, affine ? &wa : nullptr, affine ? &ba : nullptr, y.arg(), mean.data(), var.data(), kEps);
  expect_close(y, r.y, 0, 2);
  expect_stats(mean, r.mean), expect_stats(var, r.var);
  layer_norm_backward(x.arg(), dy.arg(), mean.data(), var.data(), k, affine ? &wa : nullptr, dx.arg(),
                      affine ? &dwa : nullptr, affine ? &dba : nullptr, kEps);
  expect_close(dx, r.dx, 0, 2);
  if (affine) expect_close(dw, r.dw, 0, 8), expect_close(db, r.db, 0, 8);
}

TEST_P(NormTest, LayerNormLastDimAffine) { run_lnorm(GetParam(), 1, true); }
TEST_P(NormTest, LayerNormLastTwoDims) { run_lnorm(GetParam(), 2, true); }
TEST_P(NormTest, LayerNormNoAffine) { run_lnorm(GetParam(), 3, false); }

void run_gnorm(DnnlType t, bool affine) {
  const Dims d{2, 6, 3, 2};
  const int64_t g = 3;
  HostTensor x = HostTensor::random(d, t, 9, {}, 1, -1, 2), dy = HostTensor::random(d, t, 10);
  HostTensor w = HostTensor::random({6}, t, 11, {}, 1, 0.5, 1.5), b = HostTensor::random({6}, t, 12);
  HostTensor y = HostTensor::make(d, t), dx = HostTensor::make(d, t);
  HostTensor dw = HostTensor::make({6}, DnnlType::f32), db = HostTensor::make({6}, DnnlType::f32);
  std::vector<float> mean(6), var(6);
  auto set = [](int64_t i) { return i / 12; };  // (n, group): 2 channels * 6 positions
  auto chan = [](int64_t i) { return (i / 6) % 6; };
  RefNorm r = ref_norm(x, dy, 6, set, 6, chan, affine ? &w : nullptr, affine ? &b : nullptr, true);
  DnnlArg wa = w.arg(), ba = b.arg(), dwa = dw.arg(), dba = db.arg();
  group_norm_forward(x.arg(), g, affine ? &wa : nullptr, affine ? &ba : nullptr, y.arg(), mean.data(), var.data(), kEps);
  expect_close(y, r.y, 0, 2);
  expect_stats(mean, r.mean), expect_stats(var, r.var);
  group_norm_backward(x.arg(), dy.arg(), mean.data(), var.data(), g, affine ? &wa : nullptr, dx.arg(),
                      affine ? &dwa : nullptr, affine ? &dba : nullptr, kEps);
  expect_close(dx, r.dx, 0, 2);
  if (affine) expect_close(dw, r.dw, 1e-4, 8), expect_close(db, r.db, 1e-4, 8);
}

TEST_P(NormTest, GroupNormAffine) { run_gnorm(GetParam(), true); }
TEST_P(NormTest, GroupNormPlain) { run_gnorm(GetParam(), false); }

INSTANTIATE_TEST_SUITE_P(Dtypes, NormTest,
                         ::testing::Values(DnnlType::f32, DnnlType::bf16, DnnlType::f16));

TEST(NormErrors, MismatchedDimsThrow) {
  HostTensor x = HostTensor::random({2, 3}, DnnlType::f32, 1), y = HostTensor::make({3, 2}, DnnlType::f32);
  EXPECT_THROW(layer_norm_forward(x.arg(), 1, nullptr, nullptr, y.arg(), nullptr, nullptr, kEps), DnnlError);
  EXPECT_THROW(group_norm_forward(x.arg(), 2, nullptr, nullptr, x.arg(), nullptr, nullptr, kEps), DnnlError);
}

}  // namespace
}  // namespace amps::rt::dnnl_cpu::test
