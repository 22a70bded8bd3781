// The fused optimizer steps on cuda against the CPU backend (which fused_optim_test.cpp checks against
// torch.optim's formulas): every float dtype, several configurations, more parameters than one launch takes,
// strided parameters, grad_scale and found_inf (a scaled fused step without host reads: cuda_amp_test.cpp).
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "runtime/backend/common/fused_optim_math.hpp"
#include "runtime/context.hpp"

namespace amps::rt {
namespace {

using Lists = std::vector<std::vector<Tensor>>;  // params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps

// [n] parameters of [dt] with their gradients and state (sizes from 5 to beyond one block's chunk); the
// third parameter is a transposed (strided) view.
Lists make_lists(DType dt, int n) {
  Lists l(6);
  for (int k = 0; k < n; ++k) {
    const int64_t rows = 1 + 37 * k % 300, cols = 5 + k % 7;
    auto filled = [&](double phase, double scale) {
      Tensor t = mul(make(wavy(rows * cols, phase), {rows, cols}, dt), wrap_number(Scalar(scale)));
      return k == 2 ? t.t().contiguous().t() : t;
    };
    l[0].push_back(filled(0.1 * k, 1.0));
    l[1].push_back(filled(0.3 * k + 1, 1.0));
    l[2].push_back(filled(0.5 * k + 2, 0.1));
    l[3].push_back(abs(filled(0.7 * k + 3, 0.01)));
    l[4].push_back(abs(filled(0.9 * k + 4, 0.011)));
    l[5].push_back(make({double(1 + k % 4)}, {}, DType::float32));
  }
  return l;
}

Lists on_cuda(const Lists& l) {
  Lists r(l.size());
  for (size_t i = 0; i < l.size(); ++i)
    for (const Tensor& t : l[i]) {
      Tensor c = t.to(kCuda);
      r[i].push_back(t.is_contiguous() ? c : c.t().contiguous().t());  // keep the strided layout
    }
  return r;
}

Lists on_cpu(const Lists& l) {
  Lists r(l.size());
  for (size_t i = 0; i < l.size(); ++i)
    for (const Tensor& t : l[i]) r[i].push_back(t.to(Device::cpu()));
  return r;
}

::testing::AssertionResult lists_match(const Lists& cpu, const Lists& gpu, DType dt) {
  auto [atol, rtol] = tolerance(dt);
  for (size_t i = 0; i < cpu.size(); ++i)
    for (size_t k = 0; k < cpu[i].size(); ++k) {
      auto r = test::all_close(gpu[i][k].to(Device::cpu()), cpu[i][k], atol, rtol);
      if (!r) return r << " (list " << i << ", tensor " << k << ")";
    }
  return ::testing::AssertionSuccess();
}

Args adam_args(const Lists& l, const fused::AdamHyper& h, Tensor grad_scale = {}, Tensor found_inf = {}) {
  return {IValue(l[0]), IValue(l[1]), IValue(l[2]), IValue(l[3]), IValue(h.amsgrad ? l[4] : std::vector<Tensor>{}),
          IValue(l[5]), IValue(h.lr), IValue(h.beta1), IValue(h.beta2), IValue(h.weight_decay), IValue(h.eps),
          IValue(h.amsgrad), IValue(h.maximize), grad_scale.defined() ? IValue(grad_scale) : IValue(),
          found_inf.defined() ? IValue(found_inf) : IValue()};
}

Args sgd_args(const Lists& l, const fused::SgdHyper& h, Tensor grad_scale = {}, Tensor found_inf = {}) {
  return {IValue(l[0]), IValue(l[1]), IValue(h.has_momentum ? l[2] : std::vector<Tensor>{}), IValue(h.weight_decay),
          IValue(h.momentum), IValue(h.lr), IValue(h.dampening), IValue(h.nesterov), IValue(h.maximize),
          IValue(h.is_first_step), grad_scale.defined() ? IValue(grad_scale) : IValue(),
          found_inf.defined() ? IValue(found_inf) : IValue()};
}

Tensor f32(double v, Device d = Device::cpu()) { return make({v}, {}, DType::float32).to(d); }

TEST_F(Cuda, FusedAdamMatchesTheCpu) {
  const fused::AdamHyper cases[] = {{1e-2, 0.9, 0.999, 0, 1e-8, false, false, false},
                                    {1e-2, 0.8, 0.99, 0.1, 1e-6, true, true, false},
                                    {3e-2, 0.9, 0.95, 0.05, 1e-8, true, false, true}};
  for (DType dt : kFloats)
    for (const fused::AdamHyper& h : cases) {
      SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " amsgrad " << h.amsgrad << " decoupled " << h.decoupled);
      Lists cpu = make_lists(dt, 40), gpu = on_cuda(cpu);  // 40 parameters: two launches
      for (bool per_op : {false, true}) {  // _single_tensor_adam(w)_: the default step's formula in the same kernel
        const OpId op = per_op ? (h.decoupled ? OpId::_single_tensor_adamw_ : OpId::_single_tensor_adam_)
                               : (h.decoupled ? OpId::_fused_adamw_ : OpId::_fused_adam_);
        dispatch(op, adam_args(cpu, h));
        dispatch(op, adam_args(gpu, h));
        EXPECT_TRUE(lists_match(cpu, gpu, dt)) << op_name(op);
      }
    }
}

TEST_F(Cuda, FusedSgdMatchesTheCpu) {
  const fused::SgdHyper cases[] = {{0, 0, 0.05, 0, false, false, false, false},
                                   {1e-2, 0.9, 0.05, 0.1, false, true, true, true},
                                   {5e-3, 0.9, 0.05, 0, true, false, false, true}};
  for (DType dt : kFloats)
    for (const fused::SgdHyper& h : cases) {
      SCOPED_TRACE(::testing::Message() << dtype_name(dt) << " momentum " << h.momentum);
      Lists cpu = make_lists(dt, 40), gpu = on_cuda(cpu);
      dispatch(OpId::_fused_sgd_, sgd_args(cpu, h));
      dispatch(OpId::_fused_sgd_, sgd_args(gpu, h));
      EXPECT_TRUE(lists_match(cpu, gpu, dt));
    }
}

TEST_F(Cuda, FusedStepsUnscaleAndSkipOnTheDevice) {
  const fused::AdamHyper h{1e-2, 0.9, 0.999, 0.01, 1e-8, false, false, true};
  Lists cpu = make_lists(DType::float32, 5), gpu = on_cuda(cpu);
  dispatch(OpId::_fused_adamw_, adam_args(cpu, h, f32(8), f32(0)));
  dispatch(OpId::_fused_adamw_, adam_args(gpu, h, f32(8, kCuda), f32(0, kCuda)));
  EXPECT_TRUE(lists_match(cpu, gpu, DType::float32));  // grads written back divided by 8
  const Lists before = on_cpu(gpu);
  const uint64_t reads = cuda_host_reads();
  dispatch(OpId::_fused_adamw_, adam_args(gpu, h, f32(8, kCuda), f32(1, kCuda)));
  dispatch(OpId::_fused_sgd_, sgd_args(gpu, {0, 0.9, 0.1, 0, false, false, false, true}, {}, f32(1, kCuda)));
  EXPECT_EQ(cuda_host_reads(), reads);
  EXPECT_TRUE(lists_match(before, gpu, DType::float64));  // found_inf: not one element changed
}

}  // namespace
}  // namespace amps::rt
