// CPU kernels: loss family (being written).
#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::cpu {
void register_loss_kernels(KernelTable&) {}
}  // namespace amps::rt::cpu
