// data.synthetic_imagenet(n, batch_size, image_size=224, num_classes=1000, seed=0): ImageNet-shaped
// random batches for benchmarks (the ResNet example). Batches are generated lazily, each from its
// own generator seeded by (seed, batch index), so every epoch and every run with the same seed sees
// the same data without holding n images in memory.
#include "stdlib/data/synthetic.hpp"

#include <cstring>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {

namespace {

struct SyntheticSpec {
  int64_t n, batch_size, image_size, num_classes;
  uint64_t seed;
};

// Images float32 [B, 3, H, W] ~ N(0, 1), labels int64 [B] uniform in [0, num_classes).
Value synthetic_batch(Vm& vm, const SyntheticSpec& s, int64_t b) {
  int64_t rows = std::min(s.batch_size, s.n - b * s.batch_size);
  Rng g(s.seed * 0x9E3779B97F4A7C15ull + uint64_t(b) * 0xBF58476D1CE4E5B9ull + 1);
  Value x = vm.tensor_empty(AMPS_FLOAT32, {rows, 3, s.image_size, s.image_size});
  amps_tensor_info xi = vm.tensor_info(x);
  auto* px = static_cast<float*>(xi.data);
  for (int64_t i = 0; i < xi.numel; ++i) px[i] = float(g.normal());
  Value y = vm.tensor_empty(AMPS_INT64, {rows});
  auto* py = static_cast<int64_t*>(vm.tensor_info(y).data);
  for (int64_t i = 0; i < rows; ++i) py[i] = int64_t(g.below(uint64_t(s.num_classes)));
  return Value::tuple({x, y});
}

struct SyntheticIter : Object {
  explicit SyntheticIter(SyntheticSpec s) : spec(s) {}
  Value next(Vm& vm) override {
    if (b * spec.batch_size >= spec.n) return Value();
    return synthetic_batch(vm, spec, b++);
  }
  SyntheticSpec spec;
  int64_t b = 0;
};

const amps_class kSyntheticIterClass = iterator_class("SyntheticIterator");

struct SyntheticLoader : Object {
  explicit SyntheticLoader(SyntheticSpec s) : spec(s) {}
  Value len(Vm&, Call&) { return Value::of((spec.n + spec.batch_size - 1) / spec.batch_size); }
  Value iter(Vm& vm, Call&) { return vm.new_object(kSyntheticIterClass, std::make_unique<SyntheticIter>(spec)); }
  Value attr(Vm&, const char* name) override {
    if (std::strcmp(name, "batch_size") == 0) return Value::of(spec.batch_size);
    if (std::strcmp(name, "num_classes") == 0) return Value::of(spec.num_classes);
    return Value();
  }
  SyntheticSpec spec;
};

const amps_reg kSyntheticLoaderMethods[] = {
    {"__len__", method<&SyntheticLoader::len>, AMPS_CAST_NONE, nullptr},
    {"__iter__", method<&SyntheticLoader::iter>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};
const amps_class kSyntheticLoaderClass = object_class("SyntheticImageNet", kSyntheticLoaderMethods);

}  // namespace

Value b_synthetic_imagenet(Vm& vm, Call& call) {
  Args r(vm, call, "synthetic_imagenet", {"n", "batch_size", "image_size", "num_classes", "seed"});
  if (!r.required(0).is(AMPS_TYPE_INT)) r.type_error(0, "int");
  if (!r.required(1).is(AMPS_TYPE_INT)) r.type_error(1, "int");
  SyntheticSpec s{r.int_or(0, 0), r.int_or(1, 1), r.int_or(2, 224), r.int_or(3, 1000), uint64_t(r.int_or(4, 0))};
  if (s.n < 0 || s.batch_size < 1 || s.image_size < 1 || s.num_classes < 1)
    fail("ValueError", fmt::format("synthetic_imagenet(): need n >= 0 and positive batch_size, image_size, num_classes "
                                   "(got n={}, batch_size={}, image_size={}, num_classes={})", s.n, s.batch_size, s.image_size, s.num_classes));
  return vm.new_object(kSyntheticLoaderClass, std::make_unique<SyntheticLoader>(s));
}

}  // namespace amps::stdlib::data
