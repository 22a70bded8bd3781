// Generator objects of scripts (torch.Generator): a random stream with its device, and the generator= argument of
// the random ops, which draw from the given stream for one call.
#pragma once

#include <memory>
#include <optional>

#include "interp/interp.hpp"
#include "runtime/generator_guard.hpp"
#include "runtime/op.hpp"

namespace amps::interp {

// A Generator value. Each one owns its stream (shared, so a stream stays alive while an op draws from it), except
// default_generator, whose stream is the interpreter's own (the one manual_seed reseeds), held without ownership:
// the interpreter outlives its globals.
struct GeneratorObj : Opaque {
  GeneratorObj(std::shared_ptr<rt::Generator> g, rt::Device d) : gen(std::move(g)), device(d) {}
  std::string type_name() const override { return "Generator"; }
  Value get_attr(Interp& in, Atom name) override;
  std::shared_ptr<rt::Generator> gen;
  rt::Device device;      // cpu, or cuda (drawn on the host, as every cuda random op of amps)
  bool drawing = false;   // an op call draws from it (read and written under the interpreter lock)
};

// The Generator object [v] holds, or null.
GeneratorObj* generator_obj(const Value& v);

// The generator= argument of one op call (PyTorch 1.13's random ops: rand, randn, randint, randperm, normal,
// bernoulli, multinomial, poisson, binomial and the in-place fills): taken out of the call's arguments, type- and
// device-checked, and made the stream the op draws from while this object lives. Ops that take no generator keep
// the keyword, so binding reports it as unexpected.
// An op of another script thread (parallel calls) drawing from the same Generator meanwhile is refused: its state
// sits in this thread's context until the call ends.
class GeneratorArg {
 public:
  GeneratorArg(const std::vector<rt::OpId>& ops, CallArgs& a);
  ~GeneratorArg();
  GeneratorArg(const GeneratorArg&) = delete;
  GeneratorArg& operator=(const GeneratorArg&) = delete;

 private:
  Ref<GeneratorObj> obj_;   // held for the call (the script may drop its Generator meanwhile)
  std::optional<rt::GeneratorGuard> guard_;
};

// Registers Generator, default_generator, manual_seed, seed, initial_seed, get_rng_state and set_rng_state.
void install_generator_builtins(Interp& in);

}  // namespace amps::interp
