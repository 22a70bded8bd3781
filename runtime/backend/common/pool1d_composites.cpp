#include "runtime/backend/common/pool1d_composites.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// [input] with a height of 1 before its last dim (PyTorch's 2-D or 3-D input check first).
Tensor with_height(std::string_view op, const Tensor& x) {
  AMPS_CHECK(x.dim() == 2 || x.dim() == 3, "{}() Expected 2D or 3D input tensor, but got {}", op, x.dim());
  return x.unsqueeze(-2);
}

// A 1-D window argument [v] as the 2-D op's [1, v] (first value 1 for kernel, stride and dilation, 0 for padding);
// an empty stride stays empty (the 2-D op then takes the kernel size).
Dims with_unit(const Dims& v, int64_t unit) {
  if (v.empty()) return {};
  return {unit, v[0]};
}

}  // namespace

Tensors max_pool1d_math(Args& args) {
  ArgReader a(O::max_pool1d, args);
  const Tensor x = with_height("max_pool1d", a.tensor(0));
  const Tensor y = call_op(O::max_pool2d, x, with_unit(a.ints(1), 1), with_unit(a.ints(2), 1), with_unit(a.ints(3), 0),
                           with_unit(a.ints(4), 1), a.boolean(5));
  return {y.squeeze(-2)};
}

Tensors avg_pool1d_math(Args& args) {
  ArgReader a(O::avg_pool1d, args);
  const Tensor x = with_height("avg_pool1d", a.tensor(0));
  const Tensor y = call_op(O::avg_pool2d, x, with_unit(a.ints(1), 1), with_unit(a.ints(2), 1), with_unit(a.ints(3), 0),
                           a.boolean(4), a.boolean(5), IValue());
  return {y.squeeze(-2)};
}

Tensors adaptive_avg_pool1d_math(Args& args) {
  ArgReader a(O::adaptive_avg_pool1d, args);
  const Tensor x = with_height("adaptive_avg_pool1d", a.tensor(0));
  return {call_op(O::adaptive_avg_pool2d, x, with_unit(a.ints(1), 1)).squeeze(-2)};
}

}  // namespace amps::rt::common
