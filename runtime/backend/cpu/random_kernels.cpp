// CPU kernels drawing from the calling Context's generator: rand/randn/randint/randperm, *_like,
// normal_/uniform_/bernoulli_, dropout. Sequential draws keep results reproducible per interpreter.
#include <cmath>
#include <numeric>

#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

// Fills contiguous [t] with draw() converted to its dtype.
template <typename F> void fill_with(const Tensor& t, F draw) {
  AMPS_DISPATCH_ALL(t.dtype(), T, [&] {
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<T>(draw());
  });
}

// Fills [t] (any layout) and returns it.
template <typename F> Tensor fill_any(const Tensor& t, F draw) {
  Tensor c = contiguous(t);
  fill_with(c, draw);
  if (!c.is_same(t)) copy_into(t, c);
  return t;
}

Tensor finish(const ArgReader& a, size_t rg, Tensor t) {
  if (rg < a.args().size() && a.boolean(rg)) t.set_requires_grad(true);
  return t;
}

Tensors k_rand(const ArgReader& a, const KernelContext& kc) {
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(1).value_or(kc.ctx.default_dtype()), kc.device);
  Generator& g = kc.ctx.generator();
  return one_tensor(finish(a, 3, fill_any(t, [&] { return g.uniform_double(); })));
}

Tensors k_randn(const ArgReader& a, const KernelContext& kc) {
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(1).value_or(kc.ctx.default_dtype()), kc.device);
  Generator& g = kc.ctx.generator();
  return one_tensor(finish(a, 3, fill_any(t, [&] { return g.normal(); })));
}

Tensors k_randint(const ArgReader& a, const KernelContext& kc) {
  int64_t lo = a.i64(0), hi = a.i64(1);
  AMPS_CHECK(lo < hi, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", lo, hi);
  Tensor t = Tensor::empty(a.ints(2), a.opt_dtype(3).value_or(DType::int64), kc.device);
  Generator& g = kc.ctx.generator();
  return one_tensor(fill_any(t, [&] { return double(lo + int64_t(g.below(uint64_t(hi - lo)))); }));
}

Tensors k_randperm(const ArgReader& a, const KernelContext& kc) {
  int64_t n = a.i64(0);
  AMPS_CHECK(n >= 0, "n must be non-negative, got{}", n);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  Generator& g = kc.ctx.generator();
  for (int64_t i = n - 1; i > 0; --i) std::swap(perm[size_t(i)], perm[size_t(g.below(uint64_t(i + 1)))]);
  size_t k = 0;
  Tensor t = Tensor::empty({n}, a.opt_dtype(1).value_or(DType::int64), kc.device);
  return one_tensor(fill_any(t, [&] { return double(perm[k++]); }));
}

// One row of multinomial: [n] category indices drawn from the weights [w] (non-negative, finite, some positive) by
// inverting the running sum at uniform draws; without replacement a drawn category's weight is removed.
void draw_categories(std::vector<double> w, int64_t n, bool replacement, Generator& g, int64_t* out) {
  double total = 0;
  int64_t positive = 0;
  for (double v : w) {
    AMPS_CHECK(std::isfinite(v) && v >= 0, "probability tensor contains either `inf`, `nan` or element < 0");
    total += v;
    positive += v > 0;
  }
  AMPS_CHECK(total > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
  AMPS_CHECK(replacement || positive >= n, "invalid multinomial distribution (with replacement=False, not enough "
             "non-negative category to sample)");
  for (int64_t s = 0; s < n; ++s) {
    const double u = g.uniform_double() * total;
    double acc = 0;
    size_t c = 0, last = 0;
    for (; c < w.size(); ++c) {
      if (w[c] > 0) last = c;
      acc += w[c];
      if (u < acc && w[c] > 0) break;
    }
    if (c == w.size()) c = last;  // rounding left u at the very top of the running sum
    out[s] = int64_t(c);
    if (!replacement) {
      w[c] = 0;
      total = 0;
      for (double v : w) total += v;
    }
  }
}

// multinomial(input, num_samples, replacement): category indices drawn per row of a 1-D or 2-D weight tensor.
Tensors k_multinomial(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  const int64_t n = a.i64(1);
  const bool replacement = a.boolean(2);
  AMPS_CHECK(x.dim() == 1 || x.dim() == 2, "prob_dist must be 1 or 2 dim");
  AMPS_CHECK(is_floating(x.dtype()), "multinomial only supports floating-point dtypes for input, got: {}",
             dtype_name(x.dtype()));
  AMPS_CHECK(n > 0, "cannot sample n_sample <= 0 samples");
  const int64_t cats = x.size(-1), rows = x.dim() == 2 ? x.size(0) : 1;
  AMPS_CHECK(replacement || n <= cats, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  const Tensor w = contiguous(cast(x, DType::float64));
  Tensor out = Tensor::empty(x.dim() == 2 ? Dims{rows, n} : Dims{n}, DType::int64, kc.device);
  const double* p = w.data<double>();
  for (int64_t r = 0; r < rows; ++r)
    draw_categories(std::vector<double>(p + r * cats, p + (r + 1) * cats), n, replacement, kc.ctx.generator(),
                    out.data<int64_t>() + r * n);
  return one_tensor(out);
}

Tensor like(const ArgReader& a) {
  Tensor self = a.tensor(0);
  return Tensor::empty(self.sizes(), a.opt_dtype(1).value_or(self.dtype()), a.opt_device(2).value_or(self.device()));
}

Tensors k_rand_like(const ArgReader& a, const KernelContext& kc) {
  Generator& g = kc.ctx.generator();
  return one_tensor(finish(a, 3, fill_any(like(a), [&] { return g.uniform_double(); })));
}

Tensors k_randn_like(const ArgReader& a, const KernelContext& kc) {
  Generator& g = kc.ctx.generator();
  return one_tensor(finish(a, 3, fill_any(like(a), [&] { return g.normal(); })));
}

Tensors k_normal_(const ArgReader& a, const KernelContext& kc) {
  const double mean = a.f64(1), std = a.f64(2);
  AMPS_CHECK(std >= 0, "normal expects std >= 0.0, but found std {}", std);
  Generator& g = kc.ctx.generator();
  return one_tensor(fill_any(a.tensor(0), [&] { return mean + std * g.normal(); }));
}

Tensors k_uniform_(const ArgReader& a, const KernelContext& kc) {
  const double from = a.f64(1), to = a.f64(2);
  AMPS_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from={} > to={}", from, to);
  Generator& g = kc.ctx.generator();
  return one_tensor(fill_any(a.tensor(0), [&] { return from + (to - from) * g.uniform_double(); }));
}

Tensors k_bernoulli_(const ArgReader& a, const KernelContext& kc) {
  const double p = a.f64(1);
  AMPS_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p={}", p);
  Generator& g = kc.ctx.generator();
  return one_tensor(fill_any(a.tensor(0), [&] { return g.uniform_double() < p ? 1.0 : 0.0; }));
}

// (output, keep-mask): kept elements are scaled by 1/(1-p); p == 1 drops everything.
Tensors dropout_impl(const Tensor& x, double p, bool training, const KernelContext& kc) {
  const double scale = common::dropout_scale(p);
  Tensor mask = Tensor::empty(x.sizes(), DType::bool_, kc.device);
  if (!training || p == 0) {
    fill(mask, Scalar(true));
    return {x, mask};
  }
  common::draw_dropout_mask(mask, p, kc.ctx.generator());
  Tensor out = Tensor::empty(x.sizes(), x.dtype(), kc.device);
  AMPS_DISPATCH_FLOAT(x.dtype(), "dropout", T, [&] {
    Tensor xc = contiguous(x);
    const T* in = xc.data<T>();
    const bool* m = mask.data<bool>();
    T* o = out.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i) o[i] = T(m[i] ? double(in[i]) * scale : 0.0);
  });
  return {out, mask};
}

Tensors k_dropout(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(dropout_impl(a.tensor(0), a.f64(1), a.boolean(2), kc)[0]);
}

Tensors k_native_dropout(const ArgReader& a, const KernelContext& kc) {
  return dropout_impl(a.tensor(0), a.f64(1), a.boolean(2), kc);
}

}  // namespace

void register_random_kernels(KernelTable& t) {
  t.add(OpId::rand, k_rand);
  t.add(OpId::randn, k_randn);
  t.add(OpId::randint, k_randint);
  t.add(OpId::randperm, k_randperm);
  t.add(OpId::multinomial, k_multinomial);
  t.add(OpId::rand_like, k_rand_like, kFloatDTypes);
  t.add(OpId::randn_like, k_randn_like, kFloatDTypes);
  t.add(OpId::normal_, k_normal_, kFloatDTypes);
  t.add(OpId::uniform_, k_uniform_, kFloatDTypes);
  t.add(OpId::bernoulli_, k_bernoulli_);
  t.add(OpId::dropout, k_dropout, kFloatDTypes);
  t.add(OpId::native_dropout, k_native_dropout, kFloatDTypes);
}

}  // namespace amps::rt::cpu
