// CPU kernels of torch.poisson and torch.binomial: one draw per element from the calling Context's generator, by the
// samplers PyTorch's CPU kernels use (Knuth's product of uniforms below rate 10 and Hoermann's transformed rejection
// PTRS above it; binomial by geometric waiting times below count * p = 10 and Kachitvichyanukul-Schmeiser BTRS
// above it), so the draws follow the same distributions. Devices run them through the host fallback.
#include <cmath>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cpu {
namespace {

double sample_poisson(double lambda, Generator& g) {
  AMPS_CHECK(lambda >= 0, "invalid Poisson rate, expected rate to be non-negative");
  if (lambda == 0) return 0;
  if (lambda < 10) {  // Knuth: the number of uniforms whose running product stays above exp(-lambda)
    const double enlam = std::exp(-lambda);
    double prod = 1.0, x = 0;
    while ((prod *= g.uniform_double()) > enlam) x += 1;
    return x;
  }
  const double slam = std::sqrt(lambda), loglam = std::log(lambda);  // PTRS (Hoermann 1993)
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  while (true) {
    const double u = g.uniform_double() - 0.5, v = g.uniform_double(), us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <= -lambda + k * loglam - std::lgamma(k + 1))
      return k;
  }
}

// log(k!) - (Stirling's approximation of it), tabulated for small k.
double stirling_tail(double k) {
  static constexpr double kTail[] = {0.0810614667953272,  0.0413406959554092,  0.0276779256849983,
                                     0.02079067210376509, 0.0166446911898211,  0.0138761288230707,
                                     0.0118967099458917,  0.0104112652619720,  0.00925546218271273,
                                     0.00833056343336287};
  if (k <= 9) return kTail[size_t(k)];
  const double kp1sq = (k + 1) * (k + 1);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

// Successes in [count] trials of [p] <= 1/2 with count * p < 10: geometric waiting times until they pass count.
double binomial_inversion(double count, double p, Generator& g) {
  const double logq = std::log1p(-p);
  double total = 0, successes = 0;
  while (true) {
    total += std::ceil(std::log(1.0 - g.uniform_double()) / logq);
    if (total > count) return successes;
    successes += 1;
  }
}

// BTRS (Hormann 1993's transformed rejection for the binomial), [p] <= 1/2 and count * p >= 10.
double binomial_btrs(double count, double p, Generator& g) {
  const double stddev = std::sqrt(count * p * (1 - p)), b = 1.15 + 2.53 * stddev;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p, c = count * p + 0.5, v_r = 0.92 - 4.2 / b;
  const double r = p / (1 - p), alpha = (2.83 + 5.1 / b) * stddev, m = std::floor((count + 1) * p);
  while (true) {
    const double u = g.uniform_double() - 0.5, us = 0.5 - std::fabs(u);
    double v = g.uniform_double();
    const double k = std::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > count) continue;
    if (us >= 0.07 && v <= v_r) return k;
    v = std::log(v * alpha / (a / (us * us) + b));
    const double bound = (m + 0.5) * std::log((m + 1) / (r * (count - m + 1))) +
                         (count + 1) * std::log((count - m + 1) / (count - k + 1)) +
                         (k + 0.5) * std::log(r * (count - k + 1) / (k + 1)) + stirling_tail(m) +
                         stirling_tail(count - m) - stirling_tail(k) - stirling_tail(count - k);
    if (v <= bound) return k;
  }
}

double sample_binomial(double count, double p, Generator& g) {
  if (std::isnan(count) || std::isnan(p)) return NAN;
  if (count <= 0 || p <= 0) return 0;
  if (p >= 1) return count;
  const double q = p <= 0.5 ? p : 1 - p;
  const double k = count * q >= 10 ? binomial_btrs(count, q, g) : binomial_inversion(count, q, g);
  return p <= 0.5 ? k : count - k;
}

Tensors k_poisson(const ArgReader& a, const KernelContext& kc) {
  const Tensor rates = contiguous(cast(a.tensor(0), DType::float64));
  Tensor out = Tensor::empty(rates.sizes(), DType::float64, kc.device);
  Generator& g = kc.ctx.generator();
  const double* r = rates.data<double>();
  double* o = out.data<double>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = sample_poisson(r[i], g);
  return one_tensor(cast(out, a.tensor(0).dtype()));
}

// binomial(count, prob): count and prob broadcast together; the result has count's dtype.
Tensors k_binomial(const ArgReader& a, const KernelContext& kc) {
  const Tensor count = a.tensor(0), prob = a.tensor(1);
  AMPS_CHECK(count.dtype() == prob.dtype(), "binomial: count ({}) and prob ({}) must have the same dtype",
             dtype_name(count.dtype()), dtype_name(prob.dtype()));
  const Dims shape = broadcast_shapes(count.sizes(), prob.sizes(), "binomial");
  const Tensor n = contiguous(cast(count.expand(shape), DType::float64));
  const Tensor p = contiguous(cast(prob.expand(shape), DType::float64));
  Tensor out = Tensor::empty(shape, DType::float64, kc.device);
  Generator& g = kc.ctx.generator();
  for (int64_t i = 0; i < out.numel(); ++i)
    out.data<double>()[i] = sample_binomial(n.data<double>()[i], p.data<double>()[i], g);
  return one_tensor(cast(out, count.dtype()));
}

}  // namespace

void register_sampling_kernels(KernelTable& t) {
  t.add(OpId::poisson, k_poisson, kFloatDTypes);
  t.add(OpId::binomial, k_binomial, kFloatDTypes);
}

}  // namespace amps::rt::cpu
