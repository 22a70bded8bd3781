// The per-thread free lists behind pool_alloc/pool_free, and their drain when a thread ends.
#include "runtime/small_pool.hpp"

namespace amps::rt::pool_detail {

thread_local constinit FreeLists t_lists{};
thread_local constinit bool t_armed = false;

namespace {

// Frees what the thread kept when it ends; frees after that bypass the lists.
struct Drain {
  ~Drain() {
    for (size_t c = 0; c < kClasses; ++c)
      while (Block* b = t_lists.head[c]) {
        t_lists.head[c] = b->next;
        ::operator delete(b);
      }
    t_lists.closed = true;
  }
};

}  // namespace

void arm_drain() {
  thread_local Drain drain;
  (void)drain;
  t_armed = true;
}

}  // namespace amps::rt::pool_detail
