// GeneratorGuard's exchange of generator states (see generator_guard.hpp).
#include "runtime/generator_guard.hpp"

#include <utility>

namespace amps::rt {

GeneratorGuard::GeneratorGuard(Generator& g) : own_(current_context().generator()), g_(&g == &own_ ? nullptr : &g) {
  if (g_) std::swap(own_, *g_);
}

GeneratorGuard::~GeneratorGuard() {
  if (g_) std::swap(own_, *g_);
}

}  // namespace amps::rt
