// data.synthetic_imagenet(n, batch_size, image_size=224, num_classes=1000, seed=0): ImageNet-shaped
// random batches for benchmarks (the ResNet example). Batches are generated lazily, each from its
// own generator seeded by (seed, batch index), so every epoch and every run with the same seed sees
// the same data without holding n images in memory.
#include "stdlib/data/synthetic.hpp"

#include "interp/tensor_value.hpp"
#include "runtime/random.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {

using namespace amps::interp;

namespace {

struct SyntheticSpec {
  int64_t n, batch_size, image_size, num_classes;
  uint64_t seed;
};

// Images float32 [B, 3, H, W] ~ N(0, 1), labels int64 [B] uniform in [0, num_classes).
Value synthetic_batch(const SyntheticSpec& s, int64_t b) {
  int64_t rows = std::min(s.batch_size, s.n - b * s.batch_size);
  rt::Generator g(s.seed * 0x9E3779B97F4A7C15ull + uint64_t(b) * 0xBF58476D1CE4E5B9ull + 1);
  rt::Tensor x = rt::Tensor::empty({rows, 3, s.image_size, s.image_size}, rt::DType::float32);
  float* px = x.data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) px[i] = float(g.normal());
  rt::Tensor y = rt::Tensor::empty({rows}, rt::DType::int64);
  for (int64_t i = 0; i < rows; ++i) y.data<int64_t>()[i] = int64_t(g.below(uint64_t(s.num_classes)));
  return make_tuple({wrap(x), wrap(y)});
}

struct SyntheticIter : Iterator {
  explicit SyntheticIter(SyntheticSpec s) : spec(s) {}
  std::string type_name() const override { return "SyntheticIterator"; }
  bool next(Interp&, Value& out) override {
    if (b * spec.batch_size >= spec.n) return false;
    out = synthetic_batch(spec, b++);
    return true;
  }
  SyntheticSpec spec;
  int64_t b = 0;
};

struct SyntheticLoaderObj : Opaque {
  explicit SyntheticLoaderObj(SyntheticSpec s) : spec(s) {}
  std::string type_name() const override { return "SyntheticImageNet"; }
  Value get_attr(Interp&, Atom name) override {
    if (*name == "__len__") return bound(this, "__len__", [this](Interp&, CallArgs&) { return Value((spec.n + spec.batch_size - 1) / spec.batch_size); });
    if (*name == "__iter__") return bound(this, "__iter__", [this](Interp&, CallArgs&) { return Value(make<SyntheticIter>(spec)); });
    if (*name == "batch_size") return Value(spec.batch_size);
    if (*name == "num_classes") return Value(spec.num_classes);
    return Value::undef();
  }
  SyntheticSpec spec;
};

}  // namespace

Value b_synthetic_imagenet(Interp&, CallArgs& a) {
  ArgReader r(a, "synthetic_imagenet", {"n", "batch_size", "image_size", "num_classes", "seed"});
  if (!r.required(0).is_int()) r.type_error(0, "int");
  if (!r.required(1).is_int()) r.type_error(1, "int");
  SyntheticSpec s{r.int_or(0, 0), r.int_or(1, 1), r.int_or(2, 224), r.int_or(3, 1000), uint64_t(r.int_or(4, 0))};
  if (s.n < 0 || s.batch_size < 1 || s.image_size < 1 || s.num_classes < 1)
    Interp::fail("ValueError", fmt::format("synthetic_imagenet(): need n >= 0 and positive batch_size, image_size, num_classes "
                                           "(got n={}, batch_size={}, image_size={}, num_classes={})", s.n, s.batch_size, s.image_size, s.num_classes), a.span);
  return make<SyntheticLoaderObj>(s);
}

}  // namespace amps::stdlib::data
