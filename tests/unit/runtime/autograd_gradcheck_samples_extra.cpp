// Gradcheck samples of the elementwise extras (fmax/fmin, copysign, ldexp, i0/special_i1, igamma/igammac,
// positive, rsub, clamp_min/clamp_max, fill); their in-place forms reuse them (autograd_gradcheck_test.cpp).
#include "autograd_gradcheck_samples.hpp"

#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::gradcheck {

std::vector<Sample> elementwise_extra_samples() {
  using O = OpId;
  using test::Rand;
  auto T = [](Rand& r, Dims s) { return r.uniform(s); };
  auto P = [](Rand& r, Dims s) { return r.uniform(s, 0.5, 1.5); };
  return {
      {"fmax", O::fmax, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"fmin", O::fmin, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      // input away from 0 (the kink of |input|); other's sign only selects
      {"copysign", O::copysign,
       [=](Rand& r) { return Args{P(r, {2, 3}) * call_op(O::sign, T(r, {2, 3})), T(r, {3})}; }, {1}},
      {"ldexp", O::ldexp, [=](Rand& r) { return Args{T(r, {2, 3}), r.ints({3}, 4).to(DType::float64) - 2.0}; }},
      {"i0", O::i0, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      {"special_i1", O::special_i1, [=](Rand& r) { return Args{r.uniform({2, 3}, -3, 3)}; }},
      // PyTorch defines no gradient for the first argument
      {"igamma", O::igamma, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.5, 3), r.uniform({3}, 0.5, 3)}; }, {0}},
      {"igammac", O::igammac, [=](Rand& r) { return Args{r.uniform({2, 3}, 0.5, 3), r.uniform({3}, 0.5, 3)}; }, {0}},
      {"positive", O::positive, [=](Rand& r) { return Args{T(r, {2, 3})}; }},
      {"rsub", O::rsub, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3}), 0.5}; }},
      {"clamp_min", O::clamp_min, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"clamp_max", O::clamp_max, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {3})}; }},
      {"round_decimals", O::round_decimals, [=](Rand& r) { return Args{T(r, {2, 3}), int64_t(2)}; }},
      {"polygamma_method", O::polygamma_method, [=](Rand& r) { return Args{P(r, {2, 3}), int64_t(1)}; }},
      {"fill", O::fill, [=](Rand& r) { return Args{T(r, {2, 3}), T(r, {})}; }},
  };
}

}  // namespace amps::rt::gradcheck
