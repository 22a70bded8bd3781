// Shared helpers for the autograd tests: a private Context with the autograd layer, random inputs.
#pragma once

#include <gtest/gtest.h>

#include <random>

#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt::test {

// Each test runs in its own Context with autograd installed, so other tests' contexts stay untouched.
class AutogradTest : public ::testing::Test {
 protected:
  AutogradTest() : guard_(ctx_) { autograd::install(ctx_); }
  Context ctx_;

 private:
  ContextGuard guard_;
};

// Deterministic random tensors for one test.
class Rand {
 public:
  explicit Rand(uint64_t seed) : gen_(seed) {}
  // Uniform in [lo, hi).
  Tensor uniform(const Dims& s, double lo = -1, double hi = 1, DType dt = DType::float64) {
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(size_t(numel(s)));
    for (double& x : v) x = d(gen_);
    return Tensor::from_doubles(v, s, dt);
  }
  // Integers in [0, hi).
  Tensor ints(const Dims& s, int64_t hi) {
    std::uniform_int_distribution<int64_t> d(0, hi - 1);
    std::vector<double> v(size_t(numel(s)));
    for (double& x : v) x = double(d(gen_));
    return Tensor::from_doubles(v, s, DType::int64);
  }
  Tensor bools(const Dims& s) { return gt(uniform(s), Scalar(0.0)); }

 private:
  static int64_t numel(const Dims& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
  }
  std::mt19937_64 gen_;
};

}  // namespace amps::rt::test
