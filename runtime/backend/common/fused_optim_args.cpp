// Argument checks of the fused optimizer steps (see fused_optim_args.hpp).
#include "runtime/backend/common/fused_optim_args.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "runtime/error.hpp"

namespace amps::rt::common {
namespace {

void check_like_params(std::string_view op, std::string_view name, const std::vector<Tensor>& list,
                       const std::vector<Tensor>& params) {
  AMPS_CHECK(list.size() == params.size(), "{}: Tensor lists must have the same number of tensors, got {} params "
             "and {} {}", op, params.size(), list.size(), name);
  for (size_t i = 0; i < list.size(); ++i) {
    const Tensor& t = list[i];
    const Tensor& p = params[i];
    AMPS_CHECK(t.sizes() == p.sizes(), "{}: {}[{}] has shape [{}] but its parameter has shape [{}]", op, name, i,
               fmt::join(t.sizes(), ", "), fmt::join(p.sizes(), ", "));
    AMPS_CHECK(t.dtype() == p.dtype() && t.device() == p.device(), "{}: {}[{}] is {} on {} but its parameter is {} "
               "on {}; each must match its parameter's dtype and device", op, name, i, dtype_name(t.dtype()),
               device_str(t.device()), dtype_name(p.dtype()), device_str(p.device()));
  }
}

void check_scalar_flag(std::string_view op, std::string_view name, const Tensor& t, Device device) {
  if (!t.defined()) return;
  AMPS_CHECK(t.numel() == 1 && t.dtype() == DType::float32, "{}: {} must be a 1-element float32 tensor", op, name);
  AMPS_CHECK(t.device() == device, "{}: {} is on {} but the parameters are on {}", op, name, device_str(t.device()),
             device_str(device));
}

// The lists every fused step has: params (floating, one device), grads like them, the step flags.
FusedLists read_common(const ArgReader& a, size_t grad_scale_index) {
  const std::string_view op = op_name(a.op());
  FusedLists t;
  t.params = a.tensors(0);
  t.grads = a.tensors(1);
  check_like_params(op, "grads", t.grads, t.params);
  for (const Tensor& p : t.params) {
    AMPS_CHECK(is_floating(p.dtype()), "{}: parameters must be floating point, got {}", op, dtype_name(p.dtype()));
    AMPS_CHECK(p.device() == t.params[0].device(), "{}: all parameters must be on one device, got {} and {}", op,
               device_str(t.params[0].device()), device_str(p.device()));
  }
  t.grad_scale = a.opt_tensor(grad_scale_index);
  t.found_inf = a.opt_tensor(grad_scale_index + 1);
  if (!t.params.empty()) {
    check_scalar_flag(op, "grad_scale", t.grad_scale, t.params[0].device());
    check_scalar_flag(op, "found_inf", t.found_inf, t.params[0].device());
  }
  return t;
}

}  // namespace

FusedAdamArgs read_fused_adam(const ArgReader& a, bool decoupled) {
  const std::string_view op = op_name(a.op());
  FusedAdamArgs r{read_common(a, 13), {}};
  r.h = {a.f64(6), a.f64(7), a.f64(8), a.f64(9), a.f64(10), a.boolean(11), a.boolean(12), decoupled};
  r.t.exp_avgs = a.tensors(2);
  r.t.exp_avg_sqs = a.tensors(3);
  r.t.max_exp_avg_sqs = a.tensors(4);
  r.t.steps = a.tensors(5);
  check_like_params(op, "exp_avgs", r.t.exp_avgs, r.t.params);
  check_like_params(op, "exp_avg_sqs", r.t.exp_avg_sqs, r.t.params);
  if (r.h.amsgrad || !r.t.max_exp_avg_sqs.empty()) check_like_params(op, "max_exp_avg_sqs", r.t.max_exp_avg_sqs, r.t.params);
  AMPS_CHECK(r.t.steps.size() == r.t.params.size(), "{}: Tensor lists must have the same number of tensors, got {} "
             "params and {} state_steps", op, r.t.params.size(), r.t.steps.size());
  for (size_t i = 0; i < r.t.steps.size(); ++i) {
    const Tensor& s = r.t.steps[i];
    AMPS_CHECK(s.numel() == 1 && s.dtype() == DType::float32 && s.device() == r.t.params[i].device(),
               "{}: state_steps[{}] must be a 1-element float32 tensor on its parameter's device ({}), got {} "
               "elements of {} on {}", op, i, device_str(r.t.params[i].device()), s.numel(), dtype_name(s.dtype()),
               device_str(s.device()));
  }
  return r;
}

FusedSgdArgs read_fused_sgd(const ArgReader& a) {
  FusedSgdArgs r{read_common(a, 10), {}};
  r.t.exp_avgs = a.tensors(2);
  r.h = {a.f64(3), a.f64(4), a.f64(5), a.f64(6), a.boolean(7), a.boolean(8), a.boolean(9), !r.t.exp_avgs.empty()};
  if (r.h.has_momentum) check_like_params(op_name(a.op()), "momentum_buffer_list", r.t.exp_avgs, r.t.params);
  return r;
}

}  // namespace amps::rt::common
