// CastCache: autocast's cache of lower-precision casts of float32 leaf weights, shared by forked layers.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

#include "runtime/tensor.hpp"

namespace amps::amp {

// Maps a source tensor (by TensorImpl, with a weak reference so a freed and reused address never
// matches) and a target dtype to its cast. What may be cached is the layer's decision
// (autocast_lists.md §2.2); this class only stores. Thread-safe: DataParallel workers share one cache,
// as PyTorch's cache is process-global (backward on another thread must hit the forward's casts).
class CastCache {
 public:
  // The cached cast of [src] to [dtype], or an undefined tensor.
  rt::Tensor find(const rt::Tensor& src, rt::DType dtype) const;
  void insert(const rt::Tensor& src, const rt::Tensor& cast);
  void clear();
  size_t size() const;

 private:
  struct Key {
    const rt::TensorImpl* impl;
    rt::DType dtype;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<const void*>()(k.impl) * 31 + size_t(k.dtype); }
  };
  struct Entry {
    std::weak_ptr<rt::TensorImpl> src;
    rt::Tensor cast;
  };
  mutable std::mutex mu_;
  std::unordered_map<Key, Entry, KeyHash> map_;
};

}  // namespace amps::amp
