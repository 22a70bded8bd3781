// Tensor's dispatched methods (views, conversions, fills): thin calls into dispatch().
#include "runtime/dispatch.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {

using O = OpId;

Tensor Tensor::view(const Dims& size) const { return call_op(O::view, *this, size); }
Tensor Tensor::reshape(const Dims& shape) const { return call_op(O::reshape, *this, shape); }
Tensor Tensor::transpose(int64_t d0, int64_t d1) const { return call_op(O::transpose, *this, d0, d1); }
Tensor Tensor::t() const { return call_op(O::t, *this); }
Tensor Tensor::permute(const Dims& dims) const { return call_op(O::permute, *this, dims); }
Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) const {
  return call_op(O::slice, *this, dim, start, end, step);
}
Tensor Tensor::select(int64_t dim, int64_t index) const { return call_op(O::select, *this, dim, index); }
Tensor Tensor::expand(const Dims& size) const { return call_op(O::expand, *this, size); }
Tensor Tensor::unsqueeze(int64_t dim) const { return call_op(O::unsqueeze, *this, dim); }
Tensor Tensor::squeeze() const { return call_op(O::squeeze, *this); }
Tensor Tensor::squeeze(int64_t dim) const { return call_op(O::squeeze, *this, Dims{dim}); }
Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  return call_op(O::narrow, *this, dim, start, length);
}
Tensor Tensor::flatten(int64_t s, int64_t e) const { return call_op(O::flatten, *this, s, e); }
Tensor Tensor::contiguous() const { return is_contiguous() ? *this : call_op(O::contiguous, *this); }
Tensor Tensor::detach() const { return call_op(O::detach, *this); }
Tensor Tensor::to(DType dtype) const { return call_op(O::to, *this, dtype); }
Tensor Tensor::to(Device device) const { return call_op(O::to, *this, IValue(), device); }
Tensor Tensor::clone() const { return call_op(O::clone, *this); }

Tensor& Tensor::copy_(const Tensor& src) {
  call_op(O::copy_, *this, src);
  return *this;
}

Tensor& Tensor::zero_() {
  call_op(O::zero_, *this);
  return *this;
}

Tensor& Tensor::fill_(Scalar value) {
  call_op(O::fill_, *this, value);
  return *this;
}

}  // namespace amps::rt
