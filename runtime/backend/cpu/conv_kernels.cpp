// CPU kernels: conv family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_conv_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
