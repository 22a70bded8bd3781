// Several interpreters in one process: on two threads at once, each keeps its own autocast
// state, RNG, active GradScaler and globals.
#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

// Each script checks its own region and the other vm's absence many times, then leaves its
// random draws, scale and a global for the host to compare.
const char* kRegionScript = R"(
import amp
manual_seed(7)
let a = randn(16, 16)
let scaler = GradScaler(init_scale=REGION_SCALE)
let who = "REGION_NAME"
for i in range(2000) {
  autocast cpu<REGION_DTYPE> {
    assert (a @ a).dtype == REGION_DTYPE, "lost the region"
    assert amp.get_autocast_dtype("cpu") == REGION_DTYPE, "the region dtype changed"
  }
  assert (a @ a).dtype == float32, "a region leaked out"
  assert not amp.is_autocast_enabled("cpu"), "autocast leaked in"
}
let draws = randn(4)
let loss = scale(a.sum())
)";

std::string script(const std::string& dtype, const std::string& scale_init) {
  std::string s = kRegionScript;
  std::vector<std::pair<std::string, std::string>> subs = {{"REGION_DTYPE", dtype}, {"REGION_SCALE", scale_init}, {"REGION_NAME", dtype}};
  for (auto& [key, value] : subs)
    for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), value);
  return s;
}

std::string global_repr(amps_vm* vm, const char* name) {
  amps_value* v = nullptr;
  if (amps_get_global(vm, name, &v) != AMPS_OK) return amps_last_error(vm)->message;
  char* text = nullptr;
  amps_repr(vm, v, &text);
  std::string s = text ? text : "";
  std::free(text);
  amps_release(v);
  return s;
}

}  // namespace

TEST(EmbedThreads, TwoInterpretersWithDifferentAutocastStatesDoNotInterfere) {
  CapturedVm bf16, f16;
  std::atomic<int> ready{0};
  amps_status sa = AMPS_OK, sb = AMPS_OK;
  auto go = [&](CapturedVm& t, const std::string& code, amps_status& s) {
    ++ready;
    while (ready.load() < 2) std::this_thread::yield();
    s = amps_run(t.vm, "<thread>", code.c_str(), nullptr);
  };
  std::thread ta(go, std::ref(bf16), script("bfloat16", "8.0"), std::ref(sa));
  std::thread tb(go, std::ref(f16), script("float16", "1024.0"), std::ref(sb));
  ta.join();
  tb.join();
  ASSERT_EQ(sa, AMPS_OK) << amps_last_error(bf16.vm)->diagnostic;
  ASSERT_EQ(sb, AMPS_OK) << amps_last_error(f16.vm)->diagnostic;
  EXPECT_EQ(global_repr(bf16.vm, "who"), "bfloat16");
  EXPECT_EQ(global_repr(f16.vm, "who"), "float16");
  EXPECT_EQ(global_repr(bf16.vm, "draws"), global_repr(f16.vm, "draws"));   // same seed, own generators
  double a = 0, b = 0, sum = 0;
  amps_value *la = nullptr, *lb = nullptr;
  ASSERT_EQ(amps_get_global(bf16.vm, "loss", &la), AMPS_OK);
  ASSERT_EQ(amps_get_global(f16.vm, "loss", &lb), AMPS_OK);
  ASSERT_EQ(amps_to_float(bf16.vm, la, &a), AMPS_OK);
  ASSERT_EQ(amps_to_float(f16.vm, lb, &b), AMPS_OK);
  amps_release(la);
  amps_release(lb);
  amps_value* s = nullptr;
  ASSERT_EQ(amps_run(bf16.vm, nullptr, "a.sum().item()", &s), AMPS_OK);
  ASSERT_EQ(amps_to_float(bf16.vm, s, &sum), AMPS_OK);
  amps_release(s);
  EXPECT_FLOAT_EQ(a, 8.0 * sum);      // each scale() used its own vm's scaler
  EXPECT_FLOAT_EQ(b, 1024.0 * sum);
}
