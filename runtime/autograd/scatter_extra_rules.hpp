// Gradient rules of the scatter_reduce kernel and the as_strided view (scatter_extra_rules.cpp), added to rules.cpp's
// table.
#pragma once

#include <array>

#include "runtime/autograd/rules.hpp"

namespace amps::rt::autograd {

// Sets the rules of scatter_reduce (scatter_reduce_, index_reduce and index_reduce_ are composites of it) and
// as_strided in [t], after the implicit composites' decompositions (as_strided's is replaced).
void add_scatter_extra_rules(std::array<Rule, size_t(op_count)>& t);

}  // namespace amps::rt::autograd
