// The intra-op thread count (see threads.hpp).
#include "runtime/threads.hpp"

#include <omp.h>

#include "runtime/error.hpp"

namespace amps::rt {

int64_t intra_op_threads() { return omp_get_max_threads(); }

void set_intra_op_threads(int64_t n) {
  AMPS_CHECK(n > 0, "set_num_threads expects a positive integer");
  omp_set_num_threads(int(n));
}

}  // namespace amps::rt
