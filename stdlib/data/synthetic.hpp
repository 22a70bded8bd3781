// Synthetic ImageNet-shaped data for benchmarks (see synthetic.cpp).
#pragma once

#include "interp/interp.hpp"

namespace amps::stdlib::data {

// data.synthetic_imagenet(n, batch_size, image_size=224, num_classes=1000, seed=0) -> loader of
// (images float32 [B, 3, S, S], labels int64 [B]); deterministic per seed, generated lazily.
interp::Value b_synthetic_imagenet(interp::Interp& in, interp::CallArgs& a);

}  // namespace amps::stdlib::data
