// The gradcheck samples (autograd_gradcheck_samples.cpp): one or more calls of every differentiable op of ops.def,
// read by autograd_gradcheck_test.cpp.
#pragma once

#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "autograd_test_util.hpp"
#include "runtime/dispatch.hpp"

namespace amps::rt::gradcheck {

// One way to call an op: its arguments (float64; converted when the op has no float64 kernel), the
// argument positions not to differentiate, and optionally a custom forward around the op.
struct Sample {
  std::string name;
  OpId op;
  std::function<Args(test::Rand&)> args;
  std::set<size_t> fixed = {};
  std::function<Tensors(Args&)> fn = nullptr;
};

inline std::ostream& operator<<(std::ostream& os, const Sample& s) { return os << s.name; }

// Every sample; an op without a gradient is listed in the test's kNotDifferentiable instead.
std::vector<Sample> samples();
// Those of the torch-namespace reductions, samplers and creation functions (autograd_gradcheck_samples_util.cpp).
std::vector<Sample> util_samples();
// Those of the elementwise extras (autograd_gradcheck_samples_extra.cpp), part of samples().
std::vector<Sample> elementwise_extra_samples();

}  // namespace amps::rt::gradcheck
