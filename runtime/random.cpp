// Generator's normal and bounded-integer draws.
#include "runtime/random.hpp"

#include <bit>
#include <cmath>
#include <sstream>

#include "runtime/error.hpp"

namespace amps::rt {

double Generator::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u1 = 1.0 - uniform_double();  // (0, 1]: log stays finite
  double u2 = uniform_double();
  double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = r * std::sin(2.0 * M_PI * u2);
  has_spare_ = true;
  return r * std::cos(2.0 * M_PI * u2);
}

uint64_t Generator::below(uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = engine_();
  while (x >= limit);
  return x % n;
}

namespace {
// Words after the engine's own: a tag, the seed, the spare normal's bits and whether it is pending.
constexpr uint64_t kStateTag = 0x616d70735f726e67ull;  // "amps_rng"
constexpr size_t kTail = 4;
}  // namespace

std::vector<uint64_t> Generator::state() const {
  std::stringstream ss;
  ss << engine_;
  std::vector<uint64_t> words;
  for (uint64_t w; ss >> w;) words.push_back(w);
  words.insert(words.end(), {kStateTag, seed_, std::bit_cast<uint64_t>(spare_), uint64_t(has_spare_)});
  return words;
}

void Generator::set_state(const std::vector<uint64_t>& words) {
  const size_t engine_words = std::mt19937_64::state_size + 1;  // the state and its position
  AMPS_CHECK(words.size() == engine_words + kTail && words[engine_words] == kStateTag,
             "expected a state returned by get_rng_state() or Generator.get_state() ({} int64 values), got {} values",
             engine_words + kTail, words.size());
  std::stringstream ss;
  for (size_t i = 0; i < engine_words; ++i) ss << words[i] << ' ';
  std::mt19937_64 engine;
  ss >> engine;
  AMPS_CHECK(!ss.fail(), "the state is corrupt");
  engine_ = engine;
  seed_ = words[engine_words + 1];
  spare_ = std::bit_cast<double>(words[engine_words + 2]);
  has_spare_ = words[engine_words + 3] != 0;
}

}  // namespace amps::rt
