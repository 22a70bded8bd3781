// `Tensor`, torch.Tensor's name in scripts: what `isinstance(x, Tensor)` tests against (a tensor's type name), and
// PyTorch's legacy constructor: `Tensor(2, 3)` a float32 tensor of that shape (zeros: the legacy constructor's
// memory is uninitialised, so any content is PyTorch's), `Tensor([1, 2])` float32 from data, `Tensor()` empty,
// `Tensor(t)` an alias of t.
#include <fmt/format.h>

#include "interp/builtins.hpp"

namespace amps::interp {
namespace {

Value call_builtin(Interp& in, const char* name, CallArgs args) { return in.call(in.lookup_builtin(name), args); }

Value b_tensor_type(Interp& in, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", fmt::format("Tensor() got an unexpected keyword argument '{}' (write "
                                                           "tensor(data, dtype=...) or zeros(*size, ...))", *a.kw[0].first), a.span);
  CallArgs out;
  out.span = a.span;
  if (a.pos.empty()) {
    out.pos.push_back(Value(int64_t(0)));
    return call_builtin(in, "zeros", std::move(out));
  }
  const Value& first = a.pos[0];
  if (first.is_int() && !first.is_bool()) {   // sizes
    for (auto& v : a.pos) {
      if (!v.is_int() || v.is_bool()) Interp::fail("TypeError", "Tensor(): sizes must be ints, not " + type_name(v), a.span);
      out.pos.push_back(v);
    }
    return call_builtin(in, "zeros", std::move(out));
  }
  if (a.pos.size() != 1) Interp::fail("TypeError", "Tensor() takes sizes (ints) or one sequence of data", a.span);
  if (first.is(ObjKind::Tensor))   // an alias sharing its data (any dtype), as PyTorch 1.13's Tensor(t)
    return in.call(in.get_attr(first, intern("view_as"), a.span), std::vector<Value>{first});
  out.pos.push_back(first);
  out.kw.emplace_back(intern("dtype"), in.lookup_builtin("float32"));
  return call_builtin(in, "tensor", std::move(out));
}

}  // namespace

void install_tensor_type(Interp& in) { def_type(in, "Tensor", b_tensor_type); }

}  // namespace amps::interp
