// The Mersenne Twister core of the `random` module (stdlib/random.amps): CPython 3.11's _random.Random, word for word
// (init_genrand/init_by_array seeding, genrand_uint32, random() from two draws, getrandbits, _randbelow by
// rejection), so a script seeded with random.seed(n) draws the numbers Python draws after the same seed. The state
// lives in a 625-element int64 cpu tensor the script owns (624 words, then the index), read and written in place.
#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib {
namespace {

constexpr int kN = 624, kM = 397;

// The state tensor's words (as uint32 held in int64 slots) and index, checked once per call.
struct Mt {
  int64_t* s;
  uint32_t word(int i) const { return uint32_t(s[i]); }
  void set(int i, uint32_t v) { s[i] = int64_t(v); }
};

Mt state_of(Vm& vm, const Value& t, const char* fn) {
  if (!t.is(AMPS_TYPE_TENSOR)) fail("TypeError", fmt::format("{}(): the state must be a tensor", fn));
  amps_tensor_info info = vm.tensor_info(t);
  if (info.dtype != AMPS_INT64 || info.ndim != 1 || info.shape[0] != kN + 1 || std::strcmp(info.device, "cpu") != 0 ||
      info.strides[0] != 1)
    fail("ValueError", fmt::format("{}(): the state must be a contiguous cpu int64 tensor of {} elements", fn, kN + 1));
  return Mt{static_cast<int64_t*>(info.data)};
}

void init_genrand(Mt& mt, uint32_t s) {
  mt.set(0, s);
  for (int i = 1; i < kN; ++i) mt.set(i, 1812433253u * (mt.word(i - 1) ^ (mt.word(i - 1) >> 30)) + uint32_t(i));
  mt.s[kN] = kN;
}

void init_by_array(Mt& mt, const std::vector<uint32_t>& key) {
  init_genrand(mt, 19650218u);
  int i = 1;
  size_t j = 0;
  for (size_t k = std::max<size_t>(kN, key.size()); k; --k) {
    mt.set(i, (mt.word(i) ^ ((mt.word(i - 1) ^ (mt.word(i - 1) >> 30)) * 1664525u)) + key[j] + uint32_t(j));
    ++i, ++j;
    if (i >= kN) mt.set(0, mt.word(kN - 1)), i = 1;
    if (j >= key.size()) j = 0;
  }
  for (int k = kN - 1; k; --k) {
    mt.set(i, (mt.word(i) ^ ((mt.word(i - 1) ^ (mt.word(i - 1) >> 30)) * 1566083941u)) - uint32_t(i));
    ++i;
    if (i >= kN) mt.set(0, mt.word(kN - 1)), i = 1;
  }
  mt.set(0, 0x80000000u);
}

uint32_t genrand(Mt& mt) {
  static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
  int64_t& idx = mt.s[kN];
  if (idx < 0 || idx > kN) fail("ValueError", "random: the generator state is corrupt (index out of range)");
  if (idx >= kN) {
    int kk = 0;
    for (; kk < kN - kM; ++kk) {
      uint32_t y = (mt.word(kk) & 0x80000000u) | (mt.word(kk + 1) & 0x7fffffffu);
      mt.set(kk, mt.word(kk + kM) ^ (y >> 1) ^ mag01[y & 1u]);
    }
    for (; kk < kN - 1; ++kk) {
      uint32_t y = (mt.word(kk) & 0x80000000u) | (mt.word(kk + 1) & 0x7fffffffu);
      mt.set(kk, mt.word(kk + (kM - kN)) ^ (y >> 1) ^ mag01[y & 1u]);
    }
    uint32_t y = (mt.word(kN - 1) & 0x80000000u) | (mt.word(0) & 0x7fffffffu);
    mt.set(kN - 1, mt.word(kM - 1) ^ (y >> 1) ^ mag01[y & 1u]);
    idx = 0;
  }
  uint32_t y = mt.word(int(idx++));
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= (y >> 18);
  return y;
}

// getrandbits(k) for 0 <= k <= 63: whole 32-bit words, least significant first, the last one shifted down.
uint64_t getrandbits(Mt& mt, int k) {
  if (k <= 32) return k == 0 ? 0 : genrand(mt) >> (32 - k);
  uint64_t lo = genrand(mt), hi = genrand(mt) >> (64 - k);
  return lo | (hi << 32);
}

// _mt_seed(state, n): seeds from the non-negative int n (its 32-bit words, least significant first; 0 is [0]), or,
// for none, from 624 words of the system's entropy source (CPython reads os.urandom).
Value mt_seed(Vm& vm, Call& call) {
  Args r(vm, call, "_mt_seed", {"state", "n"});
  Mt mt = state_of(vm, r.required(0), "_mt_seed");
  std::vector<uint32_t> key;
  if (!r.has(1) || r.get(1).is_none()) {
    std::random_device rd;
    for (int i = 0; i < kN; ++i) key.push_back(rd());
  } else {
    uint64_t n = uint64_t(r.int_or(1, 0));
    do key.push_back(uint32_t(n)), n >>= 32; while (n);
  }
  init_by_array(mt, key);
  return Value::none();
}

Value mt_random(Vm& vm, Call& call) {
  Args r(vm, call, "_mt_random", {"state"});
  Mt mt = state_of(vm, r.required(0), "_mt_random");
  const uint32_t a = genrand(mt) >> 5, b = genrand(mt) >> 6;
  return Value::of((a * 67108864.0 + b) * (1.0 / 9007199254740992.0));
}

Value mt_getrandbits(Vm& vm, Call& call) {
  Args r(vm, call, "_mt_getrandbits", {"state", "k"});
  Mt mt = state_of(vm, r.required(0), "_mt_getrandbits");
  return Value::of(int64_t(getrandbits(mt, int(r.int_or(1, 0)))));
}

// _mt_randbelow(state, n), 0 < n < 2^63: CPython's _randbelow_with_getrandbits (k = n.bit_length() bits, redrawn
// while >= n).
Value mt_randbelow(Vm& vm, Call& call) {
  Args r(vm, call, "_mt_randbelow", {"state", "n"});
  Mt mt = state_of(vm, r.required(0), "_mt_randbelow");
  const uint64_t n = uint64_t(r.int_or(1, 1));
  const int k = 64 - std::countl_zero(n);
  uint64_t v = getrandbits(mt, k);
  while (v >= n) v = getrandbits(mt, k);
  return Value::of(int64_t(v));
}

}  // namespace

extern const amps_reg random_natives[] = {
    {"_mt_seed", native<mt_seed>, AMPS_CAST_NONE, nullptr},
    {"_mt_random", native<mt_random>, AMPS_CAST_NONE, nullptr},
    {"_mt_getrandbits", native<mt_getrandbits>, AMPS_CAST_NONE, nullptr},
    {"_mt_randbelow", native<mt_randbelow>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace amps::stdlib
