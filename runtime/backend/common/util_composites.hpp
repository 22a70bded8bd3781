// Ops of PyTorch's torch namespace defined by their math (implicit composites, see implicit_composites.hpp):
// msort, mode and nanmedian (reduction_extra_composites.cpp: values gathered from the input, so gradients follow;
// mode's indices are found on the host), normal's overloads, randint_like and the in-place samplers random_,
// cauchy_, exponential_, geometric_ and log_normal_ (sample_composites.cpp: transforms of rand/randn/randint draws
// copied into the tensor), and the window functions, scalar_tensor, vander, combinations and the trapezoid rules
// (creation_composites.cpp). poisson and binomial are CPU kernels (runtime/backend/cpu/sampling_kernels.cpp) that
// devices run through the host fallback.
#pragma once

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// Each takes the op's complete, schema-ordered arguments.
Tensors msort_math(Args& args);
Tensors mode_math(Args& args);
Tensors nanmedian_math(Args& args);
Tensors nanmedian_dim_math(Args& args);

Tensors normal_tensor_tensor_math(Args& args);
Tensors normal_tensor_float_math(Args& args);
Tensors normal_float_float_math(Args& args);
Tensors randint_high_math(Args& args);  // randint(high, size)
Tensors randint_like_math(Args& args);  // both overloads (told apart by their argument count)
Tensors random__math(Args& args);
Tensors random__to_math(Args& args);
Tensors random__from_math(Args& args);
Tensors cauchy__math(Args& args);
Tensors exponential__math(Args& args);
Tensors geometric__math(Args& args);
Tensors log_normal__math(Args& args);

Tensors bartlett_window_math(Args& args);
Tensors blackman_window_math(Args& args);
Tensors hamming_window_math(Args& args);
Tensors hann_window_math(Args& args);
Tensors kaiser_window_math(Args& args);
Tensors scalar_tensor_math(Args& args);
Tensors vander_math(Args& args);
Tensors combinations_math(Args& args);
Tensors trapezoid_math(Args& args);
Tensors trapezoid_dx_math(Args& args);
Tensors cumulative_trapezoid_math(Args& args);
Tensors cumulative_trapezoid_dx_math(Args& args);

}  // namespace amps::rt::common
