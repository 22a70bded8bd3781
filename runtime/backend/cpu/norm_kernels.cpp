// CPU kernels: norm family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_norm_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
