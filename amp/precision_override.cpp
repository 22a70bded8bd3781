// PrecisionOverrideLayer: argument, dtype= and result rewriting for the whole-program precision flag.
#include "amp/precision_override.hpp"

#include <cstdlib>
#include <string_view>

#include "runtime/schema.hpp"

namespace amps::amp {
namespace {

bool is_wide_float(rt::DType d) { return d == rt::DType::float32 || d == rt::DType::float64; }

bool flag_on(const char* value) { return value && std::string_view(value) != "" && std::string_view(value) != "0"; }

}  // namespace

rt::Tensor PrecisionOverrideLayer::lower(const rt::Tensor& t, bool keep_leaf) {
  if (!t.defined() || !is_wide_float(t.dtype()) || t.impl()->is_wrapped_number) return t;
  rt::ExcludeLayerGuard self(this);
  if (!keep_leaf || !t.requires_grad()) {
    rt::Args a{rt::IValue(t), rt::IValue(low_)};
    return rt::dispatch(rt::OpId::to, a)[0];
  }
  rt::Tensor converted;
  {
    rt::GradModeGuard no_grad(false);
    rt::Args a{rt::IValue(t.detach()), rt::IValue(low_)};
    converted = rt::dispatch(rt::OpId::to, a)[0];
  }
  converted.set_requires_grad(true);
  return converted;
}

rt::Tensors PrecisionOverrideLayer::call(rt::OpId op, rt::Args& args, const rt::Next& next) {
  const bool inplace = rt::op_has(op, rt::opflag::inplace);
  for (size_t i = 0; i < args.size(); ++i) {
    rt::IValue& v = args[i];
    if (v.kind() == rt::IValue::Kind::dtype && is_wide_float(v.dtype())) v = rt::IValue(low_);
    if (v.is_tensor() && !(inplace && i == 0)) v = rt::IValue(lower(v.tensor(), false));
    if (v.kind() == rt::IValue::Kind::tensor_list)
      for (rt::Tensor& t : v.tensors()) t = lower(t, false);
  }
  rt::Tensors out = next(op, args);
  if (inplace) return out;
  for (rt::Tensor& t : out) t = lower(t, true);
  return out;
}

std::optional<rt::DType> precision_override_from_env(const char* (*getenv)(const char*)) {
  auto get = [&](const char* name) -> const char* { return getenv ? getenv(name) : std::getenv(name); };
  if (flag_on(get("AMPS_USE_BF16"))) return rt::DType::bfloat16;
  if (flag_on(get("AMPS_USE_F16"))) return rt::DType::float16;
  return std::nullopt;
}

}  // namespace amps::amp
