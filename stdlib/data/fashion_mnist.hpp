// Fashion-MNIST loading (IDX files of Debian's dataset-fashion-mnist) and its script bindings.
#pragma once

#include <optional>
#include <string>

#include "interp/interp.hpp"
#include "runtime/tensor.hpp"

namespace amps::stdlib::data {

// Mean and std of the Fashion-MNIST training pixels scaled to [0, 1] (normalize=true uses them).
inline constexpr float kFashionMnistMean = 0.2860f;
inline constexpr float kFashionMnistStd = 0.3530f;

struct FashionMnist {
  rt::Tensor images;   // float32 [N, 1, 28, 28]
  rt::Tensor labels;   // int64 [N], 0..9
};

// Reads split "train" or "test" from `root` (the first `limit` samples when given).
// Throws rt::Error: FileNotFoundError naming the Debian package, ValueError for corrupt files.
FashionMnist load_fashion_mnist(const std::string& root, const std::string& split, std::optional<int64_t> limit, bool normalize);

// data.FashionMNIST(split="train", limit=none, normalize=true, root=none) -> TensorDataset
interp::Value b_fashion_mnist_dataset(interp::Interp& in, interp::CallArgs& a);
// data.fashion_mnist(split, batch_size=64, shuffle=false, seed=none, drop_last=false, limit=none,
//                    normalize=true, root=none) -> DataLoader
interp::Value b_fashion_mnist(interp::Interp& in, interp::CallArgs& a);
// data.FASHION_MNIST_CLASSES: the ten class names by label.
interp::Value fashion_mnist_classes();

}  // namespace amps::stdlib::data
