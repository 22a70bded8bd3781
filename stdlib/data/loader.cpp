// TensorDataset, DataLoader and default collation (see loader.hpp).
#include "stdlib/data/loader.hpp"

#include <cstring>

#include "runtime/context.hpp"
#include "runtime/functions.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {

using namespace amps::interp;

namespace {

// Copies rows `idx` of a host tensor into a new tensor (memcpy per row of the contiguous source).
rt::Tensor gather_host(const rt::Tensor& src, const std::vector<int64_t>& idx) {
  rt::Dims sizes = src.sizes();
  sizes[0] = int64_t(idx.size());
  rt::Tensor out = rt::Tensor::empty(sizes, src.dtype(), src.device());
  size_t row = src.numel() / std::max<int64_t>(1, src.size(0)) * src.element_size();
  auto* from = static_cast<const char*>(src.raw_data());
  auto* to = static_cast<char*>(out.raw_data());
  for (size_t i = 0; i < idx.size(); ++i) std::memcpy(to + i * row, from + size_t(idx[i]) * row, row);
  return out;
}

rt::Tensor gather_rows(const rt::Tensor& src, const std::vector<int64_t>& idx) {
  if (src.device().is_host()) return gather_host(src, idx);
  rt::GradModeGuard no_grad(false);
  std::vector<double> as_d(idx.begin(), idx.end());
  rt::Tensor index = rt::Tensor::from_doubles(as_d, {int64_t(idx.size())}, rt::DType::int64, src.device());
  return rt::index_select(src, 0, index);
}

TensorDatasetObj* as_tensor_dataset(const Value& v) {
  return v.is(ObjKind::Opaque) ? dynamic_cast<TensorDatasetObj*>(v.obj()) : nullptr;
}

// Fisher-Yates over 0..n-1.
std::vector<int64_t> permutation(rt::Generator& g, int64_t n) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[size_t(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(p[size_t(i)], p[g.below(uint64_t(i) + 1)]);
  return p;
}

// One pass over a loader: the batches of one epoch, fetched lazily.
struct LoaderIter : Iterator {
  LoaderIter(Ref<DataLoaderObj> l, std::vector<int64_t> o, int64_t nb) : loader(std::move(l)), order(std::move(o)), batches(nb) {}
  std::string type_name() const override { return "DataLoaderIterator"; }
  bool next(Interp& in, Value& out) override {
    if (done >= batches) return false;
    size_t lo = size_t(done++) * size_t(loader->opt.batch_size);
    size_t hi = std::min(order.size(), lo + size_t(loader->opt.batch_size));
    std::vector<int64_t> idx(order.begin() + lo, order.begin() + hi);
    try {
      out = loader->fetch(in, idx, Span{});
    } catch (const rt::Error& e) {
      throw AmpsError(e.kind(), e.message());   // the for statement adds its position
    }
    return true;
  }
  Ref<DataLoaderObj> loader;
  std::vector<int64_t> order;
  int64_t batches, done = 0;
};

Value collate_numbers(const std::vector<Value>& s) {
  std::vector<double> v;
  bool all_int = true, all_bool = true;
  for (auto& x : s) {
    v.push_back(x.to_double());
    all_int &= x.is_int(), all_bool &= x.is_bool();
  }
  rt::DType dt = all_bool ? rt::DType::bool_ : all_int ? rt::DType::int64 : rt::DType::float64;
  return wrap(rt::Tensor::from_doubles(v, {int64_t(v.size())}, dt));
}

// Element `i` (or key `k`) of every sample.
std::vector<Value> column(const std::vector<Value>& s, size_t i) {
  std::vector<Value> out;
  for (auto& x : s) out.push_back(x.is(ObjKind::Tuple) ? x.as<Tuple>()->items[i] : x.as<List>()->items[i]);
  return out;
}

size_t seq_size(const Value& v) { return v.is(ObjKind::Tuple) ? v.as<Tuple>()->items.size() : v.as<List>()->items.size(); }

Value collate_seq(Interp& in, const std::vector<Value>& s, const Span& where) {
  size_t n = seq_size(s[0]);
  for (auto& x : s)
    if (x.obj()->kind() != s[0].obj()->kind() || seq_size(x) != n)
      Interp::fail("ValueError", "collate: every sample must be a tuple (or list) of the same length", where);
  std::vector<Value> out;
  for (size_t i = 0; i < n; ++i) out.push_back(collate(in, column(s, i), where));
  return s[0].is(ObjKind::Tuple) ? make_tuple(std::move(out)) : make_list(std::move(out));
}

Value collate_dict(Interp& in, const std::vector<Value>& s, const Span& where) {
  auto out = make<Dict>();
  for (auto& [k, v] : s[0].as<Dict>()->entries) {
    std::vector<Value> col;
    for (auto& x : s) {
      Value* f = x.is(ObjKind::Dict) ? x.as<Dict>()->find(k) : nullptr;
      if (!f) Interp::fail("KeyError", "collate: a sample lacks the key " + in.repr(k), where);
      col.push_back(*f);
    }
    out->set(k, collate(in, col, where));
  }
  return out;
}

}  // namespace

Value collate(Interp& in, const std::vector<Value>& s, const Span& where) {
  const Value& first = s.at(0);
  if (tensor_of(first)) {
    std::vector<rt::Tensor> ts;
    for (auto& x : s) {
      if (!tensor_of(x)) Interp::fail("TypeError", "collate: samples mix tensors and " + type_name(x), where);
      ts.push_back(*tensor_of(x));
    }
    return wrap(rt::stack(ts, 0));
  }
  if (first.is_number()) {
    for (auto& x : s)
      if (!x.is_number()) Interp::fail("TypeError", "collate: samples mix numbers and " + type_name(x), where);
    return collate_numbers(s);
  }
  if (first.is(ObjKind::Tuple) || first.is(ObjKind::List)) return collate_seq(in, s, where);
  if (first.is(ObjKind::Dict)) return collate_dict(in, s, where);
  if (first.is(ObjKind::Str)) return make_list(s);
  Interp::fail("TypeError", "collate: cannot batch samples of type " + type_name(first), where);
}

TensorDatasetObj::TensorDatasetObj(std::vector<rt::Tensor> ts) {
  for (auto& t : ts) {
    AMPS_CHECK_VALUE(t.dim() >= 1, "TensorDataset: every tensor needs a first (sample) dimension; got a 0-dim tensor");
    AMPS_CHECK_VALUE(t.size(0) == ts.front().size(0), "TensorDataset: size mismatch between tensors ({} vs {} samples)",
                     ts.front().size(0), t.size(0));
    rt::GradModeGuard no_grad(false);
    tensors.push_back(t.device().is_host() ? t.detach().contiguous() : t.detach());
  }
}

Value TensorDatasetObj::gather(const std::vector<int64_t>& idx) const {
  std::vector<Value> out;
  for (auto& t : tensors) out.push_back(wrap(gather_rows(t, idx)));
  return make_tuple(std::move(out));
}

Value TensorDatasetObj::get_attr(Interp&, Atom name) {
  if (*name == "__len__") return bound(this, "__len__", [this](Interp&, CallArgs&) { return Value(size()); });
  if (*name == "__getitem__")
    return bound(this, "__getitem__", [this](Interp&, CallArgs& a) {
      ArgReader r(a, "__getitem__", {"self", "index"});
      int64_t i = r.int_or(1, 0), n = size();
      if (i < -n || i >= n) Interp::fail("IndexError", fmt::format("TensorDataset index {} is out of range for {} samples", i, n), a.span);
      std::vector<Value> out;
      for (auto& t : tensors) out.push_back(wrap(t.select(0, i < 0 ? i + n : i)));
      return make_tuple(std::move(out));
    });
  if (*name == "tensors") {
    std::vector<Value> ts;
    for (auto& t : tensors) ts.push_back(wrap(t));
    return make_tuple(std::move(ts));
  }
  return Value::undef();
}

DataLoaderObj::DataLoaderObj(Value ds, LoaderOptions o) : dataset(std::move(ds)), opt(o) {
  if (opt.seed) gen.emplace(*opt.seed);
}

int64_t DataLoaderObj::dataset_size(Interp& in, const Span& where) {
  auto* td = as_tensor_dataset(dataset);
  return td ? td->size() : length_of(in, dataset, where);
}

int64_t DataLoaderObj::num_batches(Interp& in, const Span& where) {
  int64_t n = dataset_size(in, where);
  return opt.drop_last ? n / opt.batch_size : (n + opt.batch_size - 1) / opt.batch_size;
}

std::vector<int64_t> DataLoaderObj::epoch_order(Interp& in, int64_t n) {
  if (opt.shuffle) return permutation(gen ? *gen : in.runtime().generator(), n);
  std::vector<int64_t> p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) p[size_t(i)] = i;
  return p;
}

Value DataLoaderObj::fetch(Interp& in, const std::vector<int64_t>& idx, const Span& where) {
  if (auto* td = as_tensor_dataset(dataset)) return td->gather(idx);
  std::vector<Value> samples;
  Value get = dataset.is(ObjKind::List) || dataset.is(ObjKind::Tuple) ? Value() : in.find_attr(dataset, intern("__getitem__"));
  for (int64_t i : idx) {
    if (dataset.is(ObjKind::List)) samples.push_back(dataset.as<List>()->items[size_t(i)]);
    else if (dataset.is(ObjKind::Tuple)) samples.push_back(dataset.as<Tuple>()->items[size_t(i)]);
    else if (get.is_undef()) Interp::fail("TypeError", "DataLoader: the dataset has no __getitem__", where);
    else samples.push_back(in.call(get, {Value(i)}));
  }
  return collate(in, samples, where);
}

Value DataLoaderObj::get_attr(Interp&, Atom name) {
  if (*name == "__len__") return bound(this, "__len__", [this](Interp& in, CallArgs& a) { return Value(num_batches(in, a.span)); });
  if (*name == "__iter__")
    return bound(this, "__iter__", [this](Interp& in, CallArgs& a) {
      int64_t nb = num_batches(in, a.span);
      int64_t n = dataset_size(in, a.span);
      return Value(make<LoaderIter>(Ref<DataLoaderObj>(this), epoch_order(in, n), nb));
    });
  if (*name == "dataset") return dataset;
  if (*name == "batch_size") return Value(opt.batch_size);
  if (*name == "shuffle") return Value(opt.shuffle);
  if (*name == "drop_last") return Value(opt.drop_last);
  return Value::undef();
}

Value make_tensor_dataset(Interp&, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", "TensorDataset() takes tensors as positional arguments only", a.span);
  if (a.pos.empty()) Interp::fail("TypeError", "TensorDataset() needs at least one tensor", a.span);
  std::vector<rt::Tensor> ts;
  for (auto& v : a.pos) {
    if (!tensor_of(v)) Interp::fail("TypeError", "TensorDataset() arguments must be tensors, not " + type_name(v), a.span);
    ts.push_back(*tensor_of(v));
  }
  return make<TensorDatasetObj>(std::move(ts));
}

Value make_data_loader(Interp& in, CallArgs& a) {
  ArgReader r(a, "DataLoader", {"dataset", "batch_size", "shuffle", "drop_last", "seed"});
  LoaderOptions o{r.int_or(1, 1), r.bool_or(2, false), r.bool_or(3, false), std::nullopt};
  if (o.batch_size < 1) Interp::fail("ValueError", fmt::format("DataLoader(): batch_size must be positive, got {}", o.batch_size), a.span);
  if (r.has(4) && !r.get(4).is_none()) o.seed = uint64_t(r.int_or(4, 0));
  Value ds = r.required(0);
  length_of(in, ds, a.span);   // fails early (TypeError) for values that are not datasets
  return make<DataLoaderObj>(ds, o);
}

}  // namespace amps::stdlib::data
