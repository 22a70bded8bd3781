// amps_generator_rng: the stream of a script Generator value (torch.Generator): draws through it advance the
// script's Generator, default_generator's is the vm's own stream, and any other value has none.
#include "amps/amps.h"
#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

// The global [name] of [t]'s vm (a new handle the caller releases).
amps_value* global(CapturedVm& t, const char* name) {
  amps_value* v = nullptr;
  EXPECT_EQ(amps_get_global(t.vm, name, &v), AMPS_OK);
  return v;
}

TEST(EmbedGenerator, AGeneratorValueLendsItsStream) {
  CapturedVm t;
  t.ok("let g = Generator().manual_seed(5)\nlet x = 7\nmanual_seed(5)\nlet want = randint(0, 1000, (2,)).tolist()");
  amps_value* g = global(t, "g");
  amps_rng* r = amps_generator_rng(g);
  ASSERT_NE(r, nullptr);
  const uint64_t a = amps_rng_below(r, 1000), b = amps_rng_below(r, 1000);
  // the script's draws after manual_seed(5) are the host's from a Generator seeded 5
  t.ok(("assert want == [" + std::to_string(a) + ", " + std::to_string(b) + "]").c_str());
  // the host's draws advanced the script's Generator: reseeded, it repeats them
  t.ok("let again = randint(0, 1000, (2,), generator=g.manual_seed(5)).tolist()");
  t.ok(("assert again == [" + std::to_string(a) + ", " + std::to_string(b) + "]").c_str());
  amps_value* x = global(t, "x");
  EXPECT_EQ(amps_generator_rng(x), nullptr);
  EXPECT_EQ(amps_generator_rng(nullptr), nullptr);
  amps_value* d = global(t, "default_generator");
  EXPECT_EQ(amps_generator_rng(d), amps_vm_rng(t.vm));
  amps_release(g);
  amps_release(x);
  amps_release(d);
}

}  // namespace
