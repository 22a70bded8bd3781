// Device-independent argument handling of the fused optimizer steps _fused_sgd_, _fused_adam_ and _fused_adamw_
// (PyTorch's schemas): the tensor lists, checked against their parameters, and the keyword hyper-parameters.
// The backends (cpu/fused_optim_kernels.cpp, cuda/fused_optim_kernels.cpp) only run the arithmetic.
#pragma once

#include <vector>

#include "runtime/backend/common/fused_optim_math.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// One fused step's tensors. Entry i of every non-empty list belongs to params[i]: same shape, dtype and device
// (state_steps: a 1-element float32 tensor on that device). grad_scale and found_inf are undefined when None,
// else 1-element float32 tensors on the parameters' device.
struct FusedLists {
  std::vector<Tensor> params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps;
  Tensor grad_scale, found_inf;
};

// _fused_adam_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, lr, beta1, beta2,
// weight_decay, eps, amsgrad, maximize, grad_scale, found_inf); max_exp_avg_sqs may be empty unless amsgrad.
struct FusedAdamArgs {
  FusedLists t;
  fused::AdamHyper h;
};
FusedAdamArgs read_fused_adam(const ArgReader& a, bool decoupled);

// _fused_sgd_(self, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov, maximize,
// is_first_step, grad_scale, found_inf); the buffers (in t.exp_avgs) are empty when momentum is 0.
struct FusedSgdArgs {
  FusedLists t;
  fused::SgdHyper h;
};
FusedSgdArgs read_fused_sgd(const ArgReader& a);

}  // namespace amps::rt::common
