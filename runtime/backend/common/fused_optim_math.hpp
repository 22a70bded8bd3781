// The per-element arithmetic of the fused optimizer steps (_fused_sgd_, _fused_adam_, _fused_adamw_), shared by
// the CPU loops and the CUDA kernels so both backends compute the same formula. PyTorch's fused kernels
// (ATen/native/cuda/fused_adam_utils.cuh, fused_sgd_kernel.cu): scalars that depend on the step count in
// double, each element in its compute type C (float for half types and float32, double for float64).
// Header-only, no amps includes: nvcc compiles it into the .cu files as well. Math functions are called as ::pow
// and ::sqrt, so amps::rt::pow/sqrt (tensor functions) never hide them.
#pragma once

#include <math.h>

#include "runtime/backend/common/host_device.hpp"

namespace amps::rt::fused {

// _fused_adam_ / _fused_adamw_'s keyword arguments (decoupled: AdamW's weight decay).
struct AdamHyper {
  double lr = 0, beta1 = 0, beta2 = 0, weight_decay = 0, eps = 0;
  bool amsgrad = false, maximize = false, decoupled = false;
};

// _fused_sgd_'s keyword arguments (momentum: whether momentum buffers were passed).
struct SgdHyper {
  double weight_decay = 0, momentum = 0, lr = 0, dampening = 0;
  bool nesterov = false, maximize = false, is_first_step = false, has_momentum = false;
};

// How the weight decay enters: not at all, added to the gradient (Adam, SGD), or applied to the weight (AdamW).
enum class Decay : int { none, l2, decoupled };

template <typename C> AMPS_HD C sqrt_of(C x) {
  if constexpr (sizeof(C) == sizeof(float)) return ::sqrtf(x);
  else return ::sqrt(x);
}

// A gradient element [g] (widened to C) divided by the GradScaler's [grad_scale] as PyTorch's fused kernels do: in
// double, rounded once to C. The step uses this value; the gradient is written back rounded to its own type.
template <typename C> AMPS_HD C unscaled_grad(C g, float grad_scale) { return C(double(g) / double(grad_scale)); }

// The scalars of one Adam step of a parameter whose step count (already incremented) is [step].
template <typename C> struct AdamCoef {
  C beta1, one_minus_beta1, beta2, one_minus_beta2, eps, weight_decay, lr_decay, step_size, bc2_sqrt, sign;
};
template <typename C> AMPS_HD AdamCoef<C> adam_coef(const AdamHyper& h, double step) {
  const double bc1 = 1.0 - ::pow(h.beta1, step), bc2 = 1.0 - ::pow(h.beta2, step);
  return {C(h.beta1), C(1.0 - h.beta1), C(h.beta2), C(1.0 - h.beta2), C(h.eps), C(h.weight_decay),
          C(h.lr * h.weight_decay), C(h.lr / bc1), C(::sqrt(bc2)), C(h.maximize ? -1.0 : 1.0)};
}

// One element of Adam/AdamW: p, m (exp_avg), v (exp_avg_sq) and, with kAmsgrad, vmax (max_exp_avg_sq) are
// updated in place; g is the (unscaled) gradient. std::max's NaN rule for vmax (a NaN v keeps the old max).
template <typename C, Decay kDecay, bool kAmsgrad>
AMPS_HD void adam_element(const AdamCoef<C>& k, C g, C& p, C& m, C& v, C& vmax) {
  g = g * k.sign;
  if constexpr (kDecay == Decay::l2) g = g + p * k.weight_decay;
  if constexpr (kDecay == Decay::decoupled) p = p - k.lr_decay * p;
  m = k.beta1 * m + k.one_minus_beta1 * g;
  v = k.beta2 * v + k.one_minus_beta2 * g * g;
  C second = v;
  if constexpr (kAmsgrad) {
    vmax = vmax < v ? v : vmax;
    second = vmax;
  }
  const C denom = sqrt_of(second) / k.bc2_sqrt + k.eps;
  p = p - k.step_size * m / denom;
}

// The scalars of one step of torch.optim.Adam/AdamW's default (single-tensor) arithmetic at step count [step]: each
// Python number rounded to C as the per-parameter ops round their number operands.
template <typename C> struct AdamOpsCoef {
  C weight_decay, decay_factor, lerp_weight, beta2, one_minus_beta2, bc2_sqrt, eps, neg_step_size;
  bool lerp_from_start, maximize;
};
template <typename C> AMPS_HD AdamOpsCoef<C> adam_ops_coef(const AdamHyper& h, double step) {
  const double bc1 = 1.0 - ::pow(h.beta1, step), bc2 = 1.0 - ::pow(h.beta2, step);
  const C w = C(1.0 - h.beta1);
  return {C(h.weight_decay), C(1.0 - h.lr * h.weight_decay), w, C(h.beta2), C(1.0 - h.beta2), C(::sqrt(bc2)),
          C(h.eps), C(-h.lr / bc1), (double(w) < 0 ? -double(w) : double(w)) < 0.5, h.maximize};
}

// One element of torch.optim.Adam/AdamW's default step, computed as its per-parameter ops compute it (optim.amps'
// Adam._update: neg, add(alpha=weight_decay) or AdamW's mul_, lerp_, mul_, addcmul_, maximum, sqrt, div, add_,
// addcdiv_; the CPU kernels' formulas in runtime/backend/cpu/binary_kernels.cpp), each op's result rounded to C, so
// one pass gives their result bit for bit (with FMA contraction off, as the build sets it).
template <typename C, Decay kDecay, bool kAmsgrad>
AMPS_HD void adam_ops_element(const AdamOpsCoef<C>& k, C g, C& p, C& m, C& v, C& vmax) {
  if (k.maximize) g = -g;
  if constexpr (kDecay == Decay::l2) g = g + k.weight_decay * p;
  if constexpr (kDecay == Decay::decoupled) p = p * k.decay_factor;
  m = k.lerp_from_start ? C(m + k.lerp_weight * (g - m)) : C(g - (g - m) * (C(1) - k.lerp_weight));
  v = v * k.beta2;
  v = v + k.one_minus_beta2 * g * g;
  C second = v;
  if constexpr (kAmsgrad) {
    vmax = (vmax != vmax || vmax > v) ? vmax : v;  // maximum(max_exp_avg_sq, v): NaN propagates
    second = vmax;
  }
  const C denom = sqrt_of(second) / k.bc2_sqrt + k.eps;
  p = p + k.neg_step_size * (m / denom);
}

template <typename C> struct SgdCoef {
  C weight_decay, momentum, one_minus_dampening, lr, sign;
};
template <typename C> AMPS_HD SgdCoef<C> sgd_coef(const SgdHyper& h) {
  return {C(h.weight_decay), C(h.momentum), C(1.0 - h.dampening), C(h.lr), C(h.maximize ? -1.0 : 1.0)};
}

// One element of SGD: p and (with kMomentum) the momentum buffer buf updated in place. The first step with
// momentum starts the buffer at the gradient (kFirst), as torch.optim.SGD.
template <typename C, bool kDecay, bool kMomentum, bool kFirst, bool kNesterov>
AMPS_HD void sgd_element(const SgdCoef<C>& k, C g, C& p, C& buf) {
  g = g * k.sign;
  if constexpr (kDecay) g = g + k.weight_decay * p;
  if constexpr (kMomentum) {
    buf = kFirst ? g : k.momentum * buf + k.one_minus_dampening * g;
    g = kNesterov ? g + k.momentum * buf : buf;
  }
  p = p - k.lr * g;
}

}  // namespace amps::rt::fused
