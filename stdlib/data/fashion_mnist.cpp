// Fashion-MNIST from Debian's dataset-fashion-mnist IDX files: data.FashionMNIST (a TensorDataset)
// and data.fashion_mnist (a DataLoader over it).
//
// Images become float32 [N, 1, 28, 28]: bytes scaled to [0, 1] and, with normalize=true (the
// default), standardised with the training set's mean 0.2860 and std 0.3530, the values the
// usual torchvision recipe uses. Labels are int64 class ids 0..9 (data.FASHION_MNIST_CLASSES).
#include <filesystem>

#include "stdlib/data/fashion_mnist.hpp"
#include "stdlib/data/idx.hpp"
#include "stdlib/data/loader.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {

namespace {

constexpr const char* kDefaultRoot = "/usr/share/datasets/fashion-mnist";
constexpr int64_t kClasses = 10;
constexpr const char* kClassNames[kClasses] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};

// `root/name.gz`, or the uncompressed `root/name`; FileNotFoundError naming the Debian package.
std::string locate(const std::string& root, const std::string& name) {
  std::filesystem::path gz = std::filesystem::path(root) / (name + ".gz"), plain = std::filesystem::path(root) / name;
  if (std::filesystem::exists(gz)) return gz.string();
  if (std::filesystem::exists(plain)) return plain.string();
  fail("FileNotFoundError",
       fmt::format("Fashion-MNIST file '{}' not found; install Debian's dataset-fashion-mnist package "
                   "(apt-get install dataset-fashion-mnist) or pass root= a directory holding the IDX files",
                   gz.string()));
}

Value images_tensor(Vm& vm, const IdxArray& a, int64_t n, bool normalize) {
  float lut[256];
  for (int b = 0; b < 256; ++b)
    lut[b] = normalize ? (float(b) / 255.0f - kFashionMnistMean) / kFashionMnistStd : float(b) / 255.0f;
  Value t = vm.tensor_empty(AMPS_FLOAT32, {n, 1, a.dims[1], a.dims[2]});
  amps_tensor_info info = vm.tensor_info(t);
  auto* out = static_cast<float*>(info.data);
  for (size_t i = 0, total = size_t(info.numel); i < total; ++i) out[i] = lut[a.bytes[i]];
  return t;
}

Value labels_tensor(Vm& vm, const IdxArray& a, int64_t n, const std::string& path) {
  Value t = vm.tensor_empty(AMPS_INT64, {n});
  auto* out = static_cast<int64_t*>(vm.tensor_info(t).data);
  for (int64_t i = 0; i < n; ++i) {
    check_value(a.bytes[size_t(i)] < kClasses, "'{}' is not a valid Fashion-MNIST label file: label {} at index {} is not in 0..9",
                path, a.bytes[size_t(i)], i);
    out[i] = a.bytes[size_t(i)];
  }
  return t;
}

}  // namespace

FashionMnist load_fashion_mnist(Vm& vm, const std::string& root, const std::string& split, std::optional<int64_t> limit,
                                bool normalize) {
  check_value(split == "train" || split == "test", "fashion_mnist(): split must be \"train\" or \"test\", got \"{}\"", split);
  std::string prefix = split == "train" ? "train" : "t10k";
  std::string ipath = locate(root, prefix + "-images-idx3-ubyte"), lpath = locate(root, prefix + "-labels-idx1-ubyte");
  IdxArray images = read_idx(ipath, 3), labels = read_idx(lpath, 1);
  check_value(images.dims[1] == 28 && images.dims[2] == 28, "'{}' holds {}x{} images, expected 28x28", ipath, images.dims[1], images.dims[2]);
  check_value(images.dims[0] == labels.dims[0], "'{}' has {} images but '{}' has {} labels", ipath, images.dims[0], lpath, labels.dims[0]);
  check_value(!limit || *limit >= 0, "fashion_mnist(): limit must be non-negative, got {}", limit.value_or(0));
  int64_t n = limit ? std::min(*limit, images.dims[0]) : images.dims[0];
  return {images_tensor(vm, images, n, normalize), labels_tensor(vm, labels, n, lpath)};
}

namespace {

// The dataset arguments shared by FashionMNIST and fashion_mnist, starting at index [at].
Value dataset_from(Vm& vm, const Args& r, size_t at) {
  std::string split = r.str_or(0, "train");
  std::optional<int64_t> limit;
  if (r.has(at) && !r.get(at).is_none()) limit = r.int_or(at, 0);
  bool normalize = r.bool_or(at + 1, true);
  std::string root = r.has(at + 2) && !r.get(at + 2).is_none() ? checked_path(vm, r, at + 2, "fashion_mnist") : kDefaultRoot;
  if (vm.sandboxed()) fail("PermissionError", "fashion_mnist(): file access is disabled in this sandboxed interpreter");
  FashionMnist d = load_fashion_mnist(vm, root, split, limit, normalize);
  return new_tensor_dataset(vm, {d.images, d.labels});
}

}  // namespace

Value b_fashion_mnist_dataset(Vm& vm, Call& call) {
  Args r(vm, call, "FashionMNIST", {"split", "limit", "normalize", "root"});
  return dataset_from(vm, r, 1);
}

Value b_fashion_mnist(Vm& vm, Call& call) {
  Args r(vm, call, "fashion_mnist", {"split", "batch_size", "shuffle", "seed", "drop_last", "limit", "normalize", "root"});
  LoaderOptions o;
  o.batch_size = r.int_or(1, 64);
  o.shuffle = r.bool_or(2, false);
  o.drop_last = r.bool_or(4, false);
  if (o.batch_size < 1) fail("ValueError", fmt::format("fashion_mnist(): batch_size must be positive, got {}", o.batch_size));
  if (r.has(3) && !r.get(3).is_none()) o.seed = uint64_t(r.int_or(3, 0));
  return new_data_loader(vm, dataset_from(vm, r, 5), o);
}

std::string fashion_mnist_classes_source() {
  std::string list;
  for (const char* n : kClassNames) list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", n);
  return "let FASHION_MNIST_CLASSES = [" + list + "]\n";
}

}  // namespace amps::stdlib::data
