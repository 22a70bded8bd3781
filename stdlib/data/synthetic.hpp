// Synthetic ImageNet-shaped data for benchmarks (see synthetic.cpp).
#pragma once

#include "amps/amps.hpp"

namespace amps::stdlib::data {

// data.synthetic_imagenet(n, batch_size, image_size=224, num_classes=1000, seed=0) -> loader of
// (images float32 [B, 3, S, S], labels int64 [B]); deterministic per seed, generated lazily.
Value b_synthetic_imagenet(Vm& vm, Call& call);

}  // namespace amps::stdlib::data
