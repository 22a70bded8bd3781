// Datasets and loaders of the `data` module: TensorDataset, DataLoader (batches of a map-style
// dataset, shuffled per epoch, reproducible) and the collation of samples into batch tensors.
#pragma once

#include <optional>
#include <vector>

#include "amps/amps.hpp"

namespace amps::stdlib::data {

// data.TensorDataset(*tensors): sample i is the tuple (t[i] for t in tensors); all share dim 0.
// Host tensors are kept detached and contiguous, so batches are gathered with one memcpy per row.
struct TensorDataset : Object {
  TensorDataset(Vm& vm, const std::vector<Value>& ts);
  Value attr(Vm& vm, const char* name) override;
  Value len(Vm& vm, Call& call);
  Value getitem(Vm& vm, Call& call);
  int64_t size() const { return rows; }
  // The rows [idx] of every tensor, as a tuple of new tensors (rows copied in C++, no script calls).
  Value gather(Vm& vm, const std::vector<int64_t>& idx) const;
  std::vector<Value> tensors;
  int64_t rows = 0;
};

struct LoaderOptions {
  int64_t batch_size = 1;
  bool shuffle = false;
  bool drop_last = false;
  std::optional<uint64_t> seed;   // own generator; else generator's, else the interpreter's (manual_seed)
  Value sampler;                   // an iterable of sample indices (none: the dataset's order, or shuffled)
  Value batch_sampler;             // an iterable of index lists, one per batch (none: batches of batch_size)
  Value generator;                 // a script Generator the shuffle draws from (none: see seed)
  Value collate_fn;                // called on each batch's list of samples (none: default_collate)
  bool auto_batch = true;          // false for batch_size=none: samples one at a time, uncollated
  // PyTorch's worker options, checked as 1.13 does and kept for their attributes: amps loads in the main process
  // (every num_workers gives the same batches in the same order), and has no pinned host memory.
  int64_t num_workers = 0;
  bool pin_memory = false;
  double timeout = 0;
  Value worker_init_fn;
  bool persistent_workers = false;
};

// data.DataLoader(dataset, batch_size=1, shuffle=false, sampler=none, batch_sampler=none, num_workers=0,
// collate_fn=none, pin_memory=false, drop_last=false, timeout=0, worker_init_fn=none, multiprocessing_context=none,
// generator=none, prefetch_factor=none, persistent_workers=false, pin_memory_device="", seed=none): PyTorch 1.13's
// parameters in its order, then amps' seed. Iterating starts an epoch; with shuffle each epoch draws a fresh permutation
// from the generator (a Generator given, else one seeded with seed, else the interpreter's); a sampler gives the
// sample order instead, a batch_sampler the batches themselves (as PyTorch's).
struct DataLoader : Object {
  DataLoader(Value ds, LoaderOptions o);
  Value attr(Vm& vm, const char* name) override;
  Value len(Vm& vm, Call& call);
  Value iter(Vm& vm, Call& call);
  int64_t dataset_size(Vm& vm);
  int64_t num_batches(Vm& vm);
  // One epoch's sample order.
  std::vector<int64_t> epoch_order(Vm& vm, int64_t n);
  // One epoch's batches of sample indices.
  std::vector<std::vector<int64_t>> epoch_batches(Vm& vm);
  // The batch of samples [idx]: the fast path for TensorDataset, else __getitem__ + collate.
  Value fetch(Vm& vm, const std::vector<int64_t>& idx);
  Value dataset;
  TensorDataset* tensor_dataset;   // the dataset's object when it is a TensorDataset, else null
  LoaderOptions opt;
  std::optional<Rng> gen;   // owned (seed=) or borrowed from opt.generator, which the loader keeps alive
};

// PyTorch's default_collate: stacks tensors, numbers become int64/float64/bool tensors, and
// tuples, lists and dicts are collated position by position (key by key).
Value collate(Vm& vm, const std::vector<Value>& samples);

// The host classes, and new objects of them (for fashion_mnist and the module table).
extern const amps_class kTensorDatasetClass, kDataLoaderClass;
Value new_tensor_dataset(Vm& vm, const std::vector<Value>& tensors);
Value new_data_loader(Vm& vm, Value dataset, LoaderOptions o);

// The constructors and default_collate, for the module table.
Value make_tensor_dataset(Vm& vm, Call& call);
Value make_data_loader(Vm& vm, Call& call);
Value default_collate(Vm& vm, Call& call);

}  // namespace amps::stdlib::data
