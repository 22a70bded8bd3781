// CPU kernels: pool family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_pool_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
