// Tests of the oneDNN matmul helper and the f16/bf16 staging converters against double references.
#include "runtime/backend/cpu/dnnl_matmul.hpp"

#include "runtime/backend/cpu/dnnl_staging.hpp"
#include "tests/unit/runtime/dnnl_test_util.hpp"

namespace amps::rt::dnnl_cpu::test {
namespace {

// Flat index into a tensor of dims 'to' of the element that broadcasts to 'idx' (dims 'from').
int64_t bcast_flat(const Dims& from, int64_t flat, const Dims& to) {
  int64_t out = 0, mul = 1;
  for (size_t i = 0; i < from.size(); ++i) {
    const size_t d = from.size() - 1 - i;
    const int64_t ix = flat % from[d];
    flat /= from[d];
    if (i >= to.size()) continue;
    const size_t t = to.size() - 1 - i;
    out += (to[t] == 1 ? 0 : ix) * mul, mul *= to[t];
  }
  return out;
}

// alpha*(a·b + bias) + beta*old over the broadcast batch of 'dd' = [..., M, N].
std::vector<double> ref_matmul(const HostTensor& a, const HostTensor& b, const Dims& dd,
                               const HostTensor* bias, double alpha, double beta,
                               const std::vector<double>& old) {
  const size_t r = dd.size();
  const int64_t m = dd[r - 2], n = dd[r - 1], k = a.dims.back();
  int64_t total = 1;
  for (int64_t d : dd) total *= d;
  std::vector<double> out(total);
  for (int64_t f = 0; f < total; ++f) {
    const int64_t batch = f / (m * n), i = (f / n) % m, j = f % n;
    double acc = 0;
    for (int64_t p = 0; p < k; ++p) {
      Dims ad = dd, bd = dd;
      ad[r - 1] = k, bd[r - 2] = k;
      acc += a.get(bcast_flat(ad, (batch * m + i) * k + p, a.dims)) *
             b.get(bcast_flat(bd, (batch * k + p) * n + j, b.dims));
    }
    if (bias) acc += bias->get(bcast_flat(dd, f, bias->dims));
    out[f] = alpha * acc + (beta != 0 ? beta * old[f] : 0);
  }
  return out;
}

void check_mm(HostTensor a, HostTensor b, HostTensor dst, HostTensor* bias = nullptr,
              double alpha = 1, double beta = 0) {
  const std::vector<double> old = dst.values();
  std::vector<double> want = ref_matmul(a, b, dst.dims, bias, alpha, beta, old);
  DnnlArg barg = bias ? bias->arg() : DnnlArg{};
  matmul(a.arg(), b.arg(), dst.arg(), bias ? &barg : nullptr, static_cast<float>(alpha),
         static_cast<float>(beta));
  expect_close(dst, want, 0, 4);
}

class MatmulTest : public ::testing::TestWithParam<DnnlType> {};

TEST_P(MatmulTest, Plain2d) {
  DnnlType t = GetParam();
  check_mm(HostTensor::random({7, 13}, t, 1), HostTensor::random({13, 5}, t, 2),
           HostTensor::make({7, 5}, t));
}

TEST_P(MatmulTest, TransposedAndSlicedOperands) {
  DnnlType t = GetParam();
  check_mm(HostTensor::random({9, 17}, t, 3, {1, 0}), HostTensor::random({17, 6}, t, 4, {1, 0}),
           HostTensor::make({9, 6}, t));
  check_mm(HostTensor::random({9, 17}, t, 5, {}, 2), HostTensor::random({17, 6}, t, 6, {1, 0}, 3),
           HostTensor::make({9, 6}, t, {1, 0}));
}

TEST_P(MatmulTest, BroadcastBatch) {
  DnnlType t = GetParam();
  check_mm(HostTensor::random({2, 1, 4, 6}, t, 7), HostTensor::random({3, 6, 5}, t, 8),
           HostTensor::make({2, 3, 4, 5}, t));
  HostTensor b = HostTensor::random({3, 6, 5}, t, 9);
  b.strides[0] = 0;  // expanded view
  check_mm(HostTensor::random({3, 4, 6}, t, 10, {0, 2, 1}), b, HostTensor::make({3, 4, 5}, t));
}

// An expanded operand (stride-0 batch dim) that alone gives dst that batch dim: nothing for oneDNN to
// broadcast from, so it is copied out in full first.
TEST_P(MatmulTest, ExpandedOperandAloneGivesABatchDim) {
  DnnlType t = GetParam();
  HostTensor a = HostTensor::random({3, 4, 5, 6}, t, 22);
  a.strides[1] = 0;  // x.expand(3, 4, 5, 6) of a [3, 1, 5, 6]
  check_mm(a, HostTensor::random({6, 7}, t, 23), HostTensor::make({3, 4, 5, 7}, t));
  HostTensor b = HostTensor::random({2, 6, 7}, t, 24);
  b.strides[0] = 0;
  check_mm(HostTensor::random({5, 6}, t, 25, {1, 0}), b, HostTensor::make({2, 5, 7}, t));
}

TEST_P(MatmulTest, BiasAlphaBeta) {
  DnnlType t = GetParam();
  HostTensor bias = HostTensor::random({5}, t, 11);
  check_mm(HostTensor::random({2, 7, 8}, t, 12), HostTensor::random({8, 5}, t, 13, {1, 0}),
           HostTensor::random({2, 7, 5}, t, 14), &bias, 0.5, 2.0);
  HostTensor col = HostTensor::random({7, 1}, DnnlType::f32, 15);
  check_mm(HostTensor::random({7, 8}, t, 16), HostTensor::random({8, 5}, t, 17),
           HostTensor::make({7, 5}, DnnlType::f32), &col);
}

TEST_P(MatmulTest, BetaZeroIgnoresNan) {
  DnnlType t = GetParam();
  HostTensor dst = HostTensor::make({4, 3}, t);
  for (int64_t i = 0; i < dst.numel(); ++i) dst.set(i, NAN);
  HostTensor a = HostTensor::random({4, 5}, t, 18), b = HostTensor::random({5, 3}, t, 19);
  std::vector<double> want = ref_matmul(a, b, dst.dims, nullptr, 1, 0, {});
  matmul(a.arg(), b.arg(), dst.arg());
  expect_close(dst, want, 0, 4);
}

TEST_P(MatmulTest, LowPrecisionInputsWriteF32) {
  DnnlType t = GetParam();
  check_mm(HostTensor::random({6, 40}, t, 20), HostTensor::random({40, 7}, t, 21, {1, 0}),
           HostTensor::make({6, 7}, DnnlType::f32));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, MatmulTest,
                         ::testing::Values(DnnlType::f32, DnnlType::bf16, DnnlType::f16));

TEST(MatmulErrors, ShapeMismatchThrowsDnnlError) {
  HostTensor a = HostTensor::random({3, 4}, DnnlType::f32, 1), b = HostTensor::random({5, 2}, DnnlType::f32, 2);
  HostTensor c = HostTensor::make({3, 2}, DnnlType::f32);
  EXPECT_THROW(matmul(a.arg(), b.arg(), c.arg()), DnnlError);
  HostTensor h = HostTensor::random({4, 2}, DnnlType::f16, 3);
  EXPECT_THROW(matmul(a.arg(), h.arg(), c.arg()), DnnlError);
}

TEST(MatmulLarge, MatchesReferenceAtFastKernelSizes) {
  HostTensor a = HostTensor::random({64, 96}, DnnlType::f32, 4, {1, 0});
  check_mm(a, HostTensor::random({96, 80}, DnnlType::f32, 5), HostTensor::make({64, 80}, DnnlType::f32));
}

// A transposed src big enough to be copied row-major first (reordered by oneDNN for f32, converted by
// copy_convert's transposing strips for the half types), batched and with edges off the strip size.
TEST(MatmulLarge, TransposedSrcAboveTheCopyThreshold) {
  for (DnnlType t : {DnnlType::f32, DnnlType::bf16, DnnlType::f16}) {
    SCOPED_TRACE(int(t));
    check_mm(HostTensor::random({67, 93}, t, 6, {1, 0}), HostTensor::random({93, 21}, t, 7),
             HostTensor::make({67, 21}, t));
    check_mm(HostTensor::random({3, 70, 75}, t, 8, {0, 2, 1}), HostTensor::random({75, 9}, t, 9, {1, 0}),
             HostTensor::make({3, 70, 9}, t));
  }
}

// ---- converters ----

// A converted matmul b keeps a dense permuted layout (so a transposed weight converts as one run) and
// falls back to row-major for anything else.
TEST(DnnlConvert, KeptOrderStridesOnlyForDensePermutations) {
  auto arg = [](Dims dims, Dims strides) { return DnnlArg{nullptr, DnnlType::bf16, dims, strides}; };
  EXPECT_EQ(detail::kept_order_strides(arg({4, 3}, {1, 4})), (Dims{1, 4}));              // transposed
  EXPECT_EQ(detail::kept_order_strides(arg({2, 4, 3}, {12, 1, 4})), (Dims{12, 1, 4}));   // batched
  EXPECT_EQ(detail::kept_order_strides(arg({4, 1, 3}, {1, 99, 4})), (Dims{1, 99, 4}));   // size-1 dim
  EXPECT_EQ(detail::kept_order_strides(arg({4, 3}, {1, 8})), (Dims{3, 1}));              // a gap
  EXPECT_EQ(detail::kept_order_strides(arg({2, 4, 3}, {0, 1, 4})), (Dims{12, 3, 1}));    // broadcast
  EXPECT_EQ(detail::kept_order_strides(arg({4, 3}, {})), (Dims{3, 1}));                  // implicit dense
}

// copy_convert of transposing views (the strips path) into row-major, and back out of row-major into a
// transposed view, element for element, across every dtype pair.
TEST(DnnlConvert, TransposingCopiesKeepEveryElement) {
  const DnnlType types[] = {DnnlType::f32, DnnlType::bf16, DnnlType::f16};
  for (DnnlType from : types)
    for (DnnlType to : types)
      for (const auto& [dims, perm] : {std::pair<Dims, Dims>{{37, 45}, {1, 0}}, {{2, 3, 33, 19}, {1, 0, 3, 2}}}) {
        SCOPED_TRACE(testing::Message() << int(from) << " -> " << int(to) << " rank " << dims.size());
        HostTensor src = HostTensor::random(dims, from, 31, perm), dst = HostTensor::make(dims, to);
        detail::copy_convert(src.arg(), dst.arg());
        HostTensor back = HostTensor::make(dims, from, perm);
        detail::copy_convert(dst.arg(), back.arg());
        for (int64_t i = 0; i < src.numel(); ++i) {
          HostTensor one = HostTensor::make({1}, to);
          one.set(0, src.get(i));  // the single rounding copy_convert must do
          ASSERT_EQ(dst.get(i), one.get(0)) << i;
          if (to == from || to == DnnlType::f32) {
            ASSERT_EQ(back.get(i), src.get(i)) << i;
          }
        }
      }
}

TEST(DnnlConvert, EveryF16RoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float f = detail::f16_to_f32(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(f, static_cast<float>(ref_from_f16(static_cast<uint16_t>(h)))) << h;
    ASSERT_EQ(detail::f32_to_f16(f), h) << h;
  }
}

TEST(DnnlConvert, RoundsToNearestEvenLikeReference) {
  std::mt19937 rng(42);
  for (int i = 0; i < 2000000; ++i) {
    uint32_t x = rng();
    float f;
    std::memcpy(&f, &x, 4);
    if (std::isnan(f)) continue;
    ASSERT_EQ(detail::f32_to_bf16(f), ref_to_bf16(f)) << x;
    float g = std::ldexp(f / std::ldexp(1.0f, std::ilogb(f) + 1), static_cast<int>(x % 48) - 30);
    if (f == 0 || !std::isfinite(g)) continue;
    ASSERT_EQ(detail::f32_to_f16(g), ref_to_f16(g)) << g;
  }
  EXPECT_EQ(detail::f32_to_f16(-0.0f), 0x8000);
  EXPECT_EQ(detail::f32_to_f16(65520.0f), 0x7c00);
  EXPECT_EQ(detail::f32_to_f16(1.0f + 1.0f / 2048), 0x3c00);  // tie to even
  EXPECT_EQ(detail::f32_to_bf16(1e-40f), ref_to_bf16(1e-40f));  // denormal kept
  EXPECT_TRUE(std::isnan(detail::f16_to_f32(detail::f32_to_f16(NAN))));
  EXPECT_TRUE(std::isnan(detail::bf16_to_f32(detail::f32_to_bf16(NAN))));
}

}  // namespace
}  // namespace amps::rt::dnnl_cpu::test
