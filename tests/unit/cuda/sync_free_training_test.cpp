// Issue 8's "0 host syncs per training step, counted": whole training steps of scripts (autocast, a GradScaler,
// fused SGD/Adam/AdamW, cross_entropy, backward, zero_grad) read no device value on the host. Runs on cuda when a
// GPU is there (and then also checks the CUDA backend's device-to-host copies), on the cpu otherwise, where it
// still catches a stdlib or scaler path that calls item(), prints a tensor or tests one for truth.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "interp/embed/handles.hpp"
#include "interp/interp.hpp"
#include "interp/source.hpp"
#include "runtime/context.hpp"
#include "stdlib/install.hpp"

namespace amps::rt {
namespace {

// The model, data and optimizer [opt] on the GPU when there is one; step() trains once and reads nothing.
std::string training_script(const std::string& opt) {
  return R"(
import nn
import optim
manual_seed(0)
let dev = cuda if cuda.available() else cpu
let model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(dev)
let x = randn(8, 16).to(dev)
let y = randint(0, 4, (8,)).to(dev)
let opt = )" + opt + R"(
let scaler = GradScaler(init_scale=1024.0)
let lowp = float16 if dev == cuda else bfloat16
fn step() {
  opt.zero_grad()
  autocast dev<lowp> { let loss = cross_entropy(model(x), y) }
  scaler.scale(loss).backward()
  scaler.step(opt)
  scaler.update()
  return loss
}
let first = step()
)";
}

class SyncFreeTraining : public ::testing::TestWithParam<const char*> {};

TEST_P(SyncFreeTraining, StepsReadNothingOnTheHost) {
  interp::InterpConfig cfg;
  cfg.sinks.out = [](std::string_view) {};
  cfg.sinks.err = [](std::string_view) {};
  interp::Interp in(cfg);
  stdlib::install_stdlib(interp::embed::handle_of(in));
  auto src = [](const std::string& code) { return std::make_shared<interp::SourceFile>("t.amps", code, "."); };
  in.run(src(training_script(GetParam())));  // one warm-up step: lazy scale tensors, optimizer state
  const uint64_t syncs = in.runtime().host_syncs(), reads = cuda_host_reads();
  in.run(src("let last = none\nfor i in range(3) { last = step() }"));
  EXPECT_EQ(in.runtime().host_syncs(), syncs) << GetParam();
  EXPECT_EQ(cuda_host_reads(), reads) << GetParam();
  // The steps trained: the loss moved (read only now, after the counting).
  in.run(src("let moved = last.float().item() != first.float().item()"));
  EXPECT_EQ(in.run(src("moved"), true).as_bool(), true) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(FusedOptimizers, SyncFreeTraining,
                         ::testing::Values("optim.SGD(model.parameters(), lr=0.1, momentum=0.9, fused=true)",
                                           "optim.Adam(model.parameters(), lr=0.01, fused=true)",
                                           "optim.AdamW(model.parameters(), lr=0.01, amsgrad=true, fused=true)",
                                           "optim.syncfree.SGD(model.parameters(), lr=0.1)"));

}  // namespace
}  // namespace amps::rt
