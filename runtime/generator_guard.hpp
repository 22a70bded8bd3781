// GeneratorGuard: one op call drawing from a stream other than the context's own (a script's generator= argument).
#pragma once

#include "runtime/context.hpp"

namespace amps::rt {

// Exchanges [g]'s state with the current context's generator for the guard's lifetime and back when it ends (also
// when the op throws): kernels ask the context for its generator at each call, so the op draws from [g]'s stream,
// [g] comes back advanced, and the context's own stream is as it was. The caller keeps [g] alive until the guard
// ends; the context's own generator as [g] leaves everything in place.
class GeneratorGuard {
 public:
  explicit GeneratorGuard(Generator& g);
  ~GeneratorGuard();
  GeneratorGuard(const GeneratorGuard&) = delete;
  GeneratorGuard& operator=(const GeneratorGuard&) = delete;

 private:
  Generator& own_;   // the context's generator, holding [g]'s state meanwhile
  Generator* g_;     // holding the context's state meanwhile; null when [g] is the context's own
};

}  // namespace amps::rt
