// PrecisionOverrideLayer: AMPS_USE_BF16=1 / AMPS_USE_F16=1, every float32/float64 tensor in one low dtype.
#pragma once

#include <optional>

#include "runtime/dispatch.hpp"

namespace amps::amp {

// The whole-program precision flag, like XLA_USE_BF16 (xla_xpu_apex.md §1.4: float32 AND float64
// become the low dtype). Installed at layer_order::precision_override, between autocast and autograd:
//  - float32/float64 tensor arguments are cast to the low dtype before the op (except the tensor an
//    in-place op mutates), by dispatching `to` below this layer, so autograd records the casts and
//    gradients still reach float32 parameters;
//  - dtype=float32/float64 arguments (factories, `x.to(float32)`, sum(dtype=)) become the low dtype;
//  - float32/float64 results (factories with a default dtype) are converted; a leaf that requires grad
//    stays a leaf (converted without history, requires_grad kept).
// So autocast's fp32 casts become low-precision too: the flag overrides per-op precision, as on TPUs.
// Tensors made from literals (`tensor([1.0])`) do not dispatch and stay float32 until their first op.
class PrecisionOverrideLayer : public rt::DispatchLayer {
 public:
  explicit PrecisionOverrideLayer(rt::DType low) : low_(low) {}
  std::string_view name() const override { return "precision_override"; }
  rt::Tensors call(rt::OpId op, rt::Args& args, const rt::Next& next) override;
  rt::DType dtype() const { return low_; }

 private:
  rt::Tensor lower(const rt::Tensor& t, bool keep_leaf);
  rt::DType low_;
};

namespace layer_order_amp {
inline constexpr int precision_override = 150;  // after autocast (100), before autograd (200)
}

// The dtype AMPS_USE_BF16=1 (bfloat16) or AMPS_USE_F16=1 (float16) asks for; nullopt when neither.
// [getenv] is injectable for tests.
std::optional<rt::DType> precision_override_from_env(const char* (*getenv)(const char*) = nullptr);

}  // namespace amps::amp
