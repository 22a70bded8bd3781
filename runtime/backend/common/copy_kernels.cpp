// Device-independent copy, fill and factory kernels (see copy_kernels.hpp): argument reading and checks.
#include "runtime/backend/common/copy_kernels.hpp"

#include <cmath>
#include <limits>

#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {

// PyTorch's checked_convert: a finite value beyond [dt]'s range (or NaN for an integer dtype) is an error, infinities
// go into floating dtypes as they are, fractions are truncated into integers. An integer into uint8 may be as low as
// -255 (it wraps: -1 is 255), as PyTorch's overflows<uint8_t> allows; a float may not.
void check_fill_value(Scalar v, DType dt) {
  if (v.is_bool() || dt == DType::bool_) return;
  double lo = 0, hi = 0;
  switch (dt) {
    case DType::float16: lo = -65504.0, hi = 65504.0; break;
    case DType::bfloat16: lo = -3.3895313892515355e38, hi = 3.3895313892515355e38; break;
    case DType::float32: lo = -double(std::numeric_limits<float>::max()), hi = double(std::numeric_limits<float>::max()); break;
    case DType::int32: lo = double(INT32_MIN), hi = double(INT32_MAX); break;
    case DType::int16: lo = double(INT16_MIN), hi = double(INT16_MAX); break;
    case DType::int8: lo = double(INT8_MIN), hi = double(INT8_MAX); break;
    case DType::uint8: lo = v.is_integral() ? -255.0 : 0.0, hi = 255.0; break;
    case DType::int64:
      if (v.is_integral()) return;
      lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
    default: return;  // float64 holds every double
  }
  const double d = v.to_double();
  const bool fits = is_floating(dt) ? (std::isinf(d) || d != d || (d >= lo && d <= hi))
                                    : (d == d && d >= lo && (dt == DType::int64 ? d < hi : d <= hi));
  AMPS_CHECK(fits, "value cannot be converted to type {} without overflow", dtype_name(dt));
}

Tensor finish_factory(const ArgReader& a, size_t i, Tensor t) {
  if (a.boolean(i)) t.set_requires_grad(true);
  return t;
}

Tensor filled_factory(const ArgReader& a, size_t i, Tensor t, std::optional<Scalar> value, FillFn fill) {
  if (value) {
    check_fill_value(*value, t.dtype());
    fill(t, *value);
  }
  return finish_factory(a, i, std::move(t));
}

Tensor copy_(const ArgReader& a, CopyFn copy) {
  Tensor self = a.tensor(0), src = a.tensor(1);
  Dims b = broadcast_shapes(src.sizes(), self.sizes(), "copy_");
  AMPS_CHECK(b == self.sizes(), "copy_: output with shape {} doesn't match the broadcast shape {}",
             format_shape(self.sizes()), format_shape(b));
  copy(self, src);
  return self;
}

Tensor to(const ArgReader& a, CopyFn copy) {
  Tensor self = a.tensor(0);
  DType dt = a.opt_dtype(1).value_or(self.dtype());
  Device dev = a.opt_device(2).value_or(self.device());
  if (dt == self.dtype() && dev == self.device() && !a.boolean(4)) return self;
  Tensor out = Tensor::empty(self.sizes(), dt, dev);
  copy(out, self);
  return out;
}

Tensor clone(const ArgReader& a, CopyFn copy) {
  Tensor self = a.tensor(0);
  Tensor out = Tensor::empty(self.sizes(), self.dtype(), self.device());
  copy(out, self);
  return out;
}

Tensor sized(const ArgReader& a, const KernelContext& kc, std::optional<Scalar> value, FillFn fill) {
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(1).value_or(default_dtype()), kc.device);
  return filled_factory(a, 3, t, value, fill);
}

Tensor full(const ArgReader& a, const KernelContext& kc, FillFn fill) {
  Scalar v = a.scalar(1);
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(2).value_or(v.default_dtype()), kc.device);
  return filled_factory(a, 4, t, v, fill);
}

Tensor like(const ArgReader& a, size_t first_kw, Device device, std::optional<Scalar> value, FillFn fill) {
  Tensor self = a.tensor(0);
  Tensor t = Tensor::empty(self.sizes(), a.opt_dtype(first_kw).value_or(self.dtype()), device);
  return filled_factory(a, first_kw + 2, t, value, fill);
}

}  // namespace amps::rt::common
