// CPU kernels: unary family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_unary_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
