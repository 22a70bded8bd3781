// CastCache: lookups keyed by (TensorImpl*, dtype), validated through the weak reference to the source.
#include "amp/cast_cache.hpp"

namespace amps::amp {

rt::Tensor CastCache::find(const rt::Tensor& src, rt::DType dtype) const {
  std::lock_guard lock(mu_);
  auto it = map_.find(Key{src.impl(), dtype});
  if (it == map_.end() || it->second.src.lock().get() != src.impl()) return rt::Tensor();
  return it->second.cast;
}

void CastCache::insert(const rt::Tensor& src, const rt::Tensor& cast) {
  std::lock_guard lock(mu_);
  map_[Key{src.impl(), cast.dtype()}] = Entry{src.impl_ptr(), cast};
}

void CastCache::clear() {
  std::lock_guard lock(mu_);
  map_.clear();
}

size_t CastCache::size() const {
  std::lock_guard lock(mu_);
  return map_.size();
}

}  // namespace amps::amp
