// PyTorch-style printing of tensors ("tensor([[1., 2.],\n        [3., 4.]])") and Python float repr.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "runtime/tensor.hpp"

namespace amps::rt {

// torch.set_printoptions equivalents.
struct PrintOptions {
  int precision = 4;
  int64_t threshold = 1000;  // more elements than this are summarised with "..."
  int64_t edgeitems = 3;
  int64_t linewidth = 80;
  std::optional<bool> sci_mode;  // forced on/off; automatic when empty
};

// The text print(t) shows; reading the values counts as one host sync on the current context.
std::string tensor_repr(const Tensor& t, const PrintOptions& opts = {});
// Python's repr(float): "65536.0", "0.1", "1e-05", "inf", "nan".
std::string python_float_repr(double v);

std::ostream& operator<<(std::ostream& os, const Tensor& t);

}  // namespace amps::rt
