// Shared helpers for the runtime tests: tensor literals, float64 comparisons and error expectations.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt::test {

// A tensor of [sizes] holding [values] (row-major) in [dtype].
inline Tensor make(const std::vector<double>& values, const Dims& sizes, DType dtype = DType::float32,
                   Device device = Device::cpu()) {
  return Tensor::from_doubles(values, sizes, dtype, device);
}

// Deterministic pseudo-random values in [-1, 1) (no dependency on the runtime's generator).
inline std::vector<double> wavy(int64_t n, double phase = 0.0) {
  std::vector<double> v(size_t(n), 0.0);
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = std::sin(1.7 * double(i) + phase) * 0.9 + 0.05 * double(i % 3);
  return v;
}

// Every element of [t] within [atol] + [rtol]*|expected| of [expected] (NaN matches NaN).
inline ::testing::AssertionResult all_close(const Tensor& t, const std::vector<double>& expected,
                                            double atol = 1e-6, double rtol = 1e-5) {
  std::vector<double> got = t.to_doubles();
  if (got.size() != expected.size())
    return ::testing::AssertionFailure() << "size " << got.size() << " vs expected " << expected.size();
  for (size_t i = 0; i < got.size(); ++i) {
    bool both_nan = std::isnan(got[i]) && std::isnan(expected[i]);
    bool same_inf = std::isinf(got[i]) && got[i] == expected[i];
    if (both_nan || same_inf) continue;
    if (!(std::fabs(got[i] - expected[i]) <= atol + rtol * std::fabs(expected[i])))
      return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", expected " << expected[i];
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult all_close(const Tensor& t, const Tensor& ref, double atol = 1e-6,
                                            double rtol = 1e-5) {
  if (t.sizes() != ref.sizes()) return ::testing::AssertionFailure() << "shapes differ";
  return all_close(t, ref.to_doubles(), atol, rtol);
}

// Runs [fn] and checks it throws rt::Error of [kind] whose message contains [needle].
template <typename F>
::testing::AssertionResult throws_error(F&& fn, const std::string& kind, const std::string& needle) {
  try {
    fn();
  } catch (const Error& e) {
    if (e.kind() != kind) return ::testing::AssertionFailure() << "kind " << e.kind() << ": " << e.message();
    if (e.message().find(needle) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << e.message() << "' lacks '" << needle << "'";
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no exception thrown";
}

}  // namespace amps::rt::test
