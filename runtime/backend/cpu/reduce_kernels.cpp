// CPU kernels: reduce family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_reduce_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
