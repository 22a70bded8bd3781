// Device: where a tensor lives (cpu, cuda, and the host-emulated xla/xpu), parsing and printing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace amps::rt {

// xla and xpu are emulated: their tensors live in host memory and run on the CPU backend, but keep their
// own device tag so device-mixing errors and per-device autocast policies behave as on real hardware.
enum class DeviceType : uint8_t { cpu, cuda, xla, xpu };
inline constexpr int device_type_count = 4;

struct Device {
  DeviceType type = DeviceType::cpu;
  int16_t index = 0;  // always 0 for cpu; the ordinal for the others

  static Device cpu() { return {DeviceType::cpu, 0}; }
  static Device cuda(int i = 0) { return {DeviceType::cuda, int16_t(i)}; }
  bool operator==(const Device&) const = default;
  // True when the tensor's bytes are directly addressable by the host (cpu, xla, xpu).
  bool is_host() const { return type != DeviceType::cuda; }
};

// "cpu", "cuda", "xla", "xpu".
std::string_view device_type_name(DeviceType t);
// "cpu", "cuda:0", "xla:0".
std::string device_str(Device d);
// Parses "cpu", "cuda", "cuda:1", "xla:0"; throws RuntimeError naming the accepted types otherwise.
Device device_from_string(std::string_view s);

// Whether a CUDA backend is compiled in and a GPU is usable; false in a CPU-only build.
bool cuda_available();
// Throws "CUDA is not available: ..." unless a CUDA backend can serve [d]; no-op for host devices.
void check_device_available(Device d);

}  // namespace amps::rt
