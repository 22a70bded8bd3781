// The `data` module: datasets, loaders, Fashion-MNIST, synthetic ImageNet, CSV metrics logs, and data files
// (loadtxt, NumPy .npy/.npz: file_readers.cpp).
#include <string>

#include "stdlib/data/fashion_mnist.hpp"
#include "stdlib/data/file_readers.hpp"
#include "stdlib/data/loader.hpp"
#include "stdlib/data/synthetic.hpp"
#include "stdlib/embedded.hpp"
#include "stdlib/progress/csv_log.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

namespace {

const amps_reg kDataNatives[] = {
    {"TensorDataset", native<data::make_tensor_dataset>, AMPS_CAST_NONE, nullptr},
    {"DataLoader", native<data::make_data_loader>, AMPS_CAST_NONE, nullptr},
    {"default_collate", native<data::default_collate>, AMPS_CAST_NONE, nullptr},
    {"fashion_mnist", native<data::b_fashion_mnist>, AMPS_CAST_NONE, nullptr},
    {"FashionMNIST", native<data::b_fashion_mnist_dataset>, AMPS_CAST_NONE, nullptr},
    {"synthetic_imagenet", native<data::b_synthetic_imagenet>, AMPS_CAST_NONE, nullptr},
    {"CSVLogger", native<progress::b_csv_logger>, AMPS_CAST_NONE, nullptr},
    {"loadtxt", native<data::b_data_loadtxt>, AMPS_CAST_NONE, nullptr},
    {"load_npy", native<data::b_data_load_npy>, AMPS_CAST_NONE, nullptr},
    {"save_npy", native<data::b_data_save_npy>, AMPS_CAST_NONE, nullptr},
    {"load_npz", native<data::b_data_load_npz>, AMPS_CAST_NONE, nullptr},
    {"save_npz", native<data::b_data_save_npz>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace

// The natives, then a body defining the constants (FASHION_MNIST_CLASSES).
// The natives, then the module body: stdlib/data_utils.amps (Subset, ConcatDataset, random_split, the samplers) first,
// so its error lines are the file's, then the Fashion-MNIST class names.
void install_data(Vm& vm) {
  const std::string body = std::string(embedded_source("data_utils")) + "\n" + data::fashion_mnist_classes_source();
  register_module(vm, "data", kDataNatives, body.c_str());
}

}  // namespace amps::stdlib
