// Host-fallback kernels (see host_fallback_kernels.hpp).
#include "runtime/backend/common/host_fallback_kernels.hpp"

#include "runtime/backend/backend.hpp"
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

}  // namespace

Tensors run_on_host(OpId op, const Args& args, const KernelContext& kc) {
  Args host = args;
  bool read_device = false;
  for (IValue& v : host) {
    if (!v.is_tensor() || !v.tensor().defined() || v.tensor().device().is_host()) continue;
    read_device = true;
    v = IValue(moved(v.tensor(), Device::cpu()));
  }
  if (read_device) kc.ctx.count_host_sync();
  Tensors out = cpu_backend().run(op, host, KernelContext{kc.ctx, Device::cpu()});
  for (Tensor& t : out) {
    if (!t.defined()) continue;
    const bool grad = t.requires_grad();
    t = moved(t, kc.device);
    if (grad && !t.requires_grad()) t.set_requires_grad(true);
  }
  return out;
}

Tensors k_on_host(const ArgReader& a, const KernelContext& kc) { return run_on_host(a.op(), a.args(), kc); }

void register_host_fallback_kernels(cpu::KernelTable& t) {
  for (OpId op : kHostFallbackOps) t.add(op, k_on_host, cpu::kFloatDTypes);
  for (OpId op : kHostFallbackAnyDTypeOps) t.add(op, k_on_host);
  for (OpId op : cpu::elementwise_extra_kernel_ops()) t.add(op, k_on_host);  // signbit, gcd, bitwise ops, ...
}

}  // namespace amps::rt::common
