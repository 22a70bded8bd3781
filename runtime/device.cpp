// Device names, parsing and availability checks.
#include "runtime/device.hpp"

#include <charconv>

#include "runtime/backend/backend.hpp"
#include "runtime/error.hpp"

namespace amps::rt {
namespace {
constexpr std::string_view kTypeNames[] = {"cpu", "cuda", "xla", "xpu"};
static_assert(std::size(kTypeNames) == device_type_count);
}  // namespace

std::string_view device_type_name(DeviceType t) { return kTypeNames[int(t)]; }

std::string device_str(Device d) {
  if (d.type == DeviceType::cpu) return "cpu";
  return fmt::format("{}:{}", device_type_name(d.type), d.index);
}

Device device_from_string(std::string_view s) {
  std::string_view type = s.substr(0, s.find(':'));
  int index = 0;
  if (type.size() < s.size()) {
    std::string_view num = s.substr(type.size() + 1);
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), index);
    AMPS_CHECK(ec == std::errc() && p == num.data() + num.size() && index >= 0 && !num.empty(),
               "Invalid device string: '{}'", s);
  }
  for (int t = 0; t < device_type_count; ++t) {
    if (type != kTypeNames[t]) continue;
    AMPS_CHECK(t != int(DeviceType::cpu) || index == 0, "CPU device index must be 0, got {}", index);
    return Device{DeviceType(t), int16_t(index)};
  }
  AMPS_FAIL("Expected one of cpu, cuda, xla, xpu device type at start of device string: {}", s);
}

bool cuda_available() { return backend_for(DeviceType::cuda) != nullptr; }

void check_device_available(Device d) {
  if (d.is_host() || cuda_available()) return;
#ifdef AMPS_HAVE_CUDA
  const std::string why = cuda_unavailable_reason().empty() ? "no GPU is present" : cuda_unavailable_reason();
#else
  const std::string why = "this amps build has no CUDA backend (configure with AMPS_CUDA=ON where nvcc is installed)";
#endif
  AMPS_FAIL("CUDA is not available: {} (cannot create or move a tensor to {}); use device 'cpu' or check "
            "cuda.available()", why, device_str(d));
}

}  // namespace amps::rt
