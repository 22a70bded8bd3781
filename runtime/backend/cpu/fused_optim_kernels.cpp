// CPU kernels of the fused optimizer steps _fused_sgd_, _fused_adam_ and _fused_adamw_ (and _single_tensor_adam_ /
// _single_tensor_adamw_, the default Adam step's arithmetic in the same loops): one pass over each
// parameter and its state (the per-element formula is common/fused_optim_math.hpp, shared with CUDA), large
// parameters split over OpenMP threads. found_inf is read here directly (on the CPU that is not a device sync).
#include <type_traits>

#include "runtime/backend/common/fused_optim_args.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"

namespace amps::rt::cpu {
namespace {

using fused::Decay;
template <bool B> using Bool = std::integral_constant<bool, B>;

// Calls fn(Bool<b>{}) so a runtime flag becomes a template argument.
template <typename F> void with_bool(bool b, F&& fn) {
  if (b) fn(Bool<true>{});
  else fn(Bool<false>{});
}

bool skip_step(const common::FusedLists& t) {
  return t.params.empty() || (t.found_inf.defined() && *t.found_inf.data<float>() != 0.0f);
}

// The row-major tensor a step works on: the original when contiguous, else a copy written back by finish().
// An undefined tensor (a list the step does not use) stays undefined.
class Dense {
 public:
  explicit Dense(const Tensor& t) : orig_(t), work_(!t.defined() || t.is_contiguous() ? t : contiguous(t)) {}
  template <typename T> T* data() const { return work_.defined() ? work_.data<T>() : nullptr; }
  void finish() const {
    if (work_.defined() && !work_.is_same(orig_)) copy_into(orig_, work_);
  }

 private:
  Tensor orig_, work_;
};

// Entry [i] of [list], or an undefined tensor when the list is empty (unused by this step).
Tensor entry(const std::vector<Tensor>& list, size_t i) { return list.empty() ? Tensor() : list[i]; }

// Gradient element [i] in the compute type; kScaled: divided by [grad_scale] (fused::unscaled_grad) and written back
// rounded to T, the step using the unrounded value (as PyTorch's fused kernels). A template flag and a value, so the
// loops that call it have no branch or load of their own to keep them from vectorising.
template <bool kScaled, typename T> compute_t<T> grad_at(T* g, int64_t i, float grad_scale) {
  using C = compute_t<T>;
  if constexpr (!kScaled) return C(g[i]);
  const C unscaled = fused::unscaled_grad(C(g[i]), grad_scale);
  g[i] = T(unscaled);
  return unscaled;
}

// Calls fn(Bool<scaled>{}, scale) with the grad_scale the step divides by (scaled false: none).
template <typename F> void with_grad_scale(const common::FusedLists& t, F&& fn) {
  if (t.grad_scale.defined()) fn(Bool<true>{}, *t.grad_scale.data<float>());
  else fn(Bool<false>{}, 1.0f);
}

// The scalars of an Adam step: the fused kernels' (kOps false) or the default step's per-op arithmetic's.
template <typename C, bool kOps> using AdamCoefOf = std::conditional_t<kOps, fused::AdamOpsCoef<C>, fused::AdamCoef<C>>;

// Elements [b, e) of one Adam step. Plain restrict pointers and coefficients by value, so the loop vectorises
// (run through vectorized()); sqrt and division are IEEE in every build.
template <typename T, Decay kDecay, bool kAms, bool kOps, bool kScaled>
void adam_range(T* __restrict p, T* __restrict g, T* __restrict m, T* __restrict v, T* __restrict vmax, int64_t b,
                int64_t e, const AdamCoefOf<compute_t<T>, kOps> k, float grad_scale) {
  using C = compute_t<T>;
  for (int64_t i = b; i < e; ++i) {
    C pi = C(p[i]), mi = C(m[i]), vi = C(v[i]), xi = kAms ? C(vmax[i]) : C(0);
    const C gi = grad_at<kScaled>(g, i, grad_scale);
    if constexpr (kOps) fused::adam_ops_element<C, kDecay, kAms>(k, gi, pi, mi, vi, xi);
    else fused::adam_element<C, kDecay, kAms>(k, gi, pi, mi, vi, xi);
    p[i] = T(pi);
    m[i] = T(mi);
    v[i] = T(vi);
    if constexpr (kAms) vmax[i] = T(xi);
  }
}

template <typename T, Decay kDecay, bool kAms, bool kOps, bool kScaled>
void adam_tensor(T* p, T* g, T* m, T* v, T* vmax, int64_t n, const AdamCoefOf<compute_t<T>, kOps>& k,
                 float grad_scale) {
  parallel_for(n, kParallelGrain, [&](int64_t b, int64_t e) {
    vectorized([&] { adam_range<T, kDecay, kAms, kOps, kScaled>(p, g, m, v, vmax, b, e, k, grad_scale); });
  });
}

template <typename T, bool kOps> void adam_one(const common::FusedAdamArgs& a, size_t i, Decay decay) {
  const common::FusedLists& t = a.t;
  Dense p(t.params[i]), g(t.grads[i]), m(t.exp_avgs[i]), v(t.exp_avg_sqs[i]);
  Dense x(a.h.amsgrad ? t.max_exp_avg_sqs[i] : Tensor());
  const int64_t n = t.params[i].numel();
  const double step = double(*t.steps[i].data<float>());
  AdamCoefOf<compute_t<T>, kOps> k;
  if constexpr (kOps) k = fused::adam_ops_coef<compute_t<T>>(a.h, step);
  else k = fused::adam_coef<compute_t<T>>(a.h, step);
  with_grad_scale(t, [&](auto scaled, float scale) {
    with_bool(a.h.amsgrad, [&](auto ams) {
      auto run = [&](auto kind) {
        adam_tensor<T, decltype(kind)::value, ams, kOps, scaled>(p.data<T>(), g.data<T>(), m.data<T>(), v.data<T>(),
                                                                 x.data<T>(), n, k, scale);
      };
      if (decay == Decay::none) run(std::integral_constant<Decay, Decay::none>{});
      if (decay == Decay::l2) run(std::integral_constant<Decay, Decay::l2>{});
      if (decay == Decay::decoupled) run(std::integral_constant<Decay, Decay::decoupled>{});
    });
  });
  for (const Dense* d : {&p, &m, &v, &x}) d->finish();
  if (t.grad_scale.defined()) g.finish();
}

// _fused_adam_ / _fused_adamw_ (kOps false) and _single_tensor_adam_ / _single_tensor_adamw_ (kOps true): each
// parameter's step count is read from its state_steps tensor.
template <bool kDecoupled, bool kOps> Tensors k_adam(const ArgReader& a, const KernelContext&) {
  const common::FusedAdamArgs args = common::read_fused_adam(a, kDecoupled);
  if (skip_step(args.t)) return {};
  const Decay decay = args.h.weight_decay == 0 ? Decay::none : kDecoupled ? Decay::decoupled : Decay::l2;
  for (size_t i = 0; i < args.t.params.size(); ++i)
    AMPS_DISPATCH_FLOAT(args.t.params[i].dtype(), op_name(a.op()), T, [&] { adam_one<T, kOps>(args, i, decay); });
  return {};
}

// Elements [b, e) of one SGD step, written to vectorise as adam_range.
template <typename T, bool kDecay, bool kMom, bool kFirst, bool kNesterov, bool kScaled>
void sgd_range(T* __restrict p, T* __restrict g, T* __restrict buf, int64_t b, int64_t e,
               const fused::SgdCoef<compute_t<T>> k, float grad_scale) {
  using C = compute_t<T>;
  for (int64_t i = b; i < e; ++i) {
    C pi = C(p[i]), bi = kMom && !kFirst ? C(buf[i]) : C(0);
    fused::sgd_element<C, kDecay, kMom, kFirst, kNesterov>(k, grad_at<kScaled>(g, i, grad_scale), pi, bi);
    p[i] = T(pi);
    if constexpr (kMom) buf[i] = T(bi);
  }
}

template <typename T, bool kDecay, bool kMom, bool kFirst, bool kNesterov, bool kScaled>
void sgd_tensor(T* p, T* g, T* buf, int64_t n, const fused::SgdCoef<compute_t<T>>& k, float grad_scale) {
  parallel_for(n, kParallelGrain, [&](int64_t b, int64_t e) {
    vectorized([&] { sgd_range<T, kDecay, kMom, kFirst, kNesterov, kScaled>(p, g, buf, b, e, k, grad_scale); });
  });
}

template <typename T> void sgd_one(const common::FusedSgdArgs& a, size_t i) {
  const common::FusedLists& t = a.t;
  Dense p(t.params[i]), g(t.grads[i]), buf(entry(t.exp_avgs, i));
  const int64_t n = t.params[i].numel();
  const auto k = fused::sgd_coef<compute_t<T>>(a.h);
  with_grad_scale(t, [&](auto scaled, float scale) {
    with_bool(a.h.weight_decay != 0, [&](auto decay) {
      with_bool(a.h.has_momentum, [&](auto mom) {
        with_bool(a.h.is_first_step, [&](auto first) {
          with_bool(a.h.nesterov, [&](auto nesterov) {
            sgd_tensor<T, decay, mom, first, nesterov, scaled>(p.data<T>(), g.data<T>(), buf.data<T>(), n, k, scale);
          });
        });
      });
    });
  });
  p.finish();
  buf.finish();
  if (t.grad_scale.defined()) g.finish();
}

Tensors k_fused_sgd(const ArgReader& a, const KernelContext&) {
  const common::FusedSgdArgs args = common::read_fused_sgd(a);
  if (skip_step(args.t)) return {};
  for (size_t i = 0; i < args.t.params.size(); ++i)
    AMPS_DISPATCH_FLOAT(args.t.params[i].dtype(), "_fused_sgd_", T, [&] { sgd_one<T>(args, i); });
  return {};
}

}  // namespace

void register_fused_optim_kernels(KernelTable& t) {
  t.add(OpId::_fused_sgd_, k_fused_sgd, kFloatDTypes);
  t.add(OpId::_fused_adam_, k_adam<false, false>, kFloatDTypes);
  t.add(OpId::_fused_adamw_, k_adam<true, false>, kFloatDTypes);
  t.add(OpId::_single_tensor_adam_, k_adam<false, true>, kFloatDTypes);
  t.add(OpId::_single_tensor_adamw_, k_adam<true, true>, kFloatDTypes);
}

}  // namespace amps::rt::cpu
