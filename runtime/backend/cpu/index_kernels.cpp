// CPU kernels: index family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_index_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
