// The intra-op thread count of the CPU kernels (torch.get_num_threads / set_num_threads).
#pragma once

#include <cstdint>

namespace amps::rt {

// The threads a CPU kernel called from this thread may use (OpenMP's max threads: OMP_NUM_THREADS or the cores).
int64_t intra_op_threads();
// Sets that count for kernels called from this thread (oneDNN reads the same setting); [n] >= 1.
void set_intra_op_threads(int64_t n);

}  // namespace amps::rt
