// Tests of the autocast dispatch layer: eligibility, every policy, in-place/out=, cache, nesting, tracing.
#include <gtest/gtest.h>

#include "../runtime/test_util.hpp"
#include "amp/autocast_layer.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"

namespace amps::amp {
namespace {

using rt::DeviceType;
using rt::DType;
using rt::IValue;
using rt::OpId;
using rt::Tensor;
using rt::test::make;
using rt::test::throws_error;

const rt::Device kXla{DeviceType::xla, 0};
const rt::Device kXpu{DeviceType::xpu, 0};

// Records the tensor arguments each op receives below the autocast layer (to see casts and reuse).
struct Recorder : rt::DispatchLayer {
  std::string_view name() const override { return "recorder"; }
  rt::Tensors call(OpId op, rt::Args& args, const rt::Next& next) override {
    if (op == watch)
      for (const IValue& v : args)
        if (v.is_tensor() && v.tensor().defined()) seen.push_back(v.tensor());
    return next(op, args);
  }
  OpId watch = OpId::mm;
  std::vector<Tensor> seen;
};

class AutocastTest : public ::testing::Test {
 protected:
  rt::Context ctx;
  rt::ContextGuard guard{ctx};
  std::shared_ptr<AutocastLayer> layer = install_autocast(ctx);
  std::shared_ptr<Recorder> recorder = std::make_shared<Recorder>();
  void SetUp() override { ctx.add_layer(recorder, 150); }
  AutocastGuard region(DeviceType d, DType dt, bool enabled = true, bool cache = true) {
    return AutocastGuard(layer, d, enabled, dt, cache);
  }
  static Tensor mat(DType dt = DType::float32, rt::Device dev = rt::Device::cpu()) {
    return make({1, 2, 3, 4}, {2, 2}, dt, dev);
  }
};

TEST_F(AutocastTest, LowerPrecisionOnlyInsideTheRegionOfTheTensorsDeviceType) {
  EXPECT_EQ(rt::mm(mat(), mat()).dtype(), DType::float32);
  {
    auto r = region(DeviceType::cpu, DType::bfloat16);
    EXPECT_EQ(rt::mm(mat(), mat()).dtype(), DType::bfloat16);
    EXPECT_EQ(rt::mm(mat(DType::float32, kXla), mat(DType::float32, kXla)).dtype(), DType::float32);
  }
  auto r = region(DeviceType::xla, DType::bfloat16);
  EXPECT_EQ(rt::relu(mat(DType::float32, kXla)).dtype(), DType::bfloat16);  // TPU list: relu is lower
  EXPECT_EQ(rt::mm(mat(), mat()).dtype(), DType::float32);
}

TEST_F(AutocastTest, Float64AndIntegerTensorsAreNotEligible) {
  auto r = region(DeviceType::cpu, DType::bfloat16);
  EXPECT_EQ(rt::mm(mat(DType::float64), mat(DType::float64)).dtype(), DType::float64);
  EXPECT_EQ(rt::cat({mat(DType::int64), mat(DType::int64)}).dtype(), DType::int64);
  EXPECT_FALSE(is_eligible(mat(DType::float64), DeviceType::cpu));
  EXPECT_FALSE(is_eligible(mat(DType::int32), DeviceType::cpu));
  EXPECT_FALSE(is_eligible(mat(), DeviceType::xla));
  EXPECT_TRUE(is_eligible(mat(DType::float16), DeviceType::cpu));
}

TEST_F(AutocastTest, InPlaceAndOutCallsRunWithoutAutocast) {
  std::vector<CastDecision> seen;
  layer->set_trace([&](const CastDecision& d) { seen.push_back(d); });
  auto r = region(DeviceType::cpu, DType::bfloat16);
  Tensor a = mat();
  rt::dispatch(OpId::addmm_, rt::Args{a, mat(), mat()});
  EXPECT_EQ(a.dtype(), DType::float32);
  Tensor out = rt::zeros({2, 2});
  rt::dispatch(OpId::mm, rt::Args{mat(), mat(), out});
  EXPECT_EQ(out.dtype(), DType::float32);
  EXPECT_EQ(recorder->seen.back().dtype(), DType::float32);  // mm's inputs were not cast
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_STREQ(seen[0].skipped, "in-place");
  EXPECT_STREQ(seen[1].skipped, "out=");
}

TEST_F(AutocastTest, Fp32AndUnlistedOps) {
  auto r = region(DeviceType::cpu, DType::bfloat16);
  Tensor b = mat(DType::bfloat16);
  EXPECT_EQ(rt::mse_loss(b, b).dtype(), DType::float32);  // cpu fp32 list
  EXPECT_EQ(rt::exp(b).dtype(), DType::bfloat16);        // unlisted on cpu: input dtype
  EXPECT_EQ(rt::softmax(b, 1).dtype(), DType::bfloat16);
  EXPECT_EQ(rt::add(b, mat()).dtype(), DType::float32);  // native promotion
}

TEST_F(AutocastTest, PromoteToTheWidestFloatingType) {
  auto r = region(DeviceType::cpu, DType::bfloat16);
  EXPECT_EQ(rt::cat({mat(DType::bfloat16), mat()}).dtype(), DType::float32);
  EXPECT_EQ(rt::stack({mat(DType::bfloat16), mat(DType::bfloat16)}).dtype(), DType::bfloat16);
  EXPECT_EQ(rt::cat({mat(DType::float64), mat(DType::bfloat16)}).dtype(), DType::float64);  // f64 ignored, not cast
  EXPECT_TRUE(throws_error([&] { rt::cat({mat(DType::float16), mat(DType::bfloat16)}); }, "RuntimeError",
                           "Unexpected floating ScalarType in at::autocast::prioritize"));
}

TEST_F(AutocastTest, SetOptDtypeRespectsAnExplicitDtype) {
  layer->set_policy(DeviceType::cpu, OpId::softmax, Policy::fp32_set_opt_dtype);  // cuda's rule, run on cpu
  layer->set_policy(DeviceType::cpu, OpId::norm, Policy::fp32_append_dtype);
  auto r = region(DeviceType::cpu, DType::bfloat16);
  Tensor b = mat(DType::bfloat16);
  EXPECT_EQ(rt::softmax(b, 1).dtype(), DType::float32);
  EXPECT_EQ(rt::dispatch(OpId::softmax, rt::Args{b, int64_t(1), DType::bfloat16})[0].dtype(), DType::bfloat16);
  EXPECT_EQ(rt::softmax(mat(DType::float64), 1).dtype(), DType::float64);
  EXPECT_EQ(rt::norm(b).dtype(), DType::float32);
}

TEST_F(AutocastTest, BannedOpRaisesPyTorchsMessage) {
  auto r = region(DeviceType::xpu, DType::bfloat16);
  Tensor p = make({0.5, 0.25}, {2}, DType::float32, kXpu);
  EXPECT_TRUE(throws_error([&] { rt::dispatch(OpId::binary_cross_entropy, rt::Args{p, p}); }, "RuntimeError",
                           "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast."));
  auto c = region(DeviceType::cpu, DType::bfloat16);
  Tensor q = make({0.5, 0.25}, {2});
  EXPECT_EQ(rt::dispatch(OpId::binary_cross_entropy, rt::Args{q, q})[0].dtype(), DType::float32);
}

TEST_F(AutocastTest, CacheReusesTheCastOfALeafWeightUntilTheOutermostRegionExits) {
  Tensor w = mat(), x = mat();
  w.set_requires_grad(true);
  {
    auto outer = region(DeviceType::cpu, DType::bfloat16);
    {
      auto inner = region(DeviceType::cpu, DType::bfloat16);
      rt::mm(x, w);
    }
    EXPECT_EQ(layer->cache_size(), 1u);  // an inner exit keeps the cache
    rt::mm(x, w);
    ASSERT_EQ(recorder->seen.size(), 4u);
    EXPECT_TRUE(recorder->seen[1].is_same(recorder->seen[3]));   // the same cast tensor, reused
    EXPECT_FALSE(recorder->seen[0].is_same(recorder->seen[2]));  // x does not require grad: cast each time
  }
  EXPECT_EQ(layer->cache_size(), 0u);
  auto again = region(DeviceType::cpu, DType::bfloat16);
  rt::mm(x, w);
  ASSERT_EQ(recorder->seen.size(), 6u);
  EXPECT_FALSE(recorder->seen[5].is_same(recorder->seen[3]));
}

TEST_F(AutocastTest, CacheDisabledOrFp32CastsAreNotCached) {
  Tensor w = mat(DType::bfloat16);
  w.set_requires_grad(true);
  Tensor w32 = mat();
  w32.set_requires_grad(true);
  {
    auto r = region(DeviceType::cpu, DType::bfloat16);
    rt::mse_loss(w, w);  // fp32 cast of a bf16 leaf: never cached
    EXPECT_EQ(layer->cache_size(), 0u);
  }
  auto r = region(DeviceType::cpu, DType::bfloat16, true, false);
  rt::mm(w32, w32);
  EXPECT_EQ(layer->cache_size(), 0u);
}

TEST_F(AutocastTest, NestedDisabledRegionRunsInInputDtypes) {
  auto r = region(DeviceType::cpu, DType::bfloat16);
  {
    auto off = region(DeviceType::cpu, DType::bfloat16, false);
    EXPECT_FALSE(layer->state(DeviceType::cpu).enabled);
    EXPECT_EQ(rt::mm(mat(), mat()).dtype(), DType::float32);
    EXPECT_EQ(layer->nesting(), 2);
  }
  EXPECT_EQ(rt::mm(mat(), mat()).dtype(), DType::bfloat16);
}

TEST_F(AutocastTest, RegionDtypeAndRestoreOnExit) {
  {
    auto r = region(DeviceType::cpu, DType::float16);
    EXPECT_EQ(rt::mm(mat(), mat()).dtype(), DType::float16);
  }
  EXPECT_FALSE(layer->state(DeviceType::cpu).enabled);
  EXPECT_EQ(layer->state(DeviceType::cpu).dtype, DType::bfloat16);
  EXPECT_EQ(layer->nesting(), 0);
}

TEST_F(AutocastTest, TraceAndProvenanceDescribeTheDecision) {
  std::vector<std::string> lines;
  layer->set_trace([&](const CastDecision& d) { lines.push_back(describe(d)); });
  layer->set_site_provider([] { return uint64_t(42); });
  auto r = region(DeviceType::cpu, DType::bfloat16);
  Tensor y = rt::mm(mat(), mat());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "mm(float32, float32) -> bfloat16 [lower_precision_fp] under autocast cpu<bfloat16>");
  auto p = layer->provenance(y);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->site, 42u);
  EXPECT_EQ(explain(*p), "bfloat16: mm(float32, float32) ran under autocast cpu<bfloat16>, policy lower_precision_fp "
                         "(inputs cast to the region's dtype)");
  EXPECT_FALSE(layer->provenance(mat()));
}

TEST_F(AutocastTest, ProvenanceLogIsBounded) {
  ProvenanceLog log(8);
  std::vector<Tensor> keep;
  CastDecision d{OpId::mm, DeviceType::cpu, Policy::none, DType::bfloat16, {}, DType::float32};
  for (int i = 0; i < 100; ++i) {
    keep.push_back(mat());
    log.record(keep.back(), d);
  }
  EXPECT_LE(log.size(), 8u);
  EXPECT_TRUE(log.find(keep.back()));
}

TEST_F(AutocastTest, ForkCopiesStateAndSharesTheCache) {
  Tensor w = mat();
  w.set_requires_grad(true);
  auto r = region(DeviceType::cpu, DType::bfloat16);
  rt::mm(mat(), w);
  auto forked = std::dynamic_pointer_cast<AutocastLayer>(layer->fork(layer));
  ASSERT_TRUE(forked);
  EXPECT_TRUE(forked->state(DeviceType::cpu).enabled);
  EXPECT_EQ(forked->cache_size(), 1u);
  EXPECT_NE(forked.get(), layer.get());
}

}  // namespace
}  // namespace amps::amp
