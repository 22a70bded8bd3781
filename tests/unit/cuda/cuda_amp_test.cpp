// CUDA GradScaler kernels and the ops the sync-free optimizers use, vs the CPU backend, and a whole scaled
// training step on cuda that must not read one device value on the host. Every test skips without a GPU.
#include "amp/grad_scaler.hpp"
#include "cuda_test_util.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor flag(double v, Device d) { return make({v}, {}, DType::float32).to(d); }

// Runs the unscale op over copies of [grads] on [d]; returns the grads and found_inf on the host.
std::pair<std::vector<Tensor>, double> unscale_on(Device d, const std::vector<Tensor>& grads, double inv, double found) {
  std::vector<Tensor> gs;
  for (const Tensor& g : grads) gs.push_back(g.to(d).clone());
  std::vector<Tensor> views;  // a transposed grad is unscaled through its non-contiguous view
  for (const Tensor& g : gs) views.push_back(g.dim() == 2 ? g.t() : g);
  Tensor f = flag(found, d);
  dispatch(OpId::_amp_foreach_non_finite_check_and_unscale_, {views, f, flag(inv, d)});
  std::vector<Tensor> back;
  for (const Tensor& g : gs) back.push_back(g.to(Device::cpu()));
  return {back, f.item().to_double()};
}

TEST_F(Cuda, UnscaleMatchesTheCpuInOneLaunchPerList) {
  for (DType t : kFloats) {
    std::vector<Tensor> grads = {input({5}, t, 0.1, 0.0, 100.0), input({3, 7}, t, 0.2, 0.0, 100.0),
                                 input({9000}, t, 0.3, 0.0, 100.0), input({0}, t)};
    auto [want, want_found] = unscale_on(Device::cpu(), grads, 0.25, 0.0);
    auto [got, got_found] = unscale_on(kCuda, grads, 0.25, 0.0);
    EXPECT_EQ(got_found, want_found);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(test::all_close(got[i], want[i], 0, 0)) << dtype_name(t);
    grads[2] = make(std::vector<double>(9000, 1.0), {9000}, t);
    Tensor bad = grads[2].clone();
    bad.slice(0, 8999, 9000).fill_(Scalar(kInf));  // the last element of the second chunk
    grads[2] = bad;
    EXPECT_EQ(unscale_on(kCuda, grads, 0.5, 0.0).second, 1.0) << dtype_name(t);
    EXPECT_EQ(unscale_on(kCuda, {grads[0]}, 0.5, 1.0).second, 1.0) << "found_inf is never reset";
  }
  std::vector<Tensor> many;  // more tensors than one launch's list holds
  for (int i = 0; i < 130; ++i) many.push_back(input({i % 7 + 1}, DType::float32, 0.01 * i));
  many[120] = make({1.0, std::nan("")}, {2}, DType::float32);
  auto [want, want_found] = unscale_on(Device::cpu(), many, 0.125, 0.0);
  auto [got, got_found] = unscale_on(kCuda, many, 0.125, 0.0);
  EXPECT_EQ(got_found, 1.0);
  for (size_t i = 0; i < got.size(); ++i) {
    if (i == 120) continue;  // the NaN grad
    EXPECT_TRUE(test::all_close(got[i], want[i], 0, 0)) << i;
  }
}

TEST_F(Cuda, UnscaleChecksItsFlagsAsTheCpu) {
  Tensor g = input({4}, DType::float32).to(kCuda);
  EXPECT_TRUE(test::throws_error([&] {
    dispatch(OpId::_amp_foreach_non_finite_check_and_unscale_, {std::vector<Tensor>{g}, flag(0, kCuda), flag(1, Device::cpu())});
  }, "RuntimeError", "inv_scale must be on the same device as the scaled grads."));
  EXPECT_TRUE(test::throws_error([&] {
    dispatch(OpId::_amp_foreach_non_finite_check_and_unscale_,
             {std::vector<Tensor>{g, g.to(DType::float16)}, flag(0, kCuda), flag(1, kCuda)});
  }, "RuntimeError", "all scaled_grads must have the same dtype and device"));
}

// Runs _amp_update_scale_ over [found] flags on [d]; returns (scale, tracker) after each step.
std::vector<std::pair<double, double>> scale_trace(Device d, double scale, const std::vector<double>& found,
                                                   double growth, int64_t interval) {
  Tensor s = flag(scale, d), tr = make({0}, {}, DType::int32).to(d);
  std::vector<std::pair<double, double>> out;
  for (double f : found) {
    dispatch(OpId::_amp_update_scale_, {s, tr, flag(f, d), growth, 0.5, interval});
    out.emplace_back(s.item().to_double(), tr.item().to_double());
  }
  return out;
}

TEST_F(Cuda, UpdateScaleGrowsAndBacksOffAsTheCpu) {
  const std::vector<double> found = {0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0};
  EXPECT_EQ(scale_trace(kCuda, 1024, found, 2.0, 3), scale_trace(Device::cpu(), 1024, found, 2.0, 3));
  EXPECT_EQ(scale_trace(kCuda, 3e38, {0, 0}, 2.0, 1), scale_trace(Device::cpu(), 3e38, {0, 0}, 2.0, 1));  // no growth to inf
  EXPECT_EQ(scale_trace(kCuda, 3.0, {0, 1, 0}, 1.7, 1), scale_trace(Device::cpu(), 3.0, {0, 1, 0}, 1.7, 1));
}

TEST_F(Cuda, TernaryOpsMatchTheCpu) {
  for (DType t : kFloats) {
    Tensor x = input({3, 1, 4}, t), y = input({5, 4}, t, 0.7), z = input({4}, t, 1.3, 2.0);
    EXPECT_TRUE(same_on_cuda(OpId::addcmul, {x, y, z, Scalar(0.5)}));
    EXPECT_TRUE(same_on_cuda(OpId::addcdiv, {x, y, z, Scalar(-2.0)}));
    EXPECT_TRUE(same_on_cuda(OpId::lerp, {x, y, input({5, 4}, t, 0.2, 0.5)}));     // weights on both sides of 0.5
    EXPECT_TRUE(same_on_cuda(OpId::lerp, {x, y, wrap_number(Scalar(0.1))}));      // Python number weight
    Tensor cond = gt(input({5, 1}, DType::float32, 0.4), wrap_number(Scalar(0.0)));
    EXPECT_TRUE(same_on_cuda(OpId::where, {cond, x, y}));
    EXPECT_TRUE(same_on_cuda(OpId::where, {cond, x.transpose(0, 2), wrap_number(Scalar(0.0))}));
    EXPECT_TRUE(same_on_cuda(OpId::masked_fill, {y, cond, Scalar(-1.5)}));
    Tensor self = make({-1, 0, 2, std::nan(""), 0.5}, {5}, t);  // relu's gradient: <= 0 drops, NaN keeps
    EXPECT_TRUE(same_on_cuda(OpId::threshold_backward, {input({3, 5}, t), self, Scalar(0.0)}));
    EXPECT_TRUE(same_on_cuda(OpId::threshold_backward, {input({5}, t), self, Scalar(0.25)}));
  }
  Tensor c = make({1, 0, 1}, {3}, DType::bool_);
  EXPECT_TRUE(same_on_cuda(OpId::where, {c, make({1, 2, 3}, {3}, DType::int64), make({7}, {1}, DType::int32)}));
  EXPECT_TRUE(same_on_cuda(OpId::addcmul, {make({1, 2, 3}, {3}, DType::int64), make({2, 2, 2}, {3}, DType::int64),
                                           make({3, 1, 0}, {3}, DType::int64), Scalar(int64_t(2))}));
}

TEST_F(Cuda, InPlaceTernaryOpsWriteTheirInput) {
  Tensor m = input({6}, DType::float32), g = input({6}, DType::float32, 0.5);
  Tensor dm = m.to(kCuda);
  Tensors r = dispatch(OpId::lerp_, {dm, g.to(kCuda), wrap_number(Scalar(0.1))});
  EXPECT_TRUE(r[0].is_same(dm));
  EXPECT_TRUE(test::all_close(dm, dispatch(OpId::lerp, {m, g, wrap_number(Scalar(0.1))})[0], 1e-6, 1e-6));
  Tensor v = input({6}, DType::bfloat16).to(kCuda), v_ref = v.to(Device::cpu());
  dispatch(OpId::addcmul_, {v, g.to(DType::bfloat16).to(kCuda), g.to(DType::bfloat16).to(kCuda), Scalar(0.001)});
  dispatch(OpId::addcmul_, {v_ref, g.to(DType::bfloat16), g.to(DType::bfloat16), Scalar(0.001)});
  EXPECT_TRUE(test::all_close(v, v_ref, 0, 0));
  Tensor mask = make({1, 0, 0, 1, 0, 1}, {6}, DType::bool_);
  Tensor h = input({6}, DType::float16).to(kCuda), h_ref = h.to(Device::cpu());
  dispatch(OpId::masked_fill_, {h, mask.to(kCuda), Scalar(9.0)});
  dispatch(OpId::masked_fill_, {h_ref, mask, Scalar(9.0)});
  EXPECT_TRUE(test::all_close(h, h_ref, 0, 0));
}

// optim.syncfree.SGD's update in C++: every op the script runs, on device, kept only where found_inf == 0.
struct SyncFreeSgd : amp::ScalerOptimizer {
  explicit SyncFreeSgd(Tensor p) : params_{std::move(p)} {}
  const void* identity() const override { return this; }
  std::vector<Tensor> params() override { return params_; }
  bool supports_sync_free() const override { return true; }
  void step(const Tensor& found_inf, const Tensor&) override {
    Tensor p = params_[0];
    Tensor updated = add(p, p.grad(), Scalar(-0.5));
    Tensor keep = gt(found_inf, wrap_number(Scalar(0.0)));
    p.copy_(dispatch(OpId::where, {keep, p, updated})[0]);
  }
  std::vector<Tensor> params_;
};

// A fused SGD (the _fused_sgd_ op dividing by grad_scale and reading found_inf on the device), as
// optim.SGD(fused=true) runs it under the amp-scaling contract (the scaler only checks the gradients).
struct FusedSgd : amp::ScalerOptimizer {
  explicit FusedSgd(Tensor p) : params_{std::move(p)} {}
  const void* identity() const override { return this; }
  std::vector<Tensor> params() override { return params_; }
  bool supports_amp_scaling() const override { return true; }
  void step(const Tensor& found_inf, const Tensor& grad_scale) override {
    IValue scale = grad_scale.defined() ? IValue(grad_scale) : IValue();
    dispatch(OpId::_fused_sgd_, {IValue(params_), IValue(std::vector<Tensor>{params_[0].grad()}),
                                 IValue(std::vector<Tensor>{}), IValue(0.0), IValue(0.0), IValue(0.5), IValue(0.0),
                                 IValue(false), IValue(false), IValue(false), scale, IValue(found_inf)});
  }
  std::vector<Tensor> params_;
};

// Two scaled steps of [Opt] on cuda (a finite gradient, then an inf one) through the GradScaler: neither reads a
// device value on the host, the inf step changes nothing, and the scale grows then backs off.
template <typename Opt> void expect_scaled_steps_without_host_reads() {
  amp::GradScaler scaler({.init_scale = 1024.0, .growth_interval = 1});
  Tensor w = make({1, 2, 3}, {3}, DType::float32).to(kCuda);
  Opt opt(w);
  Context& ctx = current_context();
  for (double g0 : {2.0, kInf}) {
    Tensor loss = scaler.scale(make({1}, {}, DType::float32).to(kCuda));
    w.set_grad(mul(make({g0, 4, 6}, {3}, DType::float32).to(kCuda), loss));  // a scaled gradient
    const uint64_t syncs = ctx.host_syncs(), reads = cuda_host_reads();
    EXPECT_TRUE(scaler.step(opt));
    scaler.update();
    EXPECT_EQ(ctx.host_syncs(), syncs);
    EXPECT_EQ(cuda_host_reads(), reads);
  }
  EXPECT_TRUE(test::all_close(w.to(Device::cpu()), {0, 0, 0}, 0, 0));  // the inf step changed nothing
  EXPECT_EQ(scaler.get_scale(), 1024.0);                               // grew to 2048, backed off to 1024
}

TEST_F(Cuda, ScaledSyncFreeStepMakesNoHostRead) { expect_scaled_steps_without_host_reads<SyncFreeSgd>(); }
TEST_F(Cuda, ScaledFusedStepMakesNoHostRead) { expect_scaled_steps_without_host_reads<FusedSgd>(); }

}  // namespace
}  // namespace amps::rt
