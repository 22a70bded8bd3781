// CUDA kernels for moves and copies (to, copy_, clone, contiguous), fills and factories: the
// device-independent ones (common/copy_kernels.hpp) with the device's transfers and fills. Factories whose
// values come from the host (arange, linspace, logspace, eye, the random ones) run the CPU kernel and upload
// (common::run_on_host), so a seed gives the same numbers on cpu and cuda (rand_like/randn_like too).
#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/common/host_fallback_kernels.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"

namespace amps::rt::cuda {
namespace {

// *_like results go to the device this backend runs on.
Device like_device(const ArgReader&, size_t, const KernelContext& kc) { return kc.device; }

// In-place random fills (normal_, uniform_, bernoulli_): drawn into a host tensor shaped like the input.
Tensors k_fill_from_host(const ArgReader& a, const KernelContext& kc) {
  Tensor self = a.tensor(0);
  Args host_args = a.args();  // the caller's args stay as they are (the autograd layer reads them afterwards)
  host_args[0] = Tensor::empty(self.sizes(), self.dtype(), Device::cpu());
  Tensors host = cpu_backend().run(a.op(), host_args, KernelContext{kc.ctx, Device::cpu()});
  transfer(self, host[0]);  // in place: the draws go into the device tensor itself
  return one_tensor(self);
}

// rand_like / randn_like: drawn on the host into a CPU tensor shaped like the input, then uploaded.
Tensors k_like_from_host(const ArgReader& a, const KernelContext& kc) {
  const Tensor self = a.tensor(0);
  Args host_args = a.args();
  host_args[0] = Tensor::empty(self.sizes(), self.dtype(), Device::cpu());
  host_args[2] = IValue(Device::cpu());
  return common::run_on_host(a.op(), host_args, kc);
}

}  // namespace

void register_copy_kernels(KernelTable& t) {
  common::register_copy_kernels<transfer, fill, contiguous, like_device>(t);
  for (OpId op : {OpId::arange, OpId::linspace, OpId::logspace, OpId::eye, OpId::rand, OpId::randn, OpId::randint,
                  OpId::randperm, OpId::multinomial})
    t.add(op, common::k_on_host);
  for (OpId op : {OpId::normal_, OpId::uniform_, OpId::bernoulli_}) t.add(op, k_fill_from_host, kFloatDTypes);
  for (OpId op : {OpId::rand_like, OpId::randn_like}) t.add(op, k_like_from_host, kFloatDTypes);
}

}  // namespace amps::rt::cuda
