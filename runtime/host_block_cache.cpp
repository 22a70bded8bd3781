// The large host block cache: best fit among the freed blocks, oldest evicted past the limit.
#include "runtime/host_block_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "runtime/error.hpp"

namespace amps::rt {
namespace {

constexpr size_t kAlignment = 64;
constexpr size_t kPage = 4096;
// Each block starts with a header holding its usable size, so a block reused for a slightly smaller
// request still gives its whole size back to the accounting when freed.
constexpr size_t kHeader = kAlignment;
// At most this many blocks are kept (the lookup is a linear best-fit scan).
constexpr size_t kMaxBlocks = 256;

struct Cache {
  std::mutex mu;
  std::vector<std::pair<size_t, char*>> free_blocks;  // (usable size, header address), oldest first
  size_t cached_bytes = 0, hits = 0, misses = 0;
};

// Never destroyed: tensors held by other statics may be freed after this file's statics die.
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

size_t round_up(size_t n) { return (n + kPage - 1) / kPage * kPage; }

// A cached block fits when it is no more than an eighth larger than the request (bounded waste).
ptrdiff_t best_fit(const Cache& c, size_t size) {
  ptrdiff_t best = -1;
  for (size_t i = 0; i < c.free_blocks.size(); ++i) {
    const size_t have = c.free_blocks[i].first;
    if (have < size || have > size + size / 8) continue;
    if (best < 0 || have < c.free_blocks[size_t(best)].first) best = ptrdiff_t(i);
  }
  return best;
}

void release_all(Cache& c) {
  for (auto& [size, block] : c.free_blocks) std::free(block);
  c.free_blocks.clear();
  c.cached_bytes = 0;
}

char* system_alloc(size_t size) {
  return static_cast<char*>(std::aligned_alloc(kAlignment, kHeader + size));
}

}  // namespace

size_t host_block_cache_limit() {
  static const size_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const size_t phys = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(1) << 33;
    return std::min(phys / 8, size_t(4) << 30);
  }();
  return limit;
}

void* host_block_alloc(size_t nbytes) {
  const size_t size = round_up(nbytes);
  Cache& c = cache();
  char* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (const ptrdiff_t i = best_fit(c, size); i >= 0) {
      block = c.free_blocks[size_t(i)].second;
      c.cached_bytes -= c.free_blocks[size_t(i)].first;
      c.free_blocks.erase(c.free_blocks.begin() + i);
      ++c.hits;
      return block + kHeader;
    }
    ++c.misses;
  }
  block = system_alloc(size);
  if (block == nullptr) {  // give the cached blocks back and try once more
    { std::lock_guard<std::mutex> lock(c.mu); release_all(c); }
    block = system_alloc(size);
  }
  AMPS_CHECK(block != nullptr, "out of memory: failed to allocate {} bytes on the host", nbytes);
  *reinterpret_cast<size_t*>(block) = size;
  return block + kHeader;
}

void host_block_free(void* p, size_t /*nbytes*/) {
  char* block = static_cast<char*>(p) - kHeader;
  const size_t size = *reinterpret_cast<size_t*>(block);
  const size_t limit = host_block_cache_limit();
  if (size > limit) return std::free(block);
  Cache& c = cache();
  std::vector<char*> evicted;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    c.free_blocks.emplace_back(size, block);
    c.cached_bytes += size;
    size_t n = 0;
    while (c.cached_bytes > limit || c.free_blocks.size() - n > kMaxBlocks) {
      c.cached_bytes -= c.free_blocks[n].first;
      evicted.push_back(c.free_blocks[n++].second);
    }
    c.free_blocks.erase(c.free_blocks.begin(), c.free_blocks.begin() + ptrdiff_t(n));
  }
  for (char* b : evicted) std::free(b);  // outside the lock: munmap can be slow
}

HostBlockCacheStats host_block_cache_stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return {c.cached_bytes, c.hits, c.misses};
}

void host_block_cache_empty() {
  Cache& c = cache();
  std::vector<std::pair<size_t, char*>> blocks;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    blocks.swap(c.free_blocks);
    c.cached_bytes = 0;
  }
  for (auto& [size, block] : blocks) std::free(block);
}

}  // namespace amps::rt
