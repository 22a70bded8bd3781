// get_default_dtype / set_default_dtype / set_default_tensor_type (PyTorch 1.13's): the interpreter's default dtype,
// which factories without dtype=, float literals in tensor(...), float Python numbers in promotion and integer inputs
// of float-only ops follow. It lives in the interpreter's runtime context (embedders run several interpreters, each
// with its own), float32 until a script sets another; nothing restores it (PyTorch's is process-wide state).
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/device.hpp"

namespace amps::interp {

std::pair<rt::DType, bool> parse_type_string(const std::string& s, const Span& where);  // torch_predicates.cpp

namespace {

constexpr const char* kOnlyFloating = "only floating-point types are supported as the default type";

Value b_get_default_dtype(Interp& in, CallArgs& a) {
  if (!a.pos.empty() || !a.kw.empty())
    Interp::fail("TypeError", fmt::format("torch.get_default_dtype() takes no arguments ({} given)",
                                          a.pos.size() + a.kw.size()), a.span);
  return wrap_dtype(in.runtime().default_dtype());
}

// set_default_dtype(d): d a floating dtype object (float16 and bfloat16 too, as 1.13 accepts them); the builtin
// `float` and other values are refused as PyTorch refuses them, integer dtypes with its TypeError.
Value b_set_default_dtype(Interp& in, CallArgs& a) {
  ArgReader r(a, "set_default_dtype", {"d"});
  const Value& d = r.required(0);
  if (!d.is(ObjKind::DType)) Interp::fail("TypeError", fmt::format("invalid dtype object: {}", kOnlyFloating), a.span);
  const rt::DType dt = d.as<DTypeObj>()->dtype;
  if (!rt::is_floating(dt)) Interp::fail("TypeError", kOnlyFloating, a.span);
  in.runtime().set_default_dtype(dt);
  return Value();
}

// set_default_tensor_type(t): t a type string ('torch.DoubleTensor', 'torch.cuda.FloatTensor'): its dtype becomes
// the default dtype and its device the factories' default device (cuda only where a GPU is present).
Value b_set_default_tensor_type(Interp& in, CallArgs& a) {
  ArgReader r(a, "set_default_tensor_type", {"t"});
  const Value& t = r.required(0);
  if (!t.is(ObjKind::Str)) Interp::fail("TypeError", fmt::format("invalid type object: {}", kOnlyFloating), a.span);
  const std::string& name = t.as<Str>()->value;
  const auto [dt, cuda] = parse_type_string(name, a.span);
  if (cuda && !rt::cuda_available())
    Interp::fail("TypeError", fmt::format("type {} not available: this machine has no CUDA device (use a CPU type "
                                          "such as 'torch.FloatTensor', or set_default_dtype)", name), a.span);
  if (!rt::is_floating(dt)) Interp::fail("TypeError", kOnlyFloating, a.span);
  in.runtime().set_default_dtype(dt);
  in.runtime().set_default_device(cuda ? rt::Device::cuda(0) : rt::Device::cpu());
  return Value();
}

}  // namespace

void install_torch_default_dtype(Interp& in) {
  in.def_native("get_default_dtype", b_get_default_dtype);
  in.def_native("set_default_dtype", b_set_default_dtype);
  in.def_native("set_default_tensor_type", b_set_default_tensor_type);
}

}  // namespace amps::interp
