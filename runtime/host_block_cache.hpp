// A process-wide cache of large host blocks (the host side of what the CUDA caching allocator does for
// device memory). Without it every activation-sized buffer is a fresh mmap from glibc, and the kernel
// zero-fills each page on first touch: a training step or an evaluation batch then spends as much time
// in page faults as in arithmetic. Freed blocks are kept, keyed by size, and handed to the next request
// that fits; the bytes and blocks kept are bounded (see host_block_cache_limit), oldest released first.
#pragma once

#include <cstddef>

namespace amps::rt {

// 64-byte aligned, uninitialised; [nbytes] > 0. Throws amps' out-of-memory error when the system refuses.
void* host_block_alloc(size_t nbytes);
// Returns a block from host_block_alloc(nbytes) (the same nbytes) to the cache.
void host_block_free(void* p, size_t nbytes);

struct HostBlockCacheStats {
  size_t cached_bytes;  // held for reuse, not in use
  size_t hits, misses;  // requests served from the cache / from the system
};
HostBlockCacheStats host_block_cache_stats();
// Gives every cached block back to the system (for tests, and for hosts that want their memory back).
void host_block_cache_empty();
// The most bytes the cache keeps: an eighth of physical memory, at most 4 GiB.
size_t host_block_cache_limit();

}  // namespace amps::rt
