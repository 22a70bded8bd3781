// Per-thread free lists for the small fixed-size blocks every op allocates (tensor impls, storages,
// script tensor wrappers), and an allocator for std::allocate_shared over them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace amps::rt {
namespace pool_detail {

// Blocks are rounded up to kGranule bytes; sizes up to kMaxPooled are pooled, kPerClass per class per
// thread. A block may be freed on any thread: it joins that thread's list (blocks all come from
// ::operator new, so any thread may also hand them back to it).
inline constexpr size_t kGranule = 16, kMaxPooled = 512, kClasses = kMaxPooled / kGranule;
inline constexpr uint32_t kPerClass = 64;

struct Block {
  Block* next;
};
struct FreeLists {  // trivially destructible: usable while the thread's other thread_locals die
  Block* head[kClasses];
  uint32_t count[kClasses];
  bool closed;  // set once the thread's lists were drained; later frees go straight to ::operator delete
};
extern thread_local constinit FreeLists t_lists;
// Registers the calling thread's drain-at-exit (once per thread, on its first pooled free).
void arm_drain();
extern thread_local constinit bool t_armed;

inline size_t size_class(size_t n) { return (n + kGranule - 1) / kGranule - 1; }

}  // namespace pool_detail

// [n] bytes, aligned for any object of that size up to 16 bytes; release with pool_free(p, n).
inline void* pool_alloc(size_t n) {
  using namespace pool_detail;
  if (n == 0 || n > kMaxPooled) return ::operator new(n);
  const size_t c = size_class(n);
  if (Block* b = t_lists.head[c]) {
    t_lists.head[c] = b->next;
    --t_lists.count[c];
    return b;
  }
  return ::operator new((c + 1) * kGranule);
}

inline void pool_free(void* p, size_t n) {
  using namespace pool_detail;
  if (n == 0 || n > kMaxPooled) return ::operator delete(p);
  const size_t c = size_class(n);
  if (t_lists.closed || t_lists.count[c] >= kPerClass) return ::operator delete(p);
  if (!t_armed) [[unlikely]] arm_drain();
  auto* b = static_cast<Block*>(p);
  b->next = t_lists.head[c];
  t_lists.head[c] = b;
  ++t_lists.count[c];
}

// std::allocate_shared(PoolAllocator<T>{}, ...) puts the object and its control block in one pooled block.
template <class T> struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <class U> PoolAllocator(const PoolAllocator<U>&) {}
  T* allocate(size_t n) {
    static_assert(alignof(T) <= pool_detail::kGranule, "pooled blocks are 16-byte aligned");
    return static_cast<T*>(pool_alloc(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) { pool_free(p, n * sizeof(T)); }
  template <class U> bool operator==(const PoolAllocator<U>&) const { return true; }
};

// A std::vector whose buffer comes from the pool: for the short vectors made per op or per autograd node.
template <class T> using PoolVector = std::vector<T, PoolAllocator<T>>;

}  // namespace amps::rt
