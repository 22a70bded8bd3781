// The gradcheck samples of the torch-namespace reductions, samplers and creation functions (util_composites.hpp),
// appended to samples() (autograd_gradcheck_samples.cpp).
#include "autograd_gradcheck_samples.hpp"

namespace amps::rt::gradcheck {

std::vector<Sample> util_samples() {
  using O = OpId;
  using test::Rand;
  auto T = [](Rand& r, Dims s) { return r.uniform(s); };
  return {
      {"msort", O::msort, [=](Rand& r) { return Args{T(r, {4, 3})}; }},
      {"mode", O::mode, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), false}; }},
      {"mode_keepdim", O::mode, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(0), true}; }},
      {"nanmedian", O::nanmedian, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"nanmedian_dim", O::nanmedian_dim, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(1), true}; }},
      {"vander", O::vander, [=](Rand& r) { return Args{T(r, {3}), int64_t(4), false}; }},
      {"vander_increasing", O::vander, [=](Rand& r) { return Args{T(r, {4}), IValue(), true}; }},
      {"combinations", O::combinations, [=](Rand& r) { return Args{T(r, {4}), int64_t(2), false}; }},
      {"combinations_with_replacement", O::combinations, [=](Rand& r) { return Args{T(r, {3}), int64_t(3), true}; }},
      {"trapezoid", O::trapezoid, [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {4}), int64_t(-1)}; }},
      {"trapezoid_dx", O::trapezoid_dx, [=](Rand& r) { return Args{T(r, {3, 4}), 0.5, int64_t(0)}; }},
      {"cumulative_trapezoid", O::cumulative_trapezoid,
       [=](Rand& r) { return Args{T(r, {3, 4}), T(r, {3, 1}), int64_t(0)}; }},
      {"cumulative_trapezoid_dx", O::cumulative_trapezoid_dx,
       [=](Rand& r) { return Args{T(r, {3, 4}), 2.0, int64_t(1)}; }},
      // the in-place samplers overwrite their input: zero gradient, which the fixed seed lets gradcheck confirm
      {"random_", O::random_, [=](Rand& r) { return Args{T(r, {3, 4})}; }},
      {"random__to", O::random__to, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(5)}; }},
      {"random__from", O::random__from, [=](Rand& r) { return Args{T(r, {3, 4}), int64_t(-2), int64_t(3)}; }},
      {"cauchy_", O::cauchy_, [=](Rand& r) { return Args{T(r, {3, 4}), 0.5, 2.0}; }},
      {"exponential_", O::exponential_, [=](Rand& r) { return Args{T(r, {3, 4}), 1.5}; }},
      {"geometric_", O::geometric_, [=](Rand& r) { return Args{T(r, {3, 4}), 0.3}; }},
      {"log_normal_", O::log_normal_, [=](Rand& r) { return Args{T(r, {3, 4}), 0.5, 0.25}; }},
  };
}

}  // namespace amps::rt::gradcheck
