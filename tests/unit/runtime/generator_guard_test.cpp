// GeneratorGuard: an op drawn under it takes its numbers from the guarded stream (as the interpreter's generator=
// does) and advances it, the context's own stream is as before once the guard ends, also when the op throws and when
// guards nest; states move between streams.
#include <gtest/gtest.h>

#include "runtime/dispatch.hpp"
#include "runtime/generator_guard.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

TEST(GeneratorGuard, DrawsFromTheGuardedStreamAndLeavesTheContextsOwn) {
  Context ctx;
  ContextGuard on(ctx);
  ctx.manual_seed(5);
  const std::vector<uint64_t> before = ctx.generator().state();
  Generator own(3);
  Tensor a;
  {
    GeneratorGuard g(own);
    a = rand({6});
  }
  EXPECT_EQ(ctx.generator().state(), before);
  EXPECT_NE(own.state(), Generator(3).state());   // advanced by the draws
  ctx.manual_seed(3);
  EXPECT_TRUE(test::all_close(a, rand({6}), 0, 0));   // a stream seeded 3 draws what manual_seed(3) draws
  ctx.manual_seed(3);
  rand({6});
  EXPECT_EQ(own.state(), ctx.generator().state());   // and ends where the context's would
}

TEST(GeneratorGuard, RestoresOnErrorsWhenNestedAndForTheContextsOwn) {
  Context ctx;
  ContextGuard on(ctx);
  const std::vector<uint64_t> before = ctx.generator().state();
  Generator outer(1), inner(2);
  const std::vector<uint64_t> outer_state = outer.state(), inner_state = inner.state();
  {
    GeneratorGuard g1(outer);
    EXPECT_EQ(ctx.generator().state(), outer_state);
    try {
      GeneratorGuard g2(inner);
      EXPECT_EQ(ctx.generator().state(), inner_state);
      randint(5, 2, {3});   // low >= high: the kernel throws
      ADD_FAILURE() << "randint(5, 2) did not throw";
    } catch (const Error&) {
    }
    EXPECT_EQ(ctx.generator().state(), outer_state);
    GeneratorGuard self(ctx.generator());   // the context's own: nothing moves
    EXPECT_EQ(ctx.generator().state(), outer_state);
  }
  EXPECT_EQ(ctx.generator().state(), before);
  EXPECT_EQ(outer.state(), outer_state);
  EXPECT_EQ(inner.state(), inner_state);
}

// A state taken from one stream restores into another (Generator.set_state(get_rng_state())); a foreign one is
// refused.
TEST(GeneratorGuard, StatesMoveBetweenStreams) {
  Generator a(9), b;
  b.set_state(a.state());
  EXPECT_EQ(a.next_u64(), b.next_u64());
  EXPECT_EQ(b.initial_seed(), 9u);
  EXPECT_TRUE(test::throws_error([&] { b.set_state({1, 2, 3}); }, "RuntimeError",
                                 "expected a state returned by get_rng_state() or Generator.get_state() (317 int64 "
                                 "values), got 3 values"));
}

}  // namespace
}  // namespace amps::rt
