// Tests of the GradScaler state machine: every transition and error, scale traces, sync-free stepping.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../runtime/test_util.hpp"
#include "amp/grad_scaler.hpp"
#include "runtime/context.hpp"
#include "runtime/functions.hpp"

namespace amps::amp {
namespace {

using rt::DType;
using rt::Tensor;
using rt::test::all_close;
using rt::test::make;
using rt::test::throws_error;

constexpr double kInf = std::numeric_limits<double>::infinity();

// An optimizer whose parameters carry hand-set gradients; counts its steps.
struct FakeOptimizer : ScalerOptimizer {
  explicit FakeOptimizer(std::vector<double> grad, DType dt = DType::float32, bool sync_free = false)
      : sync_free(sync_free) {
    Tensor p = make(std::vector<double>(grad.size(), 1.0), {int64_t(grad.size())}, dt);
    p.set_grad(make(grad, {int64_t(grad.size())}, dt));
    params_.push_back(p);
  }
  const void* identity() const override { return this; }
  std::vector<Tensor> params() override { return params_; }
  bool supports_sync_free() const override { return sync_free; }
  void step(const Tensor& found_inf, const Tensor& scale) override {
    ++steps;
    got_found_inf = found_inf;
    got_scale = scale;
  }
  void set_grad(std::vector<double> g) { params_[0].set_grad(make(g, {int64_t(g.size())}, params_[0].dtype())); }
  Tensor grad() const { return params_[0].grad(); }
  bool sync_free;
  int steps = 0;
  Tensor got_found_inf, got_scale;
  std::vector<Tensor> params_;
};

Tensor loss() { return make({1.0}, {}); }

// One iteration: scale, set grads, step, update; returns the scale after the update.
double iterate(GradScaler& s, FakeOptimizer& opt, bool inf) {
  s.scale(loss());
  std::vector<double> g(size_t(opt.params_[0].numel()), 1.0);
  if (inf) g[0] = kInf;
  opt.set_grad(g);
  s.step(opt);
  s.update();
  return s.get_scale();
}

std::vector<double> trace(GradScalerOptions o, const std::vector<bool>& infs, std::vector<int64_t>* trackers = nullptr) {
  GradScaler s(o);
  FakeOptimizer opt({1.0, 2.0});
  std::vector<double> out;
  for (bool inf : infs) {
    out.push_back(iterate(s, opt, inf));
    if (trackers) trackers->push_back(s.growth_tracker());
  }
  return out;
}

TEST(GradScaler, DefaultsAndLazyInit) {
  GradScaler s;
  EXPECT_TRUE(s.is_enabled());
  EXPECT_EQ(s.get_scale(), 65536.0);
  EXPECT_EQ(s.get_growth_factor(), 2.0);
  EXPECT_EQ(s.get_backoff_factor(), 0.5);
  EXPECT_EQ(s.get_growth_interval(), 2000);
  EXPECT_FALSE(s.scale_tensor().defined());
  Tensor scaled = s.scale(make({1.5, 2}, {2}, DType::bfloat16));
  EXPECT_EQ(scaled.dtype(), DType::bfloat16);  // a 0-dim float32 scale does not promote a 1-dim tensor
  EXPECT_TRUE(all_close(scaled, {98304.0, 131072.0}));
  EXPECT_EQ(s.scale(make({1.5}, {}, DType::bfloat16)).dtype(), DType::float32);  // two 0-dim tensors do
  EXPECT_EQ(s.scale_tensor().dtype(), DType::float32);
  EXPECT_EQ(s.scale_tensor().dim(), 0);
  EXPECT_EQ(s.growth_tracker_tensor().dtype(), DType::int32);
}

TEST(GradScaler, ConstructorChecksFactorsOnlyWhenEnabled) {
  EXPECT_TRUE(throws_error([] { GradScaler s({.growth_factor = 1.0}); }, "AssertionError", "The growth factor must be > 1.0."));
  EXPECT_TRUE(throws_error([] { GradScaler s({.backoff_factor = 1.0}); }, "AssertionError", "The backoff factor must be < 1.0."));
  EXPECT_NO_THROW(GradScaler({.growth_factor = 0.5, .enabled = false}));
}

TEST(GradScaler, EveryCallBeforeScaleIsAnAssertion) {
  GradScaler s;
  FakeOptimizer opt({1.0});
  const char* tail = " but _scale is None.  This may indicate your script did not use scaler.scale(loss or outputs) "
                     "earlier in the iteration.";
  EXPECT_TRUE(throws_error([&] { s.unscale_(opt); }, "AssertionError", std::string("Attempted unscale_") + tail));
  EXPECT_TRUE(throws_error([&] { s.step(opt); }, "AssertionError", std::string("Attempted step") + tail));
  EXPECT_TRUE(throws_error([&] { s.update(); }, "AssertionError", std::string("Attempted update") + tail));
}

TEST(GradScaler, UnscaleDividesGradientsAndMovesToUnscaled) {
  GradScaler s({.init_scale = 4.0});
  FakeOptimizer opt({8.0, 2.0});
  s.scale(loss());
  EXPECT_EQ(s.stage(opt), OptState::ready);
  s.unscale_(opt);
  EXPECT_EQ(s.stage(opt), OptState::unscaled);
  EXPECT_TRUE(all_close(opt.grad(), {2.0, 0.5}));
  EXPECT_TRUE(throws_error([&] { s.unscale_(opt); }, "RuntimeError",
                           "unscale_() has already been called on this optimizer since the last update()."));
  s.step(opt);  // no second unscale
  EXPECT_TRUE(all_close(opt.grad(), {2.0, 0.5}));
  EXPECT_EQ(s.stage(opt), OptState::stepped);
  EXPECT_TRUE(throws_error([&] { s.unscale_(opt); }, "RuntimeError", "unscale_() is being called after step()."));
  EXPECT_TRUE(throws_error([&] { s.step(opt); }, "RuntimeError", "step() has already been called since the last update()."));
  s.update();
  EXPECT_EQ(s.stage(opt), OptState::ready);
}

TEST(GradScaler, UpdateAfterUnscaleAloneWorks) {
  GradScaler s({.init_scale = 8.0, .growth_interval = 1});
  FakeOptimizer opt({1.0});
  s.scale(loss());
  s.unscale_(opt);
  s.update();
  EXPECT_EQ(s.get_scale(), 16.0);
}

TEST(GradScaler, UpdateWithoutInfChecksAndStepWithoutGrads) {
  GradScaler s;
  s.scale(loss());
  EXPECT_TRUE(throws_error([&] { s.update(); }, "AssertionError", "No inf checks were recorded prior to update."));
  FakeOptimizer opt({1.0});
  opt.params_[0].set_grad(Tensor());
  EXPECT_TRUE(throws_error([&] { s.step(opt); }, "AssertionError", "No inf checks were recorded for this optimizer."));
}

TEST(GradScaler, Fp16GradientsCannotBeUnscaled) {
  GradScaler s;
  FakeOptimizer opt({1.0}, DType::float16);
  s.scale(loss());
  EXPECT_TRUE(throws_error([&] { s.unscale_(opt); }, "ValueError", "Attempting to unscale FP16 gradients."));
}

TEST(GradScaler, ClosureIsRejectedWhenEnabled) {
  GradScaler s;
  FakeOptimizer opt({1.0});
  s.scale(loss());
  EXPECT_TRUE(throws_error([&] { s.step(opt, true); }, "RuntimeError",
                           "Closure use is not currently supported if GradScaler is enabled."));
}

TEST(GradScaler, InfOrNanSkipsTheStepAndBacksOff) {
  GradScaler s;
  FakeOptimizer opt({1.0});
  s.scale(loss());
  opt.set_grad({std::nan("")});
  EXPECT_FALSE(s.step(opt));
  EXPECT_EQ(opt.steps, 0);
  s.update();
  EXPECT_EQ(s.get_scale(), 32768.0);
  EXPECT_EQ(s.growth_tracker(), 0);
}

TEST(GradScaler, ScaleTracesFromTheReference) {
  std::vector<int64_t> tr;
  EXPECT_EQ(trace({.init_scale = 4, .growth_factor = 2, .backoff_factor = 0.25, .growth_interval = 2}, {0, 0, 1}, &tr),
            (std::vector<double>{4, 8, 2}));
  EXPECT_EQ(tr, (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(trace({.init_scale = 128, .growth_interval = 1}, {0, 0, 1, 0}), (std::vector<double>{256, 512, 256, 512}));
  tr.clear();
  EXPECT_EQ(trace({.init_scale = 1000, .growth_factor = 1.5, .backoff_factor = 0.3, .growth_interval = 3},
                  {0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, &tr),
            (std::vector<double>{1000, 1000, 1500, 450, 450, 450, 675, 675, 675, 1012.5}));
  EXPECT_EQ(tr, (std::vector<int64_t>{1, 2, 0, 0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(trace({.init_scale = 1e38, .growth_factor = 16, .growth_interval = 1}, {0, 0}),
            (std::vector<double>{9.999999680285692e+37, 9.999999680285692e+37}));
  EXPECT_EQ(trace({.init_scale = std::ldexp(1.0, 126), .growth_interval = 1}, {0, 0, 0}),
            (std::vector<double>(3, 1.7014118346046923e+38)));
}

TEST(GradScaler, LoweringTheIntervalBelowTheTrackerStopsGrowth) {
  GradScaler s({.init_scale = 2, .growth_interval = 3});
  FakeOptimizer opt({1.0});
  iterate(s, opt, false);
  iterate(s, opt, false);
  s.set_growth_interval(1);  // tracker is 2: 3 != 1, and it only counts up
  EXPECT_EQ(iterate(s, opt, false), 2.0);
  EXPECT_EQ(s.growth_tracker(), 3);
}

TEST(GradScaler, TwoOptimizersOneSkipsTheScaleBacksOff) {
  GradScaler s({.init_scale = 16});
  FakeOptimizer good({1.0}), bad({kInf});
  s.scale(loss());
  EXPECT_TRUE(s.step(good));
  EXPECT_FALSE(s.step(bad));
  s.update();
  EXPECT_EQ(good.steps, 1);
  EXPECT_EQ(bad.steps, 0);
  EXPECT_EQ(s.get_scale(), 8.0);
}

TEST(GradScaler, OrdinaryStepSyncsOnceUnscaleAndUpdateNever) {
  GradScaler s;
  FakeOptimizer opt({1.0});
  s.scale(loss());
  rt::Context& ctx = rt::current_context();
  uint64_t before = ctx.host_syncs();
  s.unscale_(opt);
  EXPECT_EQ(ctx.host_syncs(), before);
  s.step(opt);
  EXPECT_EQ(ctx.host_syncs(), before + 1);
  s.update();
  EXPECT_EQ(ctx.host_syncs(), before + 1);
}

TEST(GradScaler, SyncFreeOptimizerGetsFoundInfAndScaleWithoutHostSync) {
  GradScaler s({.init_scale = 4});
  FakeOptimizer opt({8.0, kInf}, DType::float32, true);
  s.scale(loss());
  rt::Context& ctx = rt::current_context();
  uint64_t before = ctx.host_syncs();
  EXPECT_TRUE(s.step(opt));
  s.update();
  EXPECT_EQ(ctx.host_syncs(), before);
  EXPECT_EQ(opt.steps, 1);
  ASSERT_TRUE(opt.got_found_inf.defined());
  EXPECT_EQ(opt.got_found_inf.item<double>(), 1.0);
  EXPECT_EQ(opt.got_scale.item<double>(), 2.0);  // the same tensor, backed off by update()
  EXPECT_EQ(opt.grad().to_doubles()[0], 2.0);     // already unscaled
}

TEST(GradScaler, UpdateWithANewScale) {
  GradScaler s({.init_scale = 4, .growth_interval = 2});
  FakeOptimizer opt({1.0});
  iterate(s, opt, false);
  s.update(100.0);
  EXPECT_EQ(s.get_scale(), 100.0);
  EXPECT_EQ(s.growth_tracker(), 1);  // untouched
  Tensor t = make({7.0}, {1});
  s.update(t);
  t.fill_(3.0);
  EXPECT_EQ(s.get_scale(), 7.0);
  const char* reason = "new_scale should be a float or a 1-element torch.cuda.FloatTensor or torch.FloatTensor with "
                       "requires_grad=False.";
  EXPECT_TRUE(throws_error([&] { s.update(make({1, 2}, {2})); }, "AssertionError", reason));
  Tensor g = make({1.0}, {});
  g.set_requires_grad(true);
  EXPECT_TRUE(throws_error([&] { s.update(g); }, "AssertionError", reason));
}

TEST(GradScaler, StateDictRoundTripBeforeAndAfterInit) {
  GradScaler a({.init_scale = 32, .growth_factor = 3, .backoff_factor = 0.25, .growth_interval = 5});
  FakeOptimizer opt({1.0});
  iterate(a, opt, false);
  iterate(a, opt, true);
  iterate(a, opt, false);
  auto sd = a.state_dict();
  ASSERT_TRUE(sd);
  EXPECT_EQ(sd->scale, 8.0);
  EXPECT_EQ(sd->growth_tracker, 1);
  GradScaler fresh, used;
  fresh.load_state_dict(sd);
  used.scale(loss());
  used.load_state_dict(sd);
  for (GradScaler* b : {&fresh, &used}) {
    EXPECT_EQ(b->get_scale(), 8.0);
    EXPECT_EQ(b->growth_tracker(), 1);
    EXPECT_EQ(b->get_growth_factor(), 3.0);
    EXPECT_EQ(b->get_backoff_factor(), 0.25);
    EXPECT_EQ(b->get_growth_interval(), 5);
  }
  EXPECT_TRUE(throws_error([&] { fresh.load_state_dict(std::nullopt); }, "RuntimeError",
                           "The source state dict is empty, possibly because it was saved from a disabled instance of "
                           "GradScaler."));
}

TEST(GradScaler, DisabledIsAPassthrough) {
  GradScaler s({.enabled = false});
  FakeOptimizer opt({kInf});
  Tensor l = loss();
  EXPECT_TRUE(s.scale(l).is_same(l));
  s.unscale_(opt);
  EXPECT_TRUE(s.step(opt, true));
  EXPECT_TRUE(s.step(opt));
  s.update();
  EXPECT_EQ(opt.steps, 2);
  EXPECT_EQ(s.get_scale(), 1.0);
  EXPECT_EQ(s.growth_tracker(), 0);
  EXPECT_FALSE(s.state_dict());
  EXPECT_NO_THROW(s.load_state_dict(std::nullopt));
  EXPECT_TRUE(std::isinf(opt.grad().to_doubles()[0]));
}

}  // namespace
}  // namespace amps::amp
