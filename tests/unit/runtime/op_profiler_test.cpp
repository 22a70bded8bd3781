// OpProfiler: rows per op, dtype and pass; children's time in their parent's total, not its self time.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "autograd_test_util.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/op_profiler.hpp"

namespace amps::rt {
namespace {

class OpProfilerTest : public test::AutogradTest {
 protected:
  OpProfilerTest() { ctx_.add_layer(profiler, layer_order::profiling); }

  const OpProfiler::Row* find(OpId op, DType dt, bool backward) const {
    rows = profiler->rows();
    auto it = std::find_if(rows.begin(), rows.end(), [&](const OpProfiler::Row& r) {
      return r.op == op && r.dtype == dt && r.backward == backward;
    });
    return it == rows.end() ? nullptr : &*it;
  }

  std::shared_ptr<OpProfiler> profiler = std::make_shared<OpProfiler>();
  mutable std::vector<OpProfiler::Row> rows;
};

TEST_F(OpProfilerTest, CountsCallsPerOpDtypeAndPass) {
  test::Rand rng(1);
  Tensor a = rng.uniform({8, 8}, -1, 1, DType::float32).set_requires_grad(true);
  Tensor b = rng.uniform({8, 8}, -1, 1, DType::float32);
  autograd::backward({sum(mm(mm(a, b), b))});
  mm(a.to(DType::float64), b.to(DType::float64));

  const OpProfiler::Row* fwd = find(OpId::mm, DType::float32, false);
  ASSERT_NE(fwd, nullptr);
  EXPECT_EQ(fwd->calls, 2);
  EXPECT_EQ(fwd->device, DeviceType::cpu);
  const OpProfiler::Row* f64 = find(OpId::mm, DType::float64, false);
  ASSERT_NE(f64, nullptr);
  EXPECT_EQ(f64->calls, 1);
  const OpProfiler::Row* bwd = find(OpId::mm, DType::float32, true);  // the gradients' products
  ASSERT_NE(bwd, nullptr);
  EXPECT_GE(bwd->calls, 2);
  for (const OpProfiler::Row& r : profiler->rows()) {
    EXPECT_GE(r.self_ns, 0) << op_name(r.op);
    EXPECT_LE(r.self_ns, r.total_ns) << op_name(r.op);
  }
  EXPECT_GT(profiler->op_ns(), 0);
  profiler->reset();
  EXPECT_TRUE(profiler->rows().empty());
  EXPECT_EQ(profiler->op_ns(), 0);
}

// An implicit composite runs its parts through dispatch(): they are its children.
TEST_F(OpProfilerTest, ACompositesPartsAreItsChildren) {
  test::Rand rng(2);
  Tensor x = rng.uniform({64}, -3, 3, DType::float32), y = rng.uniform({64}, -3, 3, DType::float32);
  dispatch(OpId::huber_loss, Args{x, y});
  const OpProfiler::Row* h = find(OpId::huber_loss, DType::float32, false);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->calls, 1);
  int64_t children = 0, outermost = 0;
  for (const OpProfiler::Row& r : profiler->rows()) {
    if (r.op == OpId::huber_loss) continue;
    children += r.total_ns;
    outermost += r.calls;
  }
  EXPECT_GT(outermost, 0) << "huber_loss ran no ops through dispatch";
  EXPECT_EQ(h->total_ns - h->self_ns, children);
  EXPECT_EQ(profiler->op_ns(), h->total_ns);  // the parts are not counted a second time
}

TEST_F(OpProfilerTest, TableListsTheTopRowsAndTheRest) {
  test::Rand rng(3);
  Tensor a = rng.uniform({4, 4}, -1, 1, DType::float32);
  for (int i = 0; i < 3; ++i) a = relu(add(mm(a, a), a));
  const std::string t = profiler->table(1.0, 1);
  EXPECT_NE(t.find("profile: 1000.0 ms wall"), std::string::npos) << t;
  EXPECT_NE(t.find("in 9 op calls"), std::string::npos) << t;
  EXPECT_NE(t.find("(2 more rows:"), std::string::npos) << t;
  EXPECT_NE(t.find("float32"), std::string::npos) << t;
}

}  // namespace
}  // namespace amps::rt
