// Host-fallback kernels (see host_fallback_kernels.hpp).
#include "runtime/backend/common/host_fallback_kernels.hpp"

#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"

namespace amps::rt::common {
namespace {

// [t] moved to [dev] below the autograd layer (the kernel's inputs may require grad).
Tensor moved(const Tensor& t, Device dev) {
  if (t.device() == dev) return t;
  Args args{t, IValue(), dev};
  complete_args(OpId::to, args);
  return dispatch_backend(OpId::to, args)[0];
}

// Runs kOp's CPU kernel on host copies of every tensor argument; the results go back to the first tensor's
// device. Tensor lists are not among these ops' arguments.
template <OpId kOp> Tensors k_on_host(const ArgReader& a, const KernelContext&) {
  Args host = a.args();
  Device dev = Device::cpu();
  bool found = false;
  for (IValue& v : host) {
    if (!v.is_tensor() || !v.tensor().defined()) continue;
    if (!found) dev = v.tensor().device();
    found = true;
    v = IValue(moved(v.tensor(), Device::cpu()));
  }
  if (dev != Device::cpu()) current_context().count_host_sync();
  Tensors out = dispatch_backend(kOp, host);
  for (Tensor& t : out)
    if (t.defined()) t = moved(t, dev);
  return out;
}

template <size_t... I> void register_all(cpu::KernelTable& t, std::index_sequence<I...>) {
  (t.add(kHostFallbackOps[I], &k_on_host<kHostFallbackOps[I]>, cpu::kFloatDTypes), ...);
}

}  // namespace

void register_host_fallback_kernels(cpu::KernelTable& t) {
  register_all(t, std::make_index_sequence<std::size(kHostFallbackOps)>{});
}

}  // namespace amps::rt::common
