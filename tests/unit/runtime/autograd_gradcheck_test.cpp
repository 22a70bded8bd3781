// Gradients of every differentiable op of ops.def vs central finite differences (float64 where the CPU
// backend has a float64 kernel, else float32 with wider steps), and second derivatives for the ops a
// gradient penalty differentiates twice. To add an op: add a sample to samples() (autograd_gradcheck_samples.cpp);
// an op without a gradient must be listed in kNotDifferentiable with its reason.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

#include "autograd_gradcheck_samples.hpp"
#include "autograd_test_util.hpp"
#include "runtime/autograd/rules.hpp"
#include "runtime/backend/backend.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/schema.hpp"

namespace amps::rt {
namespace {

using O = OpId;
using test::Rand;

using gradcheck::Sample;
using gradcheck::samples;

// Ops deliberately without a gradient, with the reason (PyTorch records no derivative for them either).
struct Exclusion {
  std::vector<O> ops;
  std::string_view why;
};
const std::vector<Exclusion> kNotDifferentiable = {
    {{O::eq, O::ne, O::lt, O::le, O::gt, O::ge, O::logical_and, O::logical_or, O::logical_not, O::isfinite, O::isnan,
      O::isinf, O::all, O::any, O::isclose},
     "bool output"},
    {{O::argmax, O::argmin, O::argsort, O::one_hot, O::multinomial, O::nonzero, O::argwhere,
      O::_unique2, O::unique_dim, O::unique_consecutive, O::count_nonzero, O::where_condition, O::bincount, O::histc,
      O::linalg_matrix_rank},
     "integer output or counts"},
    {{O::heaviside}, "a step function: PyTorch defines no derivative"},
    {{O::searchsorted, O::bucketize}, "integer output: insertion points"},
    {{O::isin}, "bool output: membership"},
    {{O::tril_indices, O::triu_indices}, "factory: no tensor input"},
    {{O::bernoulli}, "a random draw: its output does not vary smoothly with the probabilities"},
    {{O::floor_divide}, "PyTorch defines no derivative; div(rounding_mode='floor') is the differentiable spelling"},
    {{O::detach}, "cuts the graph by definition"},
    {{O::view_dtype}, "a bit reinterpretation: PyTorch 1.13's view(dtype) is not differentiable"},
    {{O::grid_sampler_2d_backward, O::grid_sampler_3d_backward},
     "PyTorch 1.13 defines no derivative of the grid samplers' backward kernels (no double backward)"},
    {{O::zeros_like, O::ones_like, O::full_like, O::empty_like, O::rand_like, O::randn_like},
     "output independent of the input's values"},
    {{O::zeros, O::ones, O::full, O::empty, O::arange, O::linspace, O::logspace, O::eye, O::rand, O::randn, O::randint, O::randperm},
     "factory: no tensor input"},
    {{O::_amp_foreach_non_finite_check_and_unscale_, O::_amp_update_scale_}, "GradScaler bookkeeping on gradients"},
    {{O::poisson, O::binomial, O::normal_tensor_tensor, O::normal_tensor_float, O::randint_like, O::randint_like_low, O::randint_high},
     "a random draw (PyTorch's derivative is zero; amps records none)"},
    {{O::normal_float_float, O::bartlett_window, O::blackman_window, O::hamming_window, O::hann_window,
      O::kaiser_window, O::scalar_tensor},
     "factory: no tensor input"},
    {{O::heaviside_, O::floor_divide_, O::eq_, O::ne_, O::lt_, O::le_, O::gt_, O::ge_, O::logical_and_,
      O::logical_or_, O::logical_not_, O::logical_xor, O::logical_xor_, O::nextafter, O::nextafter_, O::gcd,
      O::gcd_, O::lcm, O::lcm_, O::bitwise_and, O::bitwise_and_, O::bitwise_or, O::bitwise_or_, O::bitwise_xor,
      O::bitwise_xor_, O::bitwise_not, O::bitwise_not_, O::bitwise_left_shift, O::bitwise_left_shift_,
      O::bitwise_right_shift, O::bitwise_right_shift_, O::signbit, O::isneginf, O::isposinf, O::isreal, O::frexp},
     "bool, integer or bit-pattern results, or PyTorch defines no derivative (in place: refused on input requiring "
     "grad)"},
    {{O::_fused_sgd_, O::_fused_adam_, O::_fused_adamw_, O::_single_tensor_adam_, O::_single_tensor_adamw_},
     "optimizer steps: in-place updates run under no_grad"},
};

// In-place ops reuse the sample of their out-of-place op (minus out=), applied to a clone of input 0.
std::vector<Sample> all_samples() {
  std::vector<Sample> base = samples(), all = base;
  for (int i = 0; i < op_count; ++i) {
    O id = O(i);
    if (!op_has(id, opflag::inplace) || !op_has(id, opflag::diff) || id == O::copy_ || id == O::zero_ || id == O::fill_)
      continue;
    std::string_view n = op_id_name(id);
    auto it = std::find_if(base.begin(), base.end(), [&](const Sample& s) { return op_id_name(s.op) == n.substr(0, n.size() - 1); });
    if (it == base.end()) continue;
    Sample s = *it;
    s.name = std::string(n);
    s.op = id;
    all.push_back(s);
  }
  return all;
}

Tensors run(const Sample& s, Args args) {
  current_context().manual_seed(1234);  // random ops draw the same numbers in every evaluation
  if (op_has(s.op, opflag::inplace)) {
    args[0] = args[0].tensor().clone();
    args.resize(std::min(args.size(), op_parsed_schema(s.op).args.size()));
  }
  return s.fn ? s.fn(args) : dispatch(s.op, args);
}

// The differentiated tensors of [args]: floating tensors (list elements too) not listed as fixed.
Tensors diff_inputs(const Args& args, const std::set<size_t>& fixed) {
  Tensors r;
  for (size_t i = 0; i < args.size(); ++i) {
    if (fixed.count(i)) continue;
    if (args[i].is_tensor() && args[i].tensor().defined() && args[i].tensor().is_floating_point()) r.push_back(args[i].tensor());
    if (args[i].kind() == IValue::Kind::tensor_list)
      for (const Tensor& t : args[i].tensors()) r.push_back(t);
  }
  return r;
}

// Element [flat] (row-major) of a host float tensor, through its strides.
template <typename T> T& element(const Tensor& t, int64_t flat) {
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    off += (flat % t.size(d)) * t.stride(d);
    flat /= t.size(d);
  }
  return t.data<T>()[off];
}

void nudge(const Tensor& t, int64_t i, double by) {
  if (t.dtype() == DType::float64) element<double>(t, i) += by;
  else element<float>(t, i) = float(double(element<float>(t, i)) + by);
}

Args convert(const Args& args, DType dt) {
  Args r = args;
  for (IValue& v : r) {
    if (v.is_tensor() && v.tensor().defined() && v.tensor().is_floating_point()) v = v.tensor().to(dt);
    if (v.kind() == IValue::Kind::tensor_list)
      for (Tensor& t : v.tensors()) t = t.to(dt);
  }
  return r;
}

struct Check {
  double h, atol, rtol;
};

// sum_k <outs_k, weights_k> over the floating outputs.
Tensor contract(const Tensors& outs, const Tensors& weights) {
  Tensor l;
  for (size_t k = 0; k < outs.size(); ++k) {
    if (!weights[k].defined()) continue;
    Tensor term = sum(mul(outs[k], weights[k]));
    l = l.defined() ? add(l, term) : term;
  }
  return l;
}

Tensors weights_for(const Tensors& outs, Rand& r) {
  Tensors w;
  for (const Tensor& o : outs) w.push_back(o.is_floating_point() ? r.uniform(o.sizes(), -1, 1, o.dtype()) : Tensor());
  return w;
}

// Compares [analytic] (undefined = zeros) with central differences of [f] with respect to [inputs].
::testing::AssertionResult matches_fd(const Tensors& inputs, const Tensors& analytic,
                                      const std::function<double()>& f, const Check& c) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<double> a = analytic[i].defined() ? analytic[i].to_doubles() : std::vector<double>(size_t(inputs[i].numel()));
    if (analytic[i].defined() && analytic[i].sizes() != inputs[i].sizes())
      return ::testing::AssertionFailure() << "input " << i << ": gradient has the wrong shape";
    for (int64_t j = 0; j < inputs[i].numel(); ++j) {
      nudge(inputs[i], j, c.h);
      double up = f();
      nudge(inputs[i], j, -2 * c.h);
      double down = f();
      nudge(inputs[i], j, c.h);
      double num = (up - down) / (2 * c.h);
      if (!(std::fabs(num - a[size_t(j)]) <= c.atol + c.rtol * std::fabs(num)))
        return ::testing::AssertionFailure() << "input " << i << " element " << j << ": analytic " << a[size_t(j)]
                                             << " vs numeric " << num;
    }
  }
  return ::testing::AssertionSuccess();
}

class GradCheck : public test::AutogradTest, public ::testing::WithParamInterface<Sample> {
 protected:
  // The sample's arguments in float64, or float32 when the op (or a helper) lacks a float64 kernel;
  // false when the CPU backend has no kernel for the op yet.
  bool prepare(const Sample& s, Rand& r, Check& c, Args& args) {
    args = s.args(r);
    c = {1e-6, 1e-6, 1e-4};
    try {
      GradModeGuard no_grad(false);
      run(s, args);
    } catch (const Error& e) {
      if (e.kind() == "NotImplementedError" && e.message().find("CPU backend") != std::string::npos) return false;
      if (e.message().find("not implemented for 'float64'") == std::string::npos) throw;
      args = convert(args, DType::float32);
      c = {1e-2, 5e-3, 1e-2};
    }
    return true;
  }
};

TEST_P(GradCheck, FirstOrderMatchesFiniteDifferences) {
  const Sample& s = GetParam();
  Rand r(std::hash<std::string>()(s.name));
  Check c;
  Args args;
  if (!prepare(s, r, c, args)) GTEST_SKIP() << "no CPU kernel for " << op_id_name(s.op) << " yet";
  Tensors inputs = diff_inputs(args, s.fixed);
  for (Tensor& t : inputs) t.set_requires_grad(true);
  Tensors outs = run(s, args);
  Tensors w = weights_for(outs, r);
  Tensor loss = contract(outs, w);
  ASSERT_TRUE(loss.requires_grad()) << s.name << " recorded no graph";
  Tensors g = autograd::grad({loss}, inputs, {}, std::nullopt, false, true);
  auto f = [&] {
    GradModeGuard no_grad(false);
    return contract(run(s, args), w).item<double>();
  };
  EXPECT_TRUE(matches_fd(inputs, g, f, c)) << s.name;
}

INSTANTIATE_TEST_SUITE_P(Ops, GradCheck, ::testing::ValuesIn(all_samples()),
                         [](const ::testing::TestParamInfo<Sample>& i) { return i.param.name; });

// Second derivatives (gradgradcheck): d/d(inputs, weights) of <d loss/d inputs, v>.
const std::set<std::string> kSecondOrder = {
    "mm", "linear", "relu", "tanh", "sigmoid", "sum", "mean", "mul", "add", "pow", "pow_scalar", "sqrt", "conv2d",
    "exp", "log", "div", "matmul", "bmm", "addmm", "softmax", "log_softmax", "layer_norm", "layer_norm_backward", "gelu", "silu", "mse_loss",
    "cross_entropy", "expand", "transpose", "select", "slice", "max_pool2d", "avg_pool2d", "norm", "var", "cat",
    "batch_norm", "batch_norm_eval", "batch_norm_backward", "batch_norm_backward_eval", "group_norm", "group_norm_backward", "leaky_relu", "softplus", "index_select", "embedding", "gather", "where", "maximum",
    "tan", "atan2", "asin", "erfinv", "sdpa", "sdpa_causal_gqa", "kl_div", "huber_loss", "cumprod", "cumprod_zeros",
    "scatter", "scatter_add_src_larger", "diagonal", "diag_vector", "elu", "selu", "mish", "logsigmoid", "softsign",
    "normalize", "lstm_cell", "gru_cell", "max_pool3d", "avg_pool3d", "adaptive_max_pool2d", "max_unpool2d",
    // linear algebra rules are compositions of differentiable ops too
    "inverse", "cholesky", "qr", "qr_wide", "svd", "svd_wide", "svd_values", "det", "slogdet", "linalg_solve",
    "linalg_solve_triangular", "linalg_eigh", "linalg_lu", "linalg_lu_factor_ex_wide", "linalg_lu_tall",
    "linalg_lu_solve_adjoint", "linalg_matrix_exp",
    // the adjoints conv2d's and max_pool2d's gradients are made of (a gradient penalty differentiates them)
    "conv_transpose2d", "max_pool2d_with_indices", "max_pool2d_backward", "max_pool2d_backward_overlap", "threshold_backward",
    "gelu_tanh", "gelu_backward", "gelu_backward_tanh",
    // softmax's, log_softmax's and nll_loss's gradient ops (decomposed when differentiated)
    "nll_loss", "nll_loss_2d", "_softmax_backward_data", "_log_softmax_backward_data", "nll_loss_backward",
    "nll_loss_backward_2d",
    "convolution_backward_input", "convolution_backward_input_transposed", "convolution_backward_weight",
    "convolution_backward_weight_grouped", "convolution_backward_weight_transposed"};

std::vector<Sample> second_order_samples() {
  std::vector<Sample> r;
  for (const Sample& s : samples())
    if (kSecondOrder.count(s.name)) r.push_back(s);
  return r;
}

class GradGradCheck : public GradCheck {};

TEST_P(GradGradCheck, SecondOrderMatchesFiniteDifferences) {
  const Sample& s = GetParam();
  Rand r(std::hash<std::string>()(s.name) + 1);
  Check c;
  Args args;
  if (!prepare(s, r, c, args)) GTEST_SKIP() << "no CPU kernel for " << op_id_name(s.op) << " yet";
  if (c.h > 1e-5) c = {1e-2, 2e-2, 2e-2};
  Tensors inputs = diff_inputs(args, s.fixed);
  for (Tensor& t : inputs) t.set_requires_grad(true);
  Tensors w = weights_for(run(s, args), r), vars = inputs;
  for (Tensor& t : w)
    if (t.defined()) vars.push_back(t.set_requires_grad(true));
  Tensors v;
  for (const Tensor& t : inputs) v.push_back(r.uniform(t.sizes(), -1, 1, t.dtype()));
  auto second = [&](bool create) {
    Tensors g = autograd::grad({contract(run(s, args), w)}, inputs, {}, std::nullopt, create, true);
    Tensor l2 = zeros({}, inputs[0].dtype());
    for (size_t i = 0; i < g.size(); ++i)
      if (g[i].defined()) l2 = l2 + sum(g[i] * v[i]);
    return l2;
  };
  Tensor l2 = second(true);
  Tensors gg = l2.requires_grad() ? autograd::grad({l2}, vars, {}, std::nullopt, false, true) : Tensors(vars.size());
  auto f = [&] { return second(false).item<double>(); };
  EXPECT_TRUE(matches_fd(vars, gg, f, c)) << s.name;
}

INSTANTIATE_TEST_SUITE_P(Ops, GradGradCheck, ::testing::ValuesIn(second_order_samples()),
                         [](const ::testing::TestParamInfo<Sample>& i) { return i.param.name; });

// The table walk: every differentiable op has a rule and a gradcheck sample, every other op is listed in
// kNotDifferentiable with a reason (and has no rule), and the internal helper ops have float64 kernels.
TEST(AutogradTable, EveryDifferentiableOpHasARuleAndASample) {
  std::set<O> sampled, excluded;
  for (const Sample& s : all_samples()) sampled.insert(s.op);
  for (const Exclusion& e : kNotDifferentiable)
    for (O id : e.ops) {
      excluded.insert(id);
      EXPECT_FALSE(op_has(id, opflag::diff)) << op_id_name(id) << " is marked diff but listed as not (" << e.why << ")";
      EXPECT_EQ(autograd::rule_for(id), nullptr) << op_id_name(id) << " has a rule but is listed as not differentiable";
    }
  for (int i = 0; i < op_count; ++i) {
    O id = O(i);
    if (!op_has(id, opflag::diff)) {
      EXPECT_TRUE(excluded.count(id)) << op_id_name(id) << " is neither diff nor listed in kNotDifferentiable";
      continue;
    }
    EXPECT_NE(autograd::rule_for(id), nullptr) << op_id_name(id) << " has no gradient rule";
    EXPECT_TRUE(sampled.count(id)) << op_id_name(id) << " has no gradcheck sample";
  }
  for (O id : {O::index_add, O::scatter_add, O::slice_backward, O::select_backward, O::avg_pool2d_backward,
               O::max_pool2d_backward, O::convolution_backward_input, O::convolution_backward_weight, O::gelu_backward,
               O::_softmax_backward_data, O::_log_softmax_backward_data, O::nll_loss_backward,
               O::grid_sampler_2d_backward, O::grid_sampler_3d_backward})
    EXPECT_TRUE(cpu_backend().supports(id, DType::float64)) << op_id_name(id);
}

}  // namespace
}  // namespace amps::rt
