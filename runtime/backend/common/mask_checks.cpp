// uint8 mask checks (see mask_checks.hpp).
#include "runtime/backend/common/mask_checks.hpp"

#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {

void check_byte_mask(const Tensor& mask) {
  if (mask.dtype() != DType::uint8 || mask.numel() == 0) return;
  AMPS_CHECK(max(mask).item().to_int() <= 1, "Mask tensor can take 0 and 1 values only");
}

}  // namespace amps::rt::common
