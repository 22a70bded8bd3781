// Argument checks and shapes of the softmax/log_softmax and nll_loss gradient ops (softmax_grad_args.hpp).
#include "runtime/backend/common/softmax_grad_args.hpp"

#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {

SoftmaxGradArgs softmax_grad_args(const ArgReader& a, bool log) {
  const char* name = log ? "_log_softmax_backward_data" : "_softmax_backward_data";
  SoftmaxGradArgs r;
  r.grad = a.tensor(0), r.out = a.tensor(1);
  r.input_dtype = *a.opt_dtype(3);  // required by the schema
  AMPS_CHECK(r.grad.sizes() == r.out.sizes(), "{}: grad_output of shape {} does not match output of shape {}", name,
             format_shape(r.grad.sizes()), format_shape(r.out.sizes()));
  AMPS_CHECK(is_floating(r.out.dtype()) && is_floating(r.input_dtype), "{}: expected floating point output and "
             "input_dtype, got {} and {}", name, dtype_name(r.out.dtype()), dtype_name(r.input_dtype));
  r.scalar = r.out.dim() == 0;
  if (r.scalar) r.grad = native::unsqueeze(r.grad, 0), r.out = native::unsqueeze(r.out, 0);
  r.dim = wrap_dim(a.i64(2), r.out.dim());
  return r;
}

Tensor SoftmaxGradArgs::squeezed(const Tensor& r) const { return scalar ? native::squeeze(r, {0}) : r; }

int64_t SoftmaxGradArgs::outer() const {
  int64_t n = 1;
  for (int64_t d = 0; d < dim; ++d) n *= out.size(d);
  return n;
}

int64_t SoftmaxGradArgs::inner() const {
  int64_t n = 1;
  for (int64_t d = dim + 1; d < out.dim(); ++d) n *= out.size(d);
  return n;
}

NllGradArgs nll_grad_args(const ArgReader& a) {
  NllGradArgs r;
  r.grad = a.tensor(0), r.weight = a.opt_tensor(2), r.input_sizes = a.ints(3);
  r.ignore_index = a.i64(4), r.red = parse_reduction(a.str(5));
  const Dims& s = r.input_sizes;
  AMPS_CHECK(!s.empty(), "nll_loss_backward: input_sizes must have at least one dim");
  AMPS_CHECK(is_floating(r.grad.dtype()), "nll_loss_backward: expected a floating point grad_output, got {}",
             dtype_name(r.grad.dtype()));
  r.target = a.tensor(1);
  AMPS_CHECK(!is_floating(r.target.dtype()), "nll_loss: expected target of class indices (int64), got {}",
             dtype_name(r.target.dtype()));
  r.classes = s.size() == 1 ? s[0] : s[1];
  r.batch = s.size() == 1 ? 1 : s[0];
  for (size_t d = 2; d < s.size(); ++d) r.inner *= s[d];
  AMPS_CHECK(r.target.numel() == r.rows(), "nll_loss_backward: expected {} targets, got {}", r.rows(),
             r.target.numel());
  AMPS_CHECK(!r.weight.defined() || r.weight.numel() == r.classes, "weight tensor should be defined either for all "
             "{} classes or no classes but got weight tensor of shape: {}", r.classes,
             format_shape(r.weight.sizes()));
  const int64_t want = r.red == Reduction::none ? r.rows() : 1;
  AMPS_CHECK(r.grad.numel() == want, "nll_loss_backward: expected a grad_output of {} elements, got {}", want,
             r.grad.numel());
  return r;
}

}  // namespace amps::rt::common
