// Tests for the fused optimizer steps (_fused_adam_, _fused_adamw_, _fused_sgd_) on the CPU backend: several
// steps against a float64 reference of torch.optim's single-tensor Adam/AdamW/SGD (state rounded to the
// dtype after each step, as the kernels store it), every float dtype, a parameter large enough to be split
// over threads, found_inf skipping, grad_scale unscaling, strided parameters and the argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "runtime/backend/common/fused_optim_math.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::all_close;
using test::make;
using test::throws_error;
using test::wavy;

constexpr DType kDTypes[] = {DType::float64, DType::float32, DType::float16, DType::bfloat16};
// 37: a vector tail; 70000: above the CPU's parallel grain, so the threaded path runs too.
constexpr int64_t kSizes[] = {37, 70000};

std::vector<double> rounded(const std::vector<double>& v, DType dt) {
  return make(v, {int64_t(v.size())}, dt).to_doubles();
}

// Relative tolerance of one to two roundings in [dt] (the kernels compute half types in float); the absolute
// tolerances below scale it by each quantity's typical size (gradients are about 1, m 0.1, v 0.001), since m
// and v are sums whose terms are larger than the result.
double tol(DType dt) {
  switch (dt) {
    case DType::float64: return 1e-12;
    case DType::float32: return 2e-6;
    case DType::float16: return 2e-3;
    default: return 1.6e-2;
  }
}

struct Param {
  std::vector<double> p, m, v, vmax;
};

// One step of torch.optim.Adam/AdamW (single-tensor form) in float64, state rounded to [dt] afterwards.
void adam_reference(Param& r, const std::vector<double>& g, const fused::AdamHyper& h, double step, DType dt) {
  const double bc1 = 1 - std::pow(h.beta1, step), bc2 = 1 - std::pow(h.beta2, step);
  for (size_t i = 0; i < r.p.size(); ++i) {
    double gi = h.maximize ? -g[i] : g[i];
    if (h.weight_decay != 0) {
      if (h.decoupled) r.p[i] *= 1 - h.lr * h.weight_decay;
      else gi += h.weight_decay * r.p[i];
    }
    r.m[i] = h.beta1 * r.m[i] + (1 - h.beta1) * gi;
    r.v[i] = h.beta2 * r.v[i] + (1 - h.beta2) * gi * gi;
    double second = r.v[i];
    if (h.amsgrad) second = r.vmax[i] = std::max(r.vmax[i], r.v[i]);
    r.p[i] -= h.lr / bc1 * r.m[i] / (std::sqrt(second) / std::sqrt(bc2) + h.eps);
  }
  for (auto* v : {&r.p, &r.m, &r.v, &r.vmax}) *v = rounded(*v, dt);
}

Tensor scalar_f32(double v) { return make({v}, {}, DType::float32); }

Args adam_args(const std::vector<Tensor>& p, const std::vector<Tensor>& g, const std::vector<Tensor>& m,
               const std::vector<Tensor>& v, const std::vector<Tensor>& vmax, const std::vector<Tensor>& steps,
               const fused::AdamHyper& h, Tensor grad_scale = {}, Tensor found_inf = {}) {
  return {IValue(p), IValue(g), IValue(m), IValue(v), IValue(vmax), IValue(steps), IValue(h.lr), IValue(h.beta1),
          IValue(h.beta2), IValue(h.weight_decay), IValue(h.eps), IValue(h.amsgrad), IValue(h.maximize),
          grad_scale.defined() ? IValue(grad_scale) : IValue(), found_inf.defined() ? IValue(found_inf) : IValue()};
}

OpId adam_op(const fused::AdamHyper& h) { return h.decoupled ? OpId::_fused_adamw_ : OpId::_fused_adam_; }

// Three steps of one configuration on two parameters of [dt], compared with the reference after each step.
void check_adam(const fused::AdamHyper& h, DType dt) {
  std::vector<Param> ref;
  std::vector<Tensor> p, m, v, vmax, steps;
  for (int64_t n : kSizes) {
    ref.push_back({rounded(wavy(n, 0.3), dt), std::vector<double>(size_t(n)), std::vector<double>(size_t(n)),
                   std::vector<double>(size_t(n))});
    p.push_back(make(ref.back().p, {n}, dt));
    for (auto* list : {&m, &v, &vmax}) list->push_back(zeros({n}, dt));
    steps.push_back(scalar_f32(0));
  }
  for (int step = 1; step <= 3; ++step) {
    std::vector<Tensor> g;
    for (size_t k = 0; k < p.size(); ++k) {
      const std::vector<double> gv = rounded(wavy(kSizes[k], 1.1 * step + double(k)), dt);
      g.push_back(make(gv, {kSizes[k]}, dt));
      adam_reference(ref[k], gv, h, step, dt);
      add_(steps[k], scalar_f32(1));
    }
    dispatch(adam_op(h), adam_args(p, g, m, v, h.amsgrad ? vmax : std::vector<Tensor>{}, steps, h));
    for (size_t k = 0; k < p.size(); ++k) {
      SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " param " << k << " step " << step);
      EXPECT_TRUE(all_close(p[k], ref[k].p, tol(dt), tol(dt)));
      EXPECT_TRUE(all_close(m[k], ref[k].m, tol(dt) * 0.1, tol(dt)));
      EXPECT_TRUE(all_close(v[k], ref[k].v, tol(dt) * 1e-3, tol(dt)));
      if (h.amsgrad) {
        EXPECT_TRUE(all_close(vmax[k], ref[k].vmax, tol(dt) * 1e-3, tol(dt)));
      }
    }
  }
}

TEST(FusedAdam, MatchesTorchOptimAdamInEveryDtype) {
  for (DType dt : kDTypes) {
    check_adam({1e-2, 0.9, 0.999, 0.0, 1e-8, false, false, false}, dt);
    check_adam({1e-2, 0.8, 0.99, 0.1, 1e-6, true, true, false}, dt);  // L2 decay, amsgrad, maximize
  }
}

TEST(FusedAdam, AdamWDecaysTheWeightsDirectly) {
  for (DType dt : kDTypes) {
    check_adam({1e-2, 0.9, 0.999, 0.05, 1e-8, false, false, true}, dt);
    check_adam({3e-2, 0.9, 0.95, 0.1, 1e-8, true, false, true}, dt);
  }
}

struct SgdCase {
  double weight_decay, momentum, dampening;
  bool nesterov, maximize;
};

// Three steps of SGD (momentum buffer started at the gradient on the first) against torch.optim.SGD's rule.
void check_sgd(const SgdCase& c, DType dt) {
  const double lr = 0.05;
  const int64_t n = kSizes[1];
  std::vector<double> p = rounded(wavy(n, 0.2), dt), buf(size_t(n), 0.0);
  Tensor pt = make(p, {n}, dt), bt = zeros({n}, dt);
  for (int step = 1; step <= 3; ++step) {
    const std::vector<double> g = rounded(wavy(n, 0.7 * step), dt);
    for (size_t i = 0; i < p.size(); ++i) {
      double d = c.maximize ? -g[i] : g[i];
      d += c.weight_decay * p[i];
      if (c.momentum != 0) {
        buf[i] = step == 1 ? d : c.momentum * buf[i] + (1 - c.dampening) * d;
        d = c.nesterov ? d + c.momentum * buf[i] : buf[i];
      }
      p[i] -= lr * d;
    }
    p = rounded(p, dt);
    buf = rounded(buf, dt);
    std::vector<Tensor> bufs = c.momentum != 0 ? std::vector<Tensor>{bt} : std::vector<Tensor>{};
    dispatch(OpId::_fused_sgd_, {IValue(std::vector<Tensor>{pt}), IValue(std::vector<Tensor>{make(g, {n}, dt)}),
                                 IValue(bufs), IValue(c.weight_decay), IValue(c.momentum), IValue(lr),
                                 IValue(c.dampening), IValue(c.nesterov), IValue(c.maximize), IValue(step == 1)});
    SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " step " << step);
    EXPECT_TRUE(all_close(pt, p, tol(dt), tol(dt)));
    if (c.momentum != 0) {
      EXPECT_TRUE(all_close(bt, buf, tol(dt), tol(dt)));
    }
  }
}

TEST(FusedSgd, MatchesTorchOptimSgdInEveryDtype) {
  for (DType dt : kDTypes) {
    check_sgd({0, 0, 0, false, false}, dt);
    check_sgd({1e-2, 0.9, 0.1, false, true}, dt);
    check_sgd({5e-3, 0.9, 0, true, false}, dt);
  }
}

TEST(FusedOptim, FoundInfLeavesEverythingUnchanged) {
  fused::AdamHyper h{0.1, 0.9, 0.999, 0.01, 1e-8, true, false, true};
  Tensor p = make({1, 2, 3}, {3}), g = make({0.5, -1, 2}, {3}), m = make({0.125, 0.25, 0.375}, {3});
  Tensor v = make({0.5, 0.75, 1.5}, {3}), x = make({2, 2, 2}, {3}), s = scalar_f32(4);
  dispatch(OpId::_fused_adamw_, adam_args({p}, {g}, {m}, {v}, {x}, {s}, h, scalar_f32(8), scalar_f32(1)));
  EXPECT_TRUE(all_close(p, {1, 2, 3}, 0, 0));
  EXPECT_TRUE(all_close(g, {0.5, -1, 2}, 0, 0));  // not unscaled either
  EXPECT_TRUE(all_close(m, {0.125, 0.25, 0.375}, 0, 0));
  EXPECT_TRUE(all_close(v, {0.5, 0.75, 1.5}, 0, 0));
  EXPECT_TRUE(all_close(x, {2, 2, 2}, 0, 0));
  EXPECT_TRUE(all_close(s, {4}, 0, 0));
  Tensor b = make({7, 7, 7}, {3});
  dispatch(OpId::_fused_sgd_, {IValue(std::vector<Tensor>{p}), IValue(std::vector<Tensor>{g}),
                               IValue(std::vector<Tensor>{b}), IValue(0.0), IValue(0.9), IValue(0.1), IValue(0.0),
                               IValue(false), IValue(false), IValue(false), IValue(), IValue(scalar_f32(2))});
  EXPECT_TRUE(all_close(p, {1, 2, 3}, 0, 0));
  EXPECT_TRUE(all_close(b, {7, 7, 7}, 0, 0));
}

TEST(FusedOptim, GradScaleDividesTheGradientsAndWritesThemBack) {
  Tensor p = make({1, 2, 3}, {3}), g = make({4, -8, 12}, {3});
  dispatch(OpId::_fused_sgd_, {IValue(std::vector<Tensor>{p}), IValue(std::vector<Tensor>{g}),
                               IValue(std::vector<Tensor>{}), IValue(0.0), IValue(0.0), IValue(0.5), IValue(0.0),
                               IValue(false), IValue(false), IValue(false), IValue(scalar_f32(4)),
                               IValue(scalar_f32(0))});
  EXPECT_TRUE(all_close(g, {1, -2, 3}, 0, 0));
  EXPECT_TRUE(all_close(p, {0.5, 3, 1.5}, 0, 0));
}

// As PyTorch's fused kernels: the step uses g / grad_scale unrounded (computed in double, rounded to float), the
// gradient is written back rounded to float16. 1 - 1/3 in float is 0.66666...: float16 0.6665; with the gradient
// first rounded to float16 (0.33325) it would be 0.667.
TEST(FusedOptim, GradScaleStepUsesTheUnroundedGradient) {
  Tensor p = make({1}, {1}, DType::float16), g = make({1}, {1}, DType::float16);
  dispatch(OpId::_fused_sgd_, {IValue(std::vector<Tensor>{p}), IValue(std::vector<Tensor>{g}),
                               IValue(std::vector<Tensor>{}), IValue(0.0), IValue(0.0), IValue(1.0), IValue(0.0),
                               IValue(false), IValue(false), IValue(false), IValue(scalar_f32(3)), IValue()});
  EXPECT_EQ(g.item<double>(), double(Half(1.0f / 3.0f)));
  EXPECT_EQ(p.item<double>(), double(Half(1.0f - float(1.0 / 3.0))));
  EXPECT_NE(p.item<double>(), double(Half(1.0f - float(Half(1.0f / 3.0f)))));
}

TEST(FusedOptim, StridedParameterIsUpdatedInItsOwnStorage) {
  Tensor base = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor p = base.t();  // [3, 2], not contiguous
  Tensor g = make({1, 1, 1, 1, 1, 1}, {3, 2}), buf = zeros({3, 2}).t().contiguous();
  Tensor bt = zeros({2, 3}).t();  // a strided momentum buffer as well
  dispatch(OpId::_fused_sgd_, {IValue(std::vector<Tensor>{p}), IValue(std::vector<Tensor>{g}),
                               IValue(std::vector<Tensor>{bt}), IValue(0.0), IValue(0.5), IValue(0.25), IValue(0.0),
                               IValue(false), IValue(false), IValue(true)});
  EXPECT_TRUE(all_close(base, {0.75, 1.75, 2.75, 3.75, 4.75, 5.75}, 0, 0));
  EXPECT_TRUE(all_close(bt, {1, 1, 1, 1, 1, 1}, 0, 0));
}

TEST(FusedOptim, MixedDTypesInOneList) {
  fused::AdamHyper h{0.1, 0.9, 0.999, 0.0, 1e-8, false, false, false};
  Tensor a = make({1, -1}, {2}), b = make({1, -1}, {2}, DType::bfloat16);
  Tensor ga = make({1, -1}, {2}), gb = make({1, -1}, {2}, DType::bfloat16);
  dispatch(OpId::_fused_adam_, adam_args({a, b}, {ga, gb}, {zeros({2}), zeros({2}, DType::bfloat16)},
                                         {zeros({2}), zeros({2}, DType::bfloat16)}, {}, {scalar_f32(1), scalar_f32(1)}, h));
  EXPECT_TRUE(all_close(a, {0.9, -0.9}, 1e-6, 0));  // the first Adam step moves every element by lr
  EXPECT_TRUE(all_close(b, {0.9, -0.9}, 4e-3, 0));
}

TEST(FusedOptim, ArgumentErrorsNameTheList) {
  fused::AdamHyper h{0.1, 0.9, 0.999, 0.0, 1e-8, false, false, false};
  Tensor p = make({1, 2}, {2}), g = make({1, 2}, {2}), z = zeros({2}), s = scalar_f32(1);
  EXPECT_TRUE(throws_error([&] { dispatch(OpId::_fused_adam_, adam_args({p}, {g, g}, {z}, {z}, {}, {s}, h)); },
                           "RuntimeError", "Tensor lists must have the same number of tensors, got 1 params and 2 grads"));
  EXPECT_TRUE(throws_error([&] { dispatch(OpId::_fused_adam_, adam_args({p}, {g}, {zeros({3})}, {z}, {}, {s}, h)); },
                           "RuntimeError", "exp_avgs[0] has shape [3] but its parameter has shape [2]"));
  EXPECT_TRUE(throws_error(
      [&] { dispatch(OpId::_fused_adam_, adam_args({p}, {g}, {z}, {zeros({2}, DType::float64)}, {}, {s}, h)); },
      "RuntimeError", "exp_avg_sqs[0] is float64 on cpu but its parameter is float32"));
  EXPECT_TRUE(throws_error([&] { dispatch(OpId::_fused_adam_, adam_args({p}, {g}, {z}, {z}, {}, {make({1}, {}, DType::float64)}, h)); },
                           "RuntimeError", "state_steps[0] must be a 1-element float32 tensor"));
  fused::AdamHyper ams = h;
  ams.amsgrad = true;
  EXPECT_TRUE(throws_error([&] { dispatch(OpId::_fused_adam_, adam_args({p}, {g}, {z}, {z}, {}, {s}, ams)); },
                           "RuntimeError", "got 1 params and 0 max_exp_avg_sqs"));
  EXPECT_TRUE(throws_error([&] { dispatch(OpId::_fused_adam_, adam_args({p}, {g}, {z}, {z}, {}, {s}, h, make({1, 1}, {2}))); },
                           "RuntimeError", "grad_scale must be a 1-element float32 tensor"));
}

TEST(FusedOptim, LeafRequiringGradIsRefusedInGradMode) {
  Context ctx;
  ContextGuard guard(ctx);
  autograd::install(ctx);
  fused::AdamHyper h{0.1, 0.9, 0.999, 0.0, 1e-8, false, false, false};
  Tensor p = make({1, 2}, {2});
  p.set_requires_grad(true);
  EXPECT_TRUE(throws_error(
      [&] { dispatch(OpId::_fused_adam_, adam_args({p}, {make({1, 2}, {2})}, {zeros({2})}, {zeros({2})}, {}, {scalar_f32(1)}, h)); },
      "RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation."));
}

}  // namespace
}  // namespace amps::rt
