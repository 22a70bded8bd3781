// PyTorch 1.13's deprecated overloads with the scalar before the tensors, still accepted there: x.add_(alpha, other)
// and add(input, alpha, other) (also sub, sub_), x.addcmul_(value, t1, t2) and addcmul(input, value, t1, t2) (also
// addcdiv, addcdiv_). The number moves to its keyword (alpha= / value=) and the call goes on as the current form; the
// first such call warns, once, with PyTorch's UserWarning (old optimizers write `p.data.add_(-lr, d_p)`).
#include <fmt/format.h>

#include <string_view>

#include "interp/builtins.hpp"
#include "interp/warnings.hpp"
#include "interp/diagnostics.hpp"

namespace amps::interp {
namespace {

bool is_number(const Value& v) { return v.is_int() || v.is_float(); }

// PyTorch's text for [name]'s deprecated and current signatures, as a method or as torch.[name].
std::pair<std::string, std::string> signatures(std::string_view name, bool pointwise, bool method) {
  const std::string n(name);
  const char* self = method ? "" : "Tensor input, ";
  const char* out = method ? "" : ", *, Tensor out";
  const char* out_kw = method ? "" : ", Tensor out";
  if (!pointwise)
    return {fmt::format("{}({}Number alpha, Tensor other{})", n, self, out),
            fmt::format("{}({}Tensor other, *, Number alpha{})", n, self, out_kw)};
  return {fmt::format("{}({}Number value, Tensor tensor1, Tensor tensor2{})", n, self, out),
          fmt::format("{}({}Tensor tensor1, Tensor tensor2, *, Number value{})", n, self, out_kw)};
}

}  // namespace

void rewrite_deprecated_overload(Interp& in, std::string_view name, CallArgs& a, bool method) {
  if ((a.pos.size() != 3 && a.pos.size() != 4) || !is_number(a.pos[1])) return;   // the common case, first
  const bool alpha_form = name == "add" || name == "add_" || name == "sub" || name == "sub_";
  const bool pointwise = name == "addcmul" || name == "addcmul_" || name == "addcdiv" || name == "addcdiv_";
  const size_t n = alpha_form ? 3 : 4;
  if ((!alpha_form && !pointwise) || a.pos.size() != n || !is_number(a.pos[1])) return;
  for (size_t i = 2; i < n; ++i)   // add's `other` may be a number too, as PyTorch wraps it
    if (!a.pos[i].is(ObjKind::Tensor) && !(alpha_form && is_number(a.pos[i]))) return;
  a.kw.emplace_back(intern(alpha_form ? "alpha" : "value"), a.pos[1]);
  a.pos.erase(a.pos.begin() + 1);
  static bool warned = false;   // PyTorch warns once per process, for whichever overload comes first
  if (warned) return;
  warned = true;
  const auto [old_form, new_form] = signatures(name, pointwise, method);
  emit_warning(in, "UserWarning", fmt::format("This overload of {} is deprecated:\n\t{}\nConsider using one of the "
                                              "following signatures instead:\n\t{}", name, old_form, new_form), a.span);
}

}  // namespace amps::interp
