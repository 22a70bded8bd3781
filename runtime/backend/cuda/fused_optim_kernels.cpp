// CUDA kernels of the fused optimizer steps _fused_sgd_, _fused_adam_ and _fused_adamw_ (and _single_tensor_adam_ /
// _single_tensor_adamw_, the default Adam step's formula in the same kernel), with the CPU backend's
// checks (common/fused_optim_args): one multi-tensor launch per element type and kMaxFusedTensors parameters.
// found_inf, grad_scale and the step counts stay on the device, so a step makes no host read.
#include "runtime/backend/common/fused_optim_args.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cuda {
namespace {

// Builds the launch lists of one step: contiguous working tensors (copies of strided ones, written back after the
// launches, on the same stream) and their pointers.
class ListBuilder {
 public:
  // [write_grads]: the kernel writes the gradients too (unscaling by grad_scale).
  explicit ListBuilder(bool write_grads) : write_grads_(write_grads) {}

  void add(FusedList& l, const common::FusedLists& t, size_t i) {
    const int k = l.count;
    l.p[k] = dense(t.params[i], true);
    l.g[k] = dense(t.grads[i], write_grads_);
    l.m[k] = t.exp_avgs.empty() ? nullptr : dense(t.exp_avgs[i], true);
    l.v[k] = t.exp_avg_sqs.empty() ? nullptr : dense(t.exp_avg_sqs[i], true);
    l.vmax[k] = t.max_exp_avg_sqs.empty() ? nullptr : dense(t.max_exp_avg_sqs[i], true);
    l.step[k] = t.steps.empty() ? nullptr : static_cast<const float*>(device_data(t.steps[i]));
    l.numel[k] = t.params[i].numel();
    l.first_block[k + 1] = l.first_block[k] + (l.numel[k] + kUnscaleChunk - 1) / kUnscaleChunk;
    ++l.count;
  }
  void write_back() const {
    for (const auto& [orig, work] : copies_) copy_into(orig, work);
  }

 private:
  void* dense(const Tensor& t, bool written) {
    Tensor w = contiguous(t);
    if (written && !w.is_same(t)) copies_.emplace_back(t, w);
    keep_.push_back(w);
    return device_data(w);
  }
  bool write_grads_;
  std::vector<std::pair<Tensor, Tensor>> copies_;
  std::vector<Tensor> keep_;  // the working copies live until the launches are queued
};

const float* flag_data(const Tensor& t) { return t.defined() ? static_cast<const float*>(device_data(t)) : nullptr; }

// Queues the step of every parameter of [t], [launch](stream, elem, list, flags) per list of one dtype.
template <typename Launch> void run_step(const common::FusedLists& t, Launch&& launch, const char* what) {
  if (t.params.empty()) return;
  const Device dev = t.params[0].device();
  const FusedFlags flags{flag_data(t.grad_scale), flag_data(t.found_inf)};
  ListBuilder builder(t.grad_scale.defined());
  for (DType dt : {DType::float64, DType::float32, DType::float16, DType::bfloat16}) {
    FusedList l;
    auto flush = [&] {
      check(launch(stream(dev), elem(dt), l, flags), what);
      l = FusedList{};
    };
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (t.params[i].dtype() != dt || t.params[i].numel() == 0) continue;
      builder.add(l, t, i);
      if (l.count == kMaxFusedTensors) flush();
    }
    if (l.count > 0) flush();
  }
  builder.write_back();
}

// _fused_adam_ / _fused_adamw_ (kOps false) and _single_tensor_adam_ / _single_tensor_adamw_ (kOps true).
template <bool kDecoupled, bool kOps> Tensors k_adam(const ArgReader& a, const KernelContext&) {
  const common::FusedAdamArgs args = common::read_fused_adam(a, kDecoupled);
  common::FusedLists t = args.t;
  if (!args.h.amsgrad) t.max_exp_avg_sqs.clear();
  run_step(
      t,
      [&](cudaStream_t s, Elem e, const FusedList& l, FusedFlags f) {
        return launch_fused_adam(s, e, l, args.h, f, kOps);
      },
      std::string(op_name(a.op())).c_str());
  return {};
}

Tensors k_fused_sgd(const ArgReader& a, const KernelContext&) {
  const common::FusedSgdArgs args = common::read_fused_sgd(a);
  run_step(
      args.t,
      [&](cudaStream_t s, Elem e, const FusedList& l, FusedFlags f) { return launch_fused_sgd(s, e, l, args.h, f); },
      "_fused_sgd_");
  return {};
}

}  // namespace

void register_fused_optim_kernels(KernelTable& t) {
  t.add(OpId::_fused_sgd_, k_fused_sgd, kFloatDTypes);
  t.add(OpId::_fused_adam_, k_adam<false, false>, kFloatDTypes);
  t.add(OpId::_fused_adamw_, k_adam<true, false>, kFloatDTypes);
  t.add(OpId::_single_tensor_adam_, k_adam<false, true>, kFloatDTypes);
  t.add(OpId::_single_tensor_adamw_, k_adam<true, true>, kFloatDTypes);
}

}  // namespace amps::rt::cuda
