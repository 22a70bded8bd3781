// TensorDataset, DataLoader and default collation (see loader.hpp).
#include "stdlib/data/loader.hpp"

#include <algorithm>
#include <cstring>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {

namespace {

// Copies rows [idx] of a contiguous cpu tensor into a new tensor (memcpy per row).
Value gather_host(Vm& vm, const amps_tensor_info& src, const std::vector<int64_t>& idx) {
  std::vector<int64_t> sizes = shape_of(src);
  sizes[0] = int64_t(idx.size());
  Value out = vm.tensor_empty(src.dtype, sizes);
  size_t row = size_t(src.numel / std::max<int64_t>(1, src.shape[0])) * amps_dtype_size(src.dtype);
  auto* from = static_cast<const char*>(src.data);
  auto* to = static_cast<char*>(vm.tensor_info(out).data);
  for (size_t i = 0; i < idx.size(); ++i) std::memcpy(to + i * row, from + size_t(idx[i]) * row, row);
  return out;
}

// Rows [idx] of [src]: memcpy on the cpu, index_select (on the tensor's device) elsewhere.
Value gather_rows(Vm& vm, const Value& src, const std::vector<int64_t>& idx) {
  amps_tensor_info info = vm.tensor_info(src);
  bool cpu = std::strcmp(info.device, "cpu") == 0;
  if (cpu && info.data && is_contiguous(info)) return gather_host(vm, info, idx);
  Value index = vm.tensor_copy(idx.data(), AMPS_INT64, {int64_t(idx.size())}).get();
  if (!cpu) index = vm.call_method(index, "to", {vm.attr(src, "device").get()}).get();
  return vm.call_method(src, "index_select", {Value::of(0), index}).get();
}

// Fisher-Yates over 0..n-1.
std::vector<int64_t> permutation(Rng& g, int64_t n) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[size_t(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(p[size_t(i)], p[g.below(uint64_t(i) + 1)]);
  return p;
}

// One pass over a loader: the batches of one epoch, fetched lazily.
struct LoaderIter : Object {
  LoaderIter(Value owner, DataLoader* l, std::vector<std::vector<int64_t>> b)
      : loader_value(std::move(owner)), loader(l), batches(std::move(b)) {}
  Value next(Vm& vm) override {
    if (done >= batches.size()) return Value();
    return loader->fetch(vm, batches[done++]);
  }
  Value loader_value;   // keeps the loader alive
  DataLoader* loader;
  std::vector<std::vector<int64_t>> batches;
  size_t done = 0;
};

// The ints an iterable yields (a sampler's indices, a batch of them).
std::vector<int64_t> int_items(Vm& vm, const Value& iterable, const char* what) {
  std::vector<int64_t> out;
  Value it = vm.iter(iterable);
  for (Value v = vm.next(it); v; v = vm.next(it)) {
    std::optional<int64_t> i = vm.to_int(v);
    if (!i || v.is(AMPS_TYPE_BOOL)) fail("TypeError", fmt::format("DataLoader: {} yielded a {}, not an int index", what, v.type_name()));
    out.push_back(*i);
  }
  return out;
}

const amps_class kLoaderIterClass = iterator_class("DataLoaderIterator");

Value collate_numbers(Vm& vm, const std::vector<Value>& s) {
  bool all_int = true, all_bool = true;
  for (auto& x : s) all_int &= x.is(AMPS_TYPE_INT), all_bool &= x.is(AMPS_TYPE_BOOL);
  std::vector<int64_t> shape{int64_t(s.size())};
  if (all_bool || all_int) {
    std::vector<int64_t> ints;
    for (auto& x : s) ints.push_back(*vm.to_int(x));
    if (all_int) return vm.tensor_copy(ints.data(), AMPS_INT64, shape).get();
    std::vector<uint8_t> bytes(ints.begin(), ints.end());
    return vm.tensor_copy(bytes.data(), AMPS_BOOL, shape).get();
  }
  std::vector<double> v;
  for (auto& x : s) v.push_back(*vm.to_float(x));
  return vm.tensor_copy(v.data(), AMPS_FLOAT64, shape).get();
}

// Element [i] of every sample.
std::vector<Value> column(Vm& vm, const std::vector<Value>& s, int64_t i) {
  std::vector<Value> out;
  for (auto& x : s) out.push_back(vm.item(x, i));
  return out;
}

Value collate_seq(Vm& vm, const std::vector<Value>& s) {
  int64_t n = vm.len(s[0]);
  for (auto& x : s)
    if (x.type() != s[0].type() || vm.len(x) != n) fail("ValueError", "collate: every sample must be a tuple (or list) of the same length");
  std::vector<Value> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(collate(vm, column(vm, s, i)));
  return s[0].is(AMPS_TYPE_TUPLE) ? Value::tuple(out) : Value::list(out);
}

Value collate_dict(Vm& vm, const std::vector<Value>& s) {
  Value out = Value::dict();
  for (size_t e = 0, n = size_t(vm.len(s[0])); e < n; ++e) {
    Value k = vm.dict_entry(s[0], e).first;
    std::vector<Value> col;
    for (auto& x : s) {
      Value f = x.is(AMPS_TYPE_DICT) ? vm.dict_get(x, k) : Value();
      if (!f) fail("KeyError", "collate: a sample lacks the key " + repr_of(vm, k));
      col.push_back(f);
    }
    vm.dict_set(out, k, collate(vm, col));
  }
  return out;
}

const amps_reg kTensorDatasetMethods[] = {
    {"__len__", method<&TensorDataset::len>, AMPS_CAST_NONE, nullptr},
    {"__getitem__", method<&TensorDataset::getitem>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

const amps_reg kDataLoaderMethods[] = {
    {"__len__", method<&DataLoader::len>, AMPS_CAST_NONE, nullptr},
    {"__iter__", method<&DataLoader::iter>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace

extern const amps_class kTensorDatasetClass = object_class("TensorDataset", kTensorDatasetMethods);
extern const amps_class kDataLoaderClass = object_class("DataLoader", kDataLoaderMethods);

Value collate(Vm& vm, const std::vector<Value>& s) {
  const Value& first = s.at(0);
  if (first.is(AMPS_TYPE_TENSOR)) {
    for (auto& x : s)
      if (!x.is(AMPS_TYPE_TENSOR)) fail("TypeError", std::string("collate: samples mix tensors and ") + x.type_name());
    return vm.call(vm.builtin("stack"), {Value::list(s), Value::of(0)}).get();
  }
  if (first.is_number()) {
    for (auto& x : s)
      if (!x.is_number()) fail("TypeError", std::string("collate: samples mix numbers and ") + x.type_name());
    return collate_numbers(vm, s);
  }
  if (first.is(AMPS_TYPE_TUPLE) || first.is(AMPS_TYPE_LIST)) return collate_seq(vm, s);
  if (first.is(AMPS_TYPE_DICT)) return collate_dict(vm, s);
  if (first.is(AMPS_TYPE_STR)) return Value::list(s);
  fail("TypeError", std::string("collate: cannot batch samples of type ") + first.type_name());
}

TensorDataset::TensorDataset(Vm& vm, const std::vector<Value>& ts) {
  for (const Value& t : ts) {
    amps_tensor_info info = vm.tensor_info(t);
    check_value(info.ndim >= 1, "TensorDataset: every tensor needs a first (sample) dimension; got a 0-dim tensor");
    if (tensors.empty()) rows = info.shape[0];
    check_value(info.shape[0] == rows, "TensorDataset: size mismatch between tensors ({} vs {} samples)", rows, info.shape[0]);
    Value d = vm.call_method(t, "detach").get();
    tensors.push_back(info.data ? vm.call_method(d, "contiguous").get() : d);
  }
}

Value TensorDataset::gather(Vm& vm, const std::vector<int64_t>& idx) const {
  std::vector<Value> out;
  for (auto& t : tensors) out.push_back(gather_rows(vm, t, idx));
  return Value::tuple(out);
}

Value TensorDataset::attr(Vm&, const char* name) {
  if (std::strcmp(name, "tensors") == 0) return Value::tuple(tensors);
  return Value();
}

Value TensorDataset::len(Vm&, Call&) { return Value::of(size()); }

Value TensorDataset::getitem(Vm& vm, Call& call) {
  Args r(vm, call, "__getitem__", {"self", "index"});
  int64_t i = r.int_or(1, 0), n = size();
  if (i < -n || i >= n) fail("IndexError", fmt::format("TensorDataset index {} is out of range for {} samples", i, n));
  std::vector<Value> out;
  for (auto& t : tensors) out.push_back(vm.call_method(t, "select", {Value::of(0), Value::of(i < 0 ? i + n : i)}).get());
  return Value::tuple(out);
}

DataLoader::DataLoader(Value ds, LoaderOptions o)
    : dataset(std::move(ds)), tensor_dataset(object_cast<TensorDataset>(dataset)), opt(o) {
  if (opt.seed) gen.emplace(*opt.seed);
  if (auto g = Rng::of_generator(opt.generator)) gen.emplace(std::move(*g));
}

int64_t DataLoader::dataset_size(Vm& vm) { return tensor_dataset ? tensor_dataset->size() : length_of(vm, dataset); }

int64_t DataLoader::num_batches(Vm& vm) {
  if (opt.batch_sampler) return length_of(vm, opt.batch_sampler);
  int64_t n = opt.sampler ? length_of(vm, opt.sampler) : dataset_size(vm);
  return opt.drop_last ? n / opt.batch_size : (n + opt.batch_size - 1) / opt.batch_size;
}

std::vector<int64_t> DataLoader::epoch_order(Vm& vm, int64_t n) {
  if (opt.shuffle) {
    if (gen) return permutation(*gen, n);
    Rng shared = Rng::of(vm);
    return permutation(shared, n);
  }
  std::vector<int64_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[size_t(i)] = i;
  return p;
}

std::vector<std::vector<int64_t>> DataLoader::epoch_batches(Vm& vm) {
  std::vector<std::vector<int64_t>> batches;
  if (opt.batch_sampler) {
    Value it = vm.iter(opt.batch_sampler);
    for (Value b = vm.next(it); b; b = vm.next(it)) batches.push_back(int_items(vm, b, "batch_sampler"));
    return batches;
  }
  const std::vector<int64_t> order = opt.sampler ? int_items(vm, opt.sampler, "sampler") : epoch_order(vm, dataset_size(vm));
  const size_t bs = size_t(opt.batch_size);
  for (size_t lo = 0; lo < order.size(); lo += bs) {
    const size_t hi = std::min(order.size(), lo + bs);
    if (hi - lo < bs && opt.drop_last) break;
    batches.emplace_back(order.begin() + std::ptrdiff_t(lo), order.begin() + std::ptrdiff_t(hi));
  }
  return batches;
}

Value DataLoader::fetch(Vm& vm, const std::vector<int64_t>& idx) {
  if (tensor_dataset && !opt.collate_fn && opt.auto_batch) return tensor_dataset->gather(vm, idx);
  bool seq = dataset.is(AMPS_TYPE_LIST) || dataset.is(AMPS_TYPE_TUPLE);
  Value get = seq ? Value() : vm.find_attr(dataset, "__getitem__");
  std::vector<Value> samples;
  for (int64_t i : idx) {
    if (seq) samples.push_back(vm.item(dataset, i));
    else if (!get) fail("TypeError", "DataLoader: the dataset has no __getitem__");
    else samples.push_back(vm.call(get, {Value::of(i)}).get());
  }
  if (!opt.auto_batch) return opt.collate_fn ? vm.call(opt.collate_fn, {samples[0]}).get() : samples[0];
  if (opt.collate_fn) return vm.call(opt.collate_fn, {Value::list(samples)}).get();
  return collate(vm, samples);
}

Value DataLoader::attr(Vm&, const char* name) {
  std::string_view n(name);
  if (n == "dataset") return dataset;
  if (n == "batch_size") return Value::of(opt.batch_size);
  if (n == "shuffle") return Value::of(opt.shuffle);
  if (n == "drop_last") return Value::of(opt.drop_last);
  if (n == "generator") return opt.generator ? opt.generator : Value::none();
  if (n == "collate_fn") return opt.collate_fn ? opt.collate_fn : Value::none();
  if (n == "num_workers") return Value::of(opt.num_workers);
  if (n == "pin_memory") return Value::of(opt.pin_memory);
  if (n == "timeout") return Value::of(opt.timeout);
  if (n == "worker_init_fn") return opt.worker_init_fn ? opt.worker_init_fn : Value::none();
  if (n == "persistent_workers") return Value::of(opt.persistent_workers);
  return Value();
}

Value DataLoader::len(Vm& vm, Call&) { return Value::of(num_batches(vm)); }

Value DataLoader::iter(Vm& vm, Call& call) {
  return vm.new_object(kLoaderIterClass, std::make_unique<LoaderIter>(call.arg(0), this, epoch_batches(vm)));
}

Value new_tensor_dataset(Vm& vm, const std::vector<Value>& tensors) {
  return vm.new_object(kTensorDatasetClass, std::make_unique<TensorDataset>(vm, tensors));
}

Value new_data_loader(Vm& vm, Value dataset, LoaderOptions o) {
  return vm.new_object(kDataLoaderClass, std::make_unique<DataLoader>(std::move(dataset), o));
}

Value make_tensor_dataset(Vm& vm, Call& call) {
  if (call.kw_size()) fail("TypeError", "TensorDataset() takes tensors as positional arguments only");
  if (call.size() == 0) fail("TypeError", "TensorDataset() needs at least one tensor");
  std::vector<Value> ts;
  for (size_t i = 0; i < call.size(); ++i) {
    ts.push_back(call.arg(i));
    if (!ts.back().is(AMPS_TYPE_TENSOR)) fail("TypeError", std::string("TensorDataset() arguments must be tensors, not ") + ts.back().type_name());
  }
  return new_tensor_dataset(vm, ts);
}

// DataLoader's generator=: a script Generator, and not together with seed= (both would pick the shuffle's stream).
static Value generator_arg(const Value& g, bool seeded) {
  if (!Rng::of_generator(g))
    fail("TypeError", std::string("DataLoader(): argument 'generator' must be Generator, not ") + g.type_name());
  if (seeded) fail("ValueError", "DataLoader(): give seed= or generator=, not both");
  return g;
}

// PyTorch 1.13's checks of the worker options (amps accepts them and loads in the main process).
static void read_worker_options(const Args& r, LoaderOptions& o) {
  o.num_workers = r.int_or(5, 0);
  if (o.num_workers < 0)
    fail("ValueError", "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.");
  o.pin_memory = r.bool_or(7, false);
  o.timeout = r.float_or(9, 0);
  if (o.timeout < 0) fail("ValueError", "timeout option should be non-negative");
  if (r.has(10) && !r.get(10).is_none()) o.worker_init_fn = r.get(10);
  const int64_t prefetch = r.has(13) && !r.get(13).is_none() ? r.int_or(13, 2) : 2;
  if (o.num_workers == 0 && prefetch != 2)
    fail("ValueError", "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
                       "enable multiprocessing.");
  o.persistent_workers = r.bool_or(14, false);
  if (o.persistent_workers && o.num_workers == 0) fail("ValueError", "persistent_workers option needs num_workers > 0");
}

Value make_data_loader(Vm& vm, Call& call) {
  Args r(vm, call, "DataLoader",
         {"dataset", "batch_size", "shuffle", "sampler", "batch_sampler", "num_workers", "collate_fn", "pin_memory",
          "drop_last", "timeout", "worker_init_fn", "multiprocessing_context", "generator", "prefetch_factor",
          "persistent_workers", "pin_memory_device", "seed"});
  LoaderOptions o;
  o.auto_batch = !(r.has(1) && r.get(1).is_none());
  o.batch_size = o.auto_batch ? r.int_or(1, 1) : 1;
  o.shuffle = r.has(2) && !r.get(2).is_none() && r.bool_or(2, false);
  o.drop_last = r.bool_or(8, false);
  if (o.batch_size < 1) fail("ValueError", fmt::format("DataLoader(): batch_size must be positive, got {}", o.batch_size));
  if (r.has(16) && !r.get(16).is_none()) o.seed = uint64_t(r.int_or(16, 0));
  if (r.has(3) && !r.get(3).is_none()) o.sampler = r.get(3);
  if (r.has(4) && !r.get(4).is_none()) o.batch_sampler = r.get(4);
  if (r.has(12) && !r.get(12).is_none()) o.generator = generator_arg(r.get(12), o.seed.has_value());
  if (r.has(6) && !r.get(6).is_none()) o.collate_fn = r.get(6);
  read_worker_options(r, o);
  if (o.sampler && o.shuffle) fail("ValueError", "sampler option is mutually exclusive with shuffle");
  if (o.batch_sampler && (o.batch_size != 1 || o.shuffle || o.sampler || o.drop_last))
    fail("ValueError", "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last");
  if (!o.auto_batch && o.drop_last)
    fail("ValueError", "batch_size=none option disables auto-batching and is mutually exclusive with drop_last");
  Value ds = r.required(0);
  length_of(vm, ds);   // fails early (TypeError) for values that are not datasets
  return new_data_loader(vm, ds, o);
}

Value default_collate(Vm& vm, Call& call) {
  Args r(vm, call, "default_collate", {"samples"});
  std::vector<Value> s;
  Value it = vm.iter(r.required(0));
  for (Value v = vm.next(it); v; v = vm.next(it)) s.push_back(v);
  if (s.empty()) fail("ValueError", "default_collate(): no samples");
  return collate(vm, s);
}

}  // namespace amps::stdlib::data
