// generator= on cuda (a Generator swapped in for one op call, runtime GeneratorGuard): amps' cuda random ops draw on
// the host, so each op drawn on cuda from a stream seeded s gives the CPU's numbers from a stream seeded s, and the
// context's own generator is left untouched.
#include <gtest/gtest.h>

#include "cuda_test_util.hpp"
#include "runtime/generator_guard.hpp"

namespace amps::rt {
namespace {

// One op's arguments on the CPU and on cuda.
struct Call {
  OpId op;
  Args cpu, cuda;
};

// [op] on [args] with a fresh stream seeded 13 in place of the context's generator.
Tensor draw_seeded(OpId op, Args args) {
  Generator own(13);
  GeneratorGuard guard(own);
  return dispatch(op, args)[0];
}

TEST_F(Cuda, GeneratorDrawsTheCpuNumbers) {
  const Tensor w = make({0.5, 0.0, 3.0, 1.0}, {4});
  const Tensor fill = make(test::wavy(12), {3, 4});
  // factories: their CPU arguments and the same with device=cuda; the others take their tensors to cuda
  const std::vector<Call> factories = {
      {OpId::rand, {Dims{3, 4}}, {Dims{3, 4}, IValue(), kCuda}},
      {OpId::randn, {Dims{3, 4}, DType::float64}, {Dims{3, 4}, DType::float64, kCuda}},
      {OpId::randint, {int64_t(-2), int64_t(9), Dims{7}}, {int64_t(-2), int64_t(9), Dims{7}, IValue(), kCuda}},
      {OpId::randperm, {int64_t(9)}, {int64_t(9), IValue(), kCuda}},
  };
  const std::vector<std::pair<OpId, Args>> others = {
      {OpId::multinomial, {w, int64_t(10), true}},   {OpId::normal_, {fill.clone(), 1.0, 2.0}},
      {OpId::uniform_, {fill.clone(), -1.0, 1.0}},   {OpId::bernoulli_, {fill.clone(), 0.3}},
      {OpId::exponential_, {fill.clone(), 2.0}},
  };
  std::vector<Call> calls = factories;
  for (const auto& [op, args] : others) {
    Args on_device;
    for (const IValue& v : args) on_device.push_back(to_cuda(v));
    calls.push_back({op, args, on_device});
  }
  current_context().manual_seed(4);
  const std::vector<uint64_t> before = current_context().generator().state();
  for (const Call& c : calls) {
    const OpId op = c.op;
    const Tensor want = draw_seeded(op, c.cpu);
    const Tensor got = draw_seeded(op, c.cuda);
    EXPECT_EQ(got.device(), kCuda) << op_name(op);
    // exponential_ transforms the same uniforms with log1p, whose float rounding differs by an ulp between the
    // device's libm and the host's; every other sampler gives the CPU's numbers bit for bit.
    const double rtol = op == OpId::exponential_ ? 1e-6 : 0;
    EXPECT_TRUE(test::all_close(got.to(Device::cpu()), want, 0, rtol)) << op_name(op);
  }
  EXPECT_EQ(current_context().generator().state(), before);
}

}  // namespace
}  // namespace amps::rt
