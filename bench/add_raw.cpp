// Floor for the dispatch benchmark: the bare float32 add of dispatch.amps's cases, with no interpreter,
// dispatcher or allocation, and prints JSON lines in dispatch.amps's format ("side": "raw").
//
// Usage: add_raw [iterations=200000]. Like `c = a + b` in a loop, each iteration writes the other of
// two result buffers (the new result is made while the old one is still alive, so two alternate),
// all 64-byte aligned as amps' storage;
// the loop is the compiler's vectorisation for this CPU (-O3 -march=native). Median of 7 rounds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

__attribute__((noinline)) void add(const float* __restrict a, const float* __restrict b, float* __restrict c,
                                   long n) {
  for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// n floats, 64-byte aligned as amps' tensor storage, filled with [v].
std::unique_ptr<float[], decltype(&std::free)> buffer(long n, float v) {
  auto* p = static_cast<float*>(std::aligned_alloc(64, (size_t(n) * sizeof(float) + 63) / 64 * 64));
  std::fill(p, p + n, v);
  return {p, &std::free};
}

double median_us_per_op(long n, long iterations) {
  auto a = buffer(n, 1.f), b = buffer(n, 1.f), c0 = buffer(n, 0.f), c1 = buffer(n, 0.f);
  float* c[2] = {c0.get(), c1.get()};
  std::vector<double> rounds;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long k = 0; k < iterations; ++k) add(a.get(), b.get(), c[k & 1], n);
    const auto t1 = std::chrono::steady_clock::now();
    rounds.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / double(iterations));
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const long iterations = argc > 1 ? std::atol(argv[1]) : 200000;
  const struct { const char* name; long n; } cases[] = {{"add_1", 1}, {"add_64x64", 64 * 64}};
  for (const auto& c : cases)
    std::printf("{\"bench\": \"dispatch\", \"case\": \"%s\", \"side\": \"raw\", \"us_per_op\": %.4f}\n", c.name,
                median_us_per_op(c.n, iterations));
  return 0;
}
