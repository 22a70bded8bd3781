// cpu_isa(): the widest instruction set vectorized() may use on this CPU, or less when AMPS_CPU_CAPABILITY asks.
#include "runtime/backend/cpu/simd.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace amps::rt::cpu {
namespace {

Isa hardware_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq"))
    return Isa::avx512;
  return __builtin_cpu_supports("avx2") ? Isa::avx2 : Isa::base;
}

// AMPS_CPU_CAPABILITY=default|avx2|avx512 (PyTorch's ATEN_CPU_CAPABILITY values) caps the choice, to compare the
// loops' builds on one machine; it never raises it past the hardware's. Anything else leaves the hardware's.
Isa requested_cap() {
  const char* v = std::getenv("AMPS_CPU_CAPABILITY");
  const std::string_view s = v ? v : "";
  if (s == "default") return Isa::base;
  if (s == "avx2") return Isa::avx2;
  return Isa::avx512;
}

}  // namespace

Isa cpu_isa() {
  static const Isa isa = std::min(hardware_isa(), requested_cap());
  return isa;
}

}  // namespace amps::rt::cpu
