// Gradient rules of the elementwise extras with kernels (elementwise_extra_rules.cpp), added to rules.cpp's table.
#pragma once

#include <array>

#include "runtime/autograd/rules.hpp"

namespace amps::rt::autograd {

// Sets the rules of i0, special_i1, igamma and igammac in [t].
void add_elementwise_extra_rules(std::array<Rule, size_t(op_count)>& t);

}  // namespace amps::rt::autograd
