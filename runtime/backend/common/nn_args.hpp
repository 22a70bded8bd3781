// Device-independent argument handling of layer_norm, dropout and the losses: layer_norm's shape check,
// dropout's probability check, scale and keep-mask draw (on the host, so a seed gives the same mask on every
// device), and the losses' reduction argument.
#pragma once

#include <string>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/random.hpp"

namespace amps::rt::common {

// The number of elements layer_norm normalises together: [x] must end in [normalized_shape], and a given weight or
// bias must have exactly that shape (checked).
int64_t layer_norm_width(const Tensor& x, const Dims& normalized_shape, const Tensor& weight, const Tensor& bias);

// softmax/log_softmax over [dim] (wrapped) of an [ndim]-dim input of [dt] (after dtype=): integers and bool are
// refused with PyTorch 1.13's CPU kernel message ("softmax_lastdim_kernel_impl" not implemented for 'Byte').
void check_softmax_dtype(DType dt, int64_t dim, int64_t ndim, bool log);

// dropout's factor for kept elements, 1/(1-p) (0 for p == 1); p must lie in [0, 1] (checked).
double dropout_scale(double p);
// Fills the contiguous host bool tensor [mask] with dropout's keep-mask: one uniform draw of [g] per element in
// order, kept where it is >= p.
void draw_dropout_mask(const Tensor& mask, double p, Generator& g);

enum class Reduction { none, mean, sum };
// A loss's reduction= string; anything else is ValueError "<r> is not a valid value for reduction".
Reduction parse_reduction(const std::string& r);

// cdist(x1, x2, p): both at least 2-D and floating, the same number of columns, p >= 0 (PyTorch's messages).
void check_cdist(const Tensor& x1, const Tensor& x2, double p);

}  // namespace amps::rt::common
