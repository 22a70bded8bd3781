// The embedding API's random streams: the vm's generator (the one manual_seed reseeds), a script Generator's and
// host-owned ones, with the runtime's algorithm so seeded draws match the script's.
#include "interp/embed/handles.hpp"
#include "interp/generator_value.hpp"
#include "runtime/random.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;

// amps_rng is never defined: an amps_rng* is an rt::Generator*.
static amps::rt::Generator& gen(amps_rng* r) { return *reinterpret_cast<amps::rt::Generator*>(r); }

extern "C" {

amps_rng* amps_rng_new(uint64_t seed) { return reinterpret_cast<amps_rng*>(new amps::rt::Generator(seed)); }

void amps_rng_free(amps_rng* rng) { delete reinterpret_cast<amps::rt::Generator*>(rng); }

amps_rng* amps_vm_rng(amps_vm* vm) { return vm ? reinterpret_cast<amps_rng*>(&interp_of(vm).runtime().generator()) : nullptr; }

amps_rng* amps_generator_rng(const amps_value* v) {
  const GeneratorObj* g = v ? generator_obj(value_of(v)) : nullptr;
  return g ? reinterpret_cast<amps_rng*>(g->gen.get()) : nullptr;
}

uint64_t amps_rng_below(amps_rng* rng, uint64_t n) { return rng && n ? gen(rng).below(n) : 0; }

double amps_rng_normal(amps_rng* rng) { return rng ? gen(rng).normal() : 0.0; }

}  // extern "C"
