// PyTorch's grad_fn names: the table (grad_fn_names.def), the argument-dependent cases, the derivation rule.
#include "runtime/autograd/grad_fn_names.hpp"

#include <array>
#include <cctype>
#include <string>

#include "runtime/op.hpp"

namespace amps::rt::autograd {
namespace {

using O = OpId;

// "log1p" -> "Log1PBackward0", "max_pool2d_with_indices" -> "MaxPool2DWithIndicesBackward0": PyTorch's rule
// (a letter after '_' or after a digit is upper case); `to` records ToCopyBackward0.
std::string derived_name(OpId op) {
  std::string_view base = op_name(op);
  if (base == "to") base = "to_copy";
  std::string n;
  bool upper = true;
  for (char ch : base) {
    if (ch == '_') {
      upper = true;
      continue;
    }
    n += upper ? char(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = std::isdigit(static_cast<unsigned char>(ch)) != 0;
  }
  return n + "Backward0";
}

// Per op: grad_fn_names.def's name, empty where the table has none.
const std::array<std::string_view, size_t(op_count)>& table() {
  static const auto t = [] {
    std::array<std::string_view, size_t(op_count)> a{};
#define AMPS_GRAD_FN(op, name) a[size_t(O::op)] = name;
#include "runtime/autograd/grad_fn_names.def"
#undef AMPS_GRAD_FN
    return a;
  }();
  return t;
}

const std::string& default_name(OpId op) {
  static const auto names = [] {
    std::array<std::string, size_t(op_count)> n;
    for (int i = 0; i < op_count; ++i) n[size_t(i)] = table()[size_t(i)].empty() ? derived_name(OpId(i))
                                                                                  : std::string(table()[size_t(i)]);
    return n;
  }();
  return names[size_t(op)];
}

bool given(const Args& a, size_t i) { return i < a.size() && !a[i].is_none(); }
const Tensor* tensor_at(const Args& a, size_t i) { return i < a.size() && a[i].is_tensor() ? &a[i].tensor() : nullptr; }
// A Python number: passed as one, or already wrapped into a 0-dim tensor.
bool wrapped(const Args& a, size_t i) {
  if (i < a.size() && a[i].is_number()) return true;
  const Tensor* t = tensor_at(a, i);
  return t && t->defined() && t->impl()->is_wrapped_number;
}
int64_t rank(const Args& a, size_t i) { return tensor_at(a, i) ? tensor_at(a, i)->dim() : 0; }

// An int[N] output size of all ones (adaptive pooling to one value per channel: PyTorch takes a mean).
bool all_ones(const Args& a, size_t i) {
  if (i >= a.size()) return false;
  if (a[i].kind() == IValue::Kind::int_) return a[i].i64() == 1;
  if (a[i].kind() != IValue::Kind::int_list) return false;
  for (int64_t s : a[i].ints())
    if (s != 1) return false;
  return true;
}

// torch.matmul by operand ranks: 2-D products are mm/mv/dot, others fold into mm or bmm and an _unsafe_view
// (1-D @ 2-D squeezes the prepended dim; 2-D @ batched transposes a clone).
std::string_view matmul_name(int64_t a, int64_t b) {
  if (a == 1 && b == 1) return "DotBackward0";
  if (a == 2 && b == 1) return "MvBackward0";
  if (a == 2 && b == 2) return "MmBackward0";
  if (a == 1 && b == 2) return "SqueezeBackward3";
  if (a == 2) return "CloneBackward0";
  return "UnsafeViewBackward0";
}

// F.linear: addmm for a 2-D input with bias, else a matmul (plus an add, or a view of a fused addmm when the
// input is contiguous).
std::string_view linear_name(const Args& a) {
  const int64_t r = rank(a, 0);
  const bool bias = tensor_at(a, 2) && tensor_at(a, 2)->defined();
  if (r == 2) return bias ? "AddmmBackward0" : "MmBackward0";
  if (!bias) return matmul_name(r, 2);
  if (r >= 3 && tensor_at(a, 0)->is_contiguous()) return "ViewBackward0";
  return "AddBackward0";
}

std::string_view l1_loss_name(const Args& a) {
  const std::string reduction = a.size() > 2 && a[2].kind() == IValue::Kind::string ? a[2].str() : "mean";
  return reduction == "none" ? "AbsBackward0" : reduction == "sum" ? "SumBackward0" : "MeanBackward0";
}

}  // namespace

std::string_view recorded_node_name(OpId op, const Args& args, const Tensors& outs) {
  switch (op) {
    case O::sum: return given(args, 1) ? "SumBackward1" : "SumBackward0";
    case O::mean: return given(args, 1) ? "MeanBackward1" : "MeanBackward0";
    case O::prod: return given(args, 1) ? "ProdBackward1" : "ProdBackward0";
    case O::squeeze: return given(args, 1) ? "SqueezeBackward1" : "SqueezeBackward0";
    case O::pow: return wrapped(args, 1) ? "PowBackward0" : "PowBackward1";
    case O::scatter:
    case O::scatter_: return wrapped(args, 3) ? "ScatterBackward1" : "ScatterBackward0";
    case O::sub: return wrapped(args, 0) ? "RsubBackward1" : "SubBackward0";
    case O::div: return wrapped(args, 0) && !given(args, 2) ? "MulBackward0" : "DivBackward0";
    case O::reshape:
    case O::flatten: {
      const Tensor* in = tensor_at(args, 0);
      const bool alias = in && !outs.empty() && outs[0].defined() && outs[0].storage() == in->storage();
      return alias ? "ReshapeAliasBackward0" : "UnsafeViewBackward0";
    }
    case O::matmul: return matmul_name(rank(args, 0), rank(args, 1));
    case O::linear: return linear_name(args);
    case O::l1_loss: return l1_loss_name(args);
    case O::adaptive_avg_pool2d: return all_ones(args, 1) ? std::string_view("MeanBackward1") : std::string_view(default_name(op));
    default: return default_name(op);
  }
}

std::string_view composite_node_name(OpId op, const Args& args) {
  switch (op) {
    case O::adaptive_avg_pool3d: return all_ones(args, 1) ? "MeanBackward1" : "AdaptiveAvgPool3DBackward0";
    case O::linalg_norm: return given(args, 1) ? std::string_view() : "LinalgVectorNormBackward0";
    case O::linalg_matrix_norm_str_ord:
    case O::linalg_norm_ord_str: {
      const bool fro = args.size() < 2 || (args[1].kind() == IValue::Kind::string && args[1].str() == "fro");
      return fro ? "LinalgVectorNormBackward0" : std::string_view();
    }
    default: return table()[size_t(op)];
  }
}

}  // namespace amps::rt::autograd
