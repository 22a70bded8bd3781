// Datasets and loaders of the `data` module: TensorDataset, DataLoader (batches of a map-style
// dataset, shuffled per epoch, reproducible) and the collation of samples into batch tensors.
#pragma once

#include <optional>
#include <vector>

#include "interp/tensor_value.hpp"
#include "runtime/random.hpp"

namespace amps::stdlib::data {

// data.TensorDataset(*tensors): sample i is the tuple (t[i] for t in tensors); all share dim 0.
struct TensorDatasetObj : interp::Opaque {
  explicit TensorDatasetObj(std::vector<rt::Tensor> ts);
  std::string type_name() const override { return "TensorDataset"; }
  interp::Value get_attr(interp::Interp& in, interp::Atom name) override;
  int64_t size() const { return tensors.empty() ? 0 : tensors.front().size(0); }
  // The rows `idx` of every tensor, as a tuple of new tensors (rows copied in C++, no script calls).
  interp::Value gather(const std::vector<int64_t>& idx) const;
  std::vector<rt::Tensor> tensors;
};

struct LoaderOptions {
  int64_t batch_size = 1;
  bool shuffle = false;
  bool drop_last = false;
  std::optional<uint64_t> seed;   // own generator; else the interpreter's (manual_seed)
};

// data.DataLoader(dataset, batch_size=1, shuffle=false, drop_last=false, seed=none). Iterating
// starts an epoch; with shuffle each epoch draws a fresh permutation from the generator.
struct DataLoaderObj : interp::Opaque {
  DataLoaderObj(interp::Value ds, LoaderOptions o);
  std::string type_name() const override { return "DataLoader"; }
  interp::Value get_attr(interp::Interp& in, interp::Atom name) override;
  int64_t dataset_size(interp::Interp& in, const interp::Span& where);
  int64_t num_batches(interp::Interp& in, const interp::Span& where);
  // One epoch's sample order.
  std::vector<int64_t> epoch_order(interp::Interp& in, int64_t n);
  // The batch of samples `idx`: the fast path for TensorDataset, else __getitem__ + collate.
  interp::Value fetch(interp::Interp& in, const std::vector<int64_t>& idx, const interp::Span& where);
  interp::Value dataset;
  LoaderOptions opt;
  std::optional<rt::Generator> gen;
};

// PyTorch's default_collate: stacks tensors, numbers become int64/float64/bool tensors, and
// tuples, lists and dicts are collated position by position (key by key).
interp::Value collate(interp::Interp& in, const std::vector<interp::Value>& samples, const interp::Span& where);

// The constructors, for the module table.
interp::Value make_tensor_dataset(interp::Interp& in, interp::CallArgs& a);
interp::Value make_data_loader(interp::Interp& in, interp::CallArgs& a);

}  // namespace amps::stdlib::data
