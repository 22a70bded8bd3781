// Gradient rules of softmax, log_softmax and nll_loss (softmax_rules.cpp), added to rules.cpp's table: each calls
// its gradient op (_softmax_backward_data, _log_softmax_backward_data, nll_loss_backward: one kernel each), and
// those ops decompose into differentiable ops while recording, so higher-order gradients stay composed.
#pragma once

#include <array>

#include "runtime/autograd/rules.hpp"

namespace amps::rt::autograd {

// Sets the rules of softmax, log_softmax, nll_loss and of their three gradient ops in [t].
void add_softmax_rules(std::array<Rule, size_t(op_count)>& t);

}  // namespace amps::rt::autograd
