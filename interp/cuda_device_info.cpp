// torch.cuda's device queries and seeding as attributes of the `cuda` device value, with PyTorch 1.13's behaviour
// where CUDA is not available (device_count 0, the seeding functions do nothing, the queries raise).
#include <fmt/format.h>

#include <string_view>

#include "interp/builtins.hpp"
#include "interp/cuda_memory.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/backend/backend.hpp"

namespace amps::interp {
namespace {

// Raises (amps' "CUDA is not available: <why>" error) unless a GPU is usable.
void require_cuda(const Span& where) {
  guarded(where, [] {
    rt::check_device_available(rt::Device::cuda(0));
    return Value();
  });
}

// manual_seed(seed) / manual_seed_all(seed) / seed(): amps' cuda random ops draw on the host from the interpreter's
// generator (docs/cuda.md), so with a GPU these reseed that generator, as the global manual_seed/seed do; without
// one they do nothing, as PyTorch's (which queues the call until CUDA starts).
Value seeding(const char* name, bool takes_seed) {
  return make<Native>(std::string("cuda.") + name, [name, takes_seed](Interp& in, CallArgs& a) {
    ArgReader r(a, name, takes_seed ? std::vector<const char*>{"seed"} : std::vector<const char*>{});
    if (takes_seed && !r.required(0).is_int())
      Interp::fail("TypeError", fmt::format("{}() expects an int seed, not {}", name, type_name(r.get(0))), a.span);
    if (!rt::cuda_available()) return Value();
    const Value global = in.lookup_builtin(takes_seed ? "manual_seed" : "seed");
    in.call(global, takes_seed ? std::vector<Value>{r.get(0)} : std::vector<Value>{});
    return Value();
  });
}

}  // namespace

Value cuda_device_attr(Interp&, Atom name) {
  const std::string_view n = *name;
  if (n == "device_count")
    return make<Native>("cuda.device_count", [](Interp&, CallArgs& a) {
      ArgReader r(a, "device_count", {});
      rt::Backend* b = rt::backend_for(rt::DeviceType::cuda);
      return Value(int64_t(b ? b->device_count() : 0));
    });
  if (n == "current_device")  // amps has no set_device: the current device is cuda:0
    return make<Native>("cuda.current_device", [](Interp&, CallArgs& a) {
      ArgReader r(a, "current_device", {});
      require_cuda(a.span);
      return Value(int64_t(0));
    });
  if (n == "is_bf16_supported")  // amps' CUDA kernels are built for sm_90 (Hopper), which has bfloat16
    return make<Native>("cuda.is_bf16_supported", [](Interp&, CallArgs& a) {
      ArgReader r(a, "is_bf16_supported", {});
      require_cuda(a.span);
      return Value(true);
    });
  if (n == "manual_seed") return seeding("manual_seed", true);
  if (n == "manual_seed_all") return seeding("manual_seed_all", true);
  if (n == "seed" || n == "seed_all") return seeding(n == "seed" ? "seed" : "seed_all", false);
  return Value::undef();
}

}  // namespace amps::interp
