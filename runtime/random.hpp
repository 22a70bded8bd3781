// Generator: the per-Context random stream (mt19937_64) behind manual_seed, rand/randn/randint and dropout.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace amps::rt {

class Generator {
 public:
  // PyTorch's default seed, so an unseeded interpreter is still reproducible run to run.
  static constexpr uint64_t kDefaultSeed = 67280421310721ull;

  explicit Generator(uint64_t seed = kDefaultSeed) { manual_seed(seed); }
  void manual_seed(uint64_t seed) {
    seed_ = seed;
    engine_.seed(seed);
    has_spare_ = false;
  }
  uint64_t initial_seed() const { return seed_; }

  uint64_t next_u64() { return engine_(); }
  // Uniform in [0, 1) with 53 (double) or 24 (float) random bits.
  double uniform_double() { return double(engine_() >> 11) * 0x1.0p-53; }
  float uniform_float() { return float(engine_() >> 40) * 0x1.0p-24f; }
  // Standard normal via Box-Muller; the second value of each pair is kept for the next call.
  double normal();
  // Uniform integer in [0, n) without modulo bias.
  uint64_t below(uint64_t n);

  // The whole state (engine words, seed, the spare normal) as words, and back (torch.get_rng_state /
  // set_rng_state); set_state rejects words that state() did not produce.
  std::vector<uint64_t> state() const;
  void set_state(const std::vector<uint64_t>& words);

 private:
  std::mt19937_64 engine_;
  uint64_t seed_ = kDefaultSeed;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace amps::rt
