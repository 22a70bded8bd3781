// Gradient rules of the grid sampler kernels (grid_sampler_rules.cpp), added to rules.cpp's table.
#pragma once

#include <array>

#include "runtime/autograd/rules.hpp"

namespace amps::rt::autograd {

// Sets the rules of grid_sampler_2d and grid_sampler_3d in [t].
void add_grid_sampler_rules(std::array<Rule, size_t(op_count)>& t);

}  // namespace amps::rt::autograd
