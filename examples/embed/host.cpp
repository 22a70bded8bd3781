// A C++ host embedding amps (amps.hpp): registers a native with the fp32 cast rule, hands the
// script its data as tensors over host buffers, runs training steps and reads back loss and scale.
#include <amps/amps.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// host_rmse(pred, target): sqrt(mean((pred - target)^2)), computed here in float32 — the fp32
// cast rule guarantees float32 arguments inside autocast regions.
static amps::Value host_rmse(amps::Vm& vm, amps::Call& call) {
  auto pred = vm.tensor_read<float>(call.arg(0), AMPS_FLOAT32);
  auto target = vm.tensor_read<float>(call.arg(1), AMPS_FLOAT32);
  if (!pred || !target || pred->size() != target->size()) throw amps::ScriptError("TypeError", "host_rmse: two float32 tensors of one size");
  double sum = 0;
  for (size_t i = 0; i < pred->size(); ++i) sum += ((*pred)[i] - (*target)[i]) * ((*pred)[i] - (*target)[i]);
  return amps::Value::of(std::sqrt(sum / double(pred->size())));
}

int main(int argc, char** argv) {
  const char* script = argc > 1 ? argv[1] : "train_step.amps";
  amps::Vm vm;
  if (auto err = vm.register_globals({{"host_rmse", host_rmse, amps::CastRule::fp32}})) return std::fprintf(stderr, "%s\n", err->message.c_str()), 1;
  // y = x0 + 2 x1 - x2 + 0.5 x3 on 16 samples; the buffers outlive the vm, so no release callback.
  std::vector<float> x(16 * 4), y(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float((i * 7) % 11) / 11.0f - 0.5f;
  for (size_t r = 0; r < 16; ++r) y[r] = x[r * 4] + 2 * x[r * 4 + 1] - x[r * 4 + 2] + 0.5f * x[r * 4 + 3];
  vm.set_global("inputs", vm.tensor_wrap(x.data(), AMPS_FLOAT32, {16, 4}).value);
  vm.set_global("targets", vm.tensor_wrap(y.data(), AMPS_FLOAT32, {16, 1}).value);
  if (auto r = vm.run_file(script); !r) return std::fprintf(stderr, "%s", r.error->diagnostic.c_str()), 1;
  amps::Value step = vm.global("train_step").value, scaler = vm.global("scaler").value;
  for (int i = 0; i < 5; ++i) {
    amps::Result out = vm.call(step);
    if (!out) return std::fprintf(stderr, "%s", out.error->diagnostic.c_str()), 1;
    amps::Value scale = vm.call_method(scaler, "get_scale").value;
    std::printf("c++ step %d: %s scale %g\n", i, vm.repr(out.value).c_str(), *vm.to_float(scale));
  }
  return 0;
}
