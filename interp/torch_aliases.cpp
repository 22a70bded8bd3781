// torch's top-level names for nn.functional's functions (torch.pixel_shuffle, torch.alpha_dropout, torch.celu_,
// ...: the same functions, reached through `nn` on first use; instance_norm and ctc_loss with ATen's argument
// forms), torch.feature_dropout(_), and PyTorch 1.13's handling
// of its retired linear-algebra names: symeig still works (deprecated, warning once), matrix_rank, lstsq, solve and
// eig raise 1.13's removal errors.
#include <fmt/format.h>

#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/warnings.hpp"
#include "interp/diagnostics.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::interp {
namespace {

// nn.functional's [name].
Value functional(Interp& in, const char* name, const Span& where) {
  const Value nn = in.import_module({intern("nn")}, where);
  return in.get_attr(in.get_attr(nn, intern("functional"), where), intern(name), where);
}

// torch.X(...) as nn.functional.Y(...); [inplace] adds inplace=true; PyTorch's top-level dropouts name their flag
// `train` where nn.functional says `training`.
struct Forward {
  const char* name;
  const char* target;
  bool inplace;
};
constexpr Forward kForwards[] = {
    {"pairwise_distance", "pairwise_distance", false}, {"pixel_shuffle", "pixel_shuffle", false},
    {"pixel_unshuffle", "pixel_unshuffle", false},     {"channel_shuffle", "channel_shuffle", false},
    {"celu_", "celu_", false},                         {"selu_", "selu_", false},
    {"rrelu", "rrelu", false},                         {"rrelu_", "rrelu_", false},
    {"threshold_", "threshold_", false},               {"dropout_", "dropout", true},
    {"alpha_dropout", "alpha_dropout", false},         {"alpha_dropout_", "alpha_dropout", true},
    {"feature_alpha_dropout", "feature_alpha_dropout", false},
    {"feature_alpha_dropout_", "feature_alpha_dropout", true}};

Native::Fn forward_to_functional(const Forward& f) {
  return [f](Interp& in, CallArgs& a) {
    CallArgs inner = a;
    for (auto& [k, v] : inner.kw)
      if (*k == "train") k = intern("training");
    if (f.inplace) inner.kw.emplace_back(intern("inplace"), Value(true));
    return in.call(functional(in, f.target, a.span), inner);
  };
}

// torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
// cudnn_enabled): every argument required, in ATen's order; nn.functional.instance_norm with its keywords.
Value b_instance_norm(Interp& in, CallArgs& a) {
  ArgReader r(a, "instance_norm", {"input", "weight", "bias", "running_mean", "running_var", "use_input_stats",
                                   "momentum", "eps", "cudnn_enabled"});
  for (size_t i = 0; i < r.size(); ++i) r.required(i);
  CallArgs inner{{r.get(0)}, {}, a.span};
  const char* names[] = {"weight", "bias", "running_mean", "running_var", "use_input_stats", "momentum", "eps"};
  for (size_t i = 0; i < 7; ++i) inner.kw.emplace_back(intern(names[i]), r.get(i + 1));
  return in.call(functional(in, "instance_norm", a.span), inner);
}

// torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=, zero_infinity=False):
// reduction as ATen's int (0 none, 1 mean, 2 sum); left out it gives the per-sample losses, as PyTorch 1.13's
// binding does.
Value b_ctc_loss(Interp& in, CallArgs& a) {
  ArgReader r(a, "ctc_loss", {"log_probs", "targets", "input_lengths", "target_lengths", "blank", "reduction",
                              "zero_infinity"});
  const int64_t red = r.int_or(5, 0);
  if (red < 0 || red > 2) Interp::fail("ValueError", fmt::format("{} is not a valid value for reduction", red), a.span);
  const char* reductions[] = {"none", "mean", "sum"};
  CallArgs inner{{r.required(0), r.required(1), r.required(2), r.required(3)}, {}, a.span};
  inner.kw.emplace_back(intern("blank"), Value(r.int_or(4, 0)));
  inner.kw.emplace_back(intern("reduction"), make_str(reductions[red]));
  inner.kw.emplace_back(intern("zero_infinity"), Value(r.bool_or(6, false)));
  return in.call(functional(in, "ctc_loss", a.span), inner);
}

// feature_dropout(input, p, train): dropout of whole channels (dims 0 and 1 drawn, the rest shared), kept ones
// scaled by 1 / (1 - p); [inplace] writes the result into input.
Value feature_dropout(Interp&, CallArgs& a, bool inplace) {
  ArgReader r(a, inplace ? "feature_dropout_" : "feature_dropout", {"input", "p", "train"});
  const rt::Tensor* x = tensor_of(r.required(0));
  if (!x) r.type_error(0, "Tensor");
  const double p = r.float_or(1, 0.5);
  if (p < 0 || p > 1)
    Interp::fail("RuntimeError", fmt::format("dropout probability has to be between 0 and 1, but got {}", p), a.span);
  if (!r.bool_or(2, false) || p == 0) return r.get(0);
  return guarded(a.span, [&] {
    AMPS_CHECK(x->dim() >= 2, "Feature dropout requires at least 2 dimensions in the input");
    rt::Dims noise(size_t(x->dim()), 1);
    noise[0] = x->size(0), noise[1] = x->size(1);
    const rt::Tensor keep = rt::ge(rt::rand(noise, rt::DType::float32, x->device()), rt::Scalar(p)).to(x->dtype());
    const rt::Tensor out = p == 1 ? *x * rt::Scalar(0.0) : *x * (keep / rt::Scalar(1.0 - p));
    if (!inplace) return wrap(out);
    rt::dispatch(rt::OpId::copy_, {*x, out});
    return r.get(0);
  });
}

// The removal error of PyTorch 1.13 for a linear-algebra name retired in 1.9; matrix_rank's and lstsq's messages
// are the repr of a tuple there (their RuntimeError was given two arguments), kept as 1.13 prints them.
Native::Fn removed(const char* name, bool tuple_message) {
  return [name, tuple_message](Interp&, CallArgs& a) -> Value {
    const std::string first = "This function was deprecated since version 1.9 and is now removed.";
    const std::string second = fmt::format("Please use the `torch.linalg.{}` function instead.", name);
    Interp::fail("RuntimeError", tuple_message ? fmt::format("('{}', '{}')", first, second) : first + " " + second,
                 a.span);
  };
}

// symeig(input, eigenvectors=False, upper=True): linalg.eigh of the chosen triangle; without eigenvectors the
// second result is an empty tensor. Deprecated in 1.13, which warns once.
Value b_symeig(Interp& in, CallArgs& a) {
  ArgReader r(a, "symeig", {"input", "eigenvectors", "upper"});
  const rt::Tensor* x = tensor_of(r.required(0));
  if (!x) r.type_error(0, "Tensor");
  static bool warned = false;
  if (!warned) {
    warned = true;
    emit_warning(in, "UserWarning", "torch.symeig is deprecated in favor of torch.linalg.eigh and will be removed in a "
                 "future PyTorch release.", a.span);
  }
  const bool vectors = r.bool_or(1, false), upper = r.bool_or(2, true);
  return guarded(a.span, [&] {
    rt::Tensors out = rt::dispatch(rt::OpId::linalg_eigh, {*x, std::string(upper ? "U" : "L")});
    const rt::Tensor v = vectors ? out[1] : rt::Tensor::empty({0}, x->dtype(), x->device());
    static const std::vector<std::string> fields = {"eigenvalues", "eigenvectors"};
    Value result = make_tuple({wrap(out[0]), wrap(v)});
    result.as<Tuple>()->field_names = &fields;
    return result;
  });
}

}  // namespace

void install_torch_aliases(Interp& in) {
  for (const Forward& f : kForwards) in.def_native(f.name, forward_to_functional(f));
  in.def_native("instance_norm", b_instance_norm);
  in.def_native("ctc_loss", b_ctc_loss);
  in.def_native("feature_dropout", [](Interp& i, CallArgs& a) { return feature_dropout(i, a, false); });
  in.def_native("feature_dropout_", [](Interp& i, CallArgs& a) { return feature_dropout(i, a, true); });
  in.def_native("matrix_rank", removed("matrix_rank", true));
  in.def_native("lstsq", removed("lstsq", true));
  in.def_native("solve", removed("solve", false));
  in.def_native("eig", removed("eig", false));
  in.def_native("symeig", b_symeig);
}

// Tensor.lstsq/solve/eig (removed, as the functions) and Tensor.symeig.
void add_retired_linalg_methods(std::unordered_map<Atom, Value>& m) {
  m[intern("lstsq")] = make<Native>("lstsq", removed("lstsq", true));
  m[intern("solve")] = make<Native>("solve", removed("solve", false));
  m[intern("eig")] = make<Native>("eig", removed("eig", false));
  m[intern("symeig")] = make<Native>("symeig", b_symeig);
}

}  // namespace amps::interp
