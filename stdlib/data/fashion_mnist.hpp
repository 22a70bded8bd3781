// Fashion-MNIST loading (IDX files of Debian's dataset-fashion-mnist) and its script bindings.
#pragma once

#include <optional>
#include <string>

#include "amps/amps.hpp"

namespace amps::stdlib::data {

// Mean and std of the Fashion-MNIST training pixels scaled to [0, 1] (normalize=true uses them).
inline constexpr float kFashionMnistMean = 0.2860f;
inline constexpr float kFashionMnistStd = 0.3530f;

struct FashionMnist {
  Value images;   // float32 [N, 1, 28, 28]
  Value labels;   // int64 [N], 0..9
};

// Reads split "train" or "test" from [root] (the first [limit] samples when given) into new
// tensors of [vm]. Throws ScriptError: FileNotFoundError naming the Debian package, ValueError for
// corrupt files.
FashionMnist load_fashion_mnist(Vm& vm, const std::string& root, const std::string& split, std::optional<int64_t> limit,
                                bool normalize);

// data.FashionMNIST(split="train", limit=none, normalize=true, root=none) -> TensorDataset
Value b_fashion_mnist_dataset(Vm& vm, Call& call);
// data.fashion_mnist(split, batch_size=64, shuffle=false, seed=none, drop_last=false, limit=none,
//                    normalize=true, root=none) -> DataLoader
Value b_fashion_mnist(Vm& vm, Call& call);
// The amps source that defines data.FASHION_MNIST_CLASSES, the ten class names by label.
std::string fashion_mnist_classes_source();

}  // namespace amps::stdlib::data
