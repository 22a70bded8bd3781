// Device-independent copy, fill and factory kernels (see copy_kernels.hpp): argument reading and checks.
#include "runtime/backend/common/copy_kernels.hpp"

#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {

Tensor finish_factory(const ArgReader& a, size_t i, Tensor t) {
  if (a.boolean(i)) t.set_requires_grad(true);
  return t;
}

Tensor filled_factory(const ArgReader& a, size_t i, Tensor t, std::optional<Scalar> value, FillFn fill) {
  if (value) fill(t, *value);
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
  Tensor t = Tensor::empty(a.ints(0), a.opt_dtype(1).value_or(DType::float32), kc.device);
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
