// The C++ half of module nn: helpers the nn.amps script calls (thread-parallel replicas).
#include "interp/builtins.hpp"
#include "interp/embed/handles.hpp"

namespace amps::stdlib {

using namespace amps::interp;

// _parallel_apply(module, inputs): module(inputs[i]) on one thread per input, in order.
static Value parallel_apply(Interp& in, CallArgs& a) {
  ArgReader r(a, "_parallel_apply", {"module", "inputs"});
  std::vector<std::pair<Value, std::vector<Value>>> calls;
  in.iterate(r.required(1), a.span, [&](Value x) {
    calls.push_back({r.get(0), {std::move(x)}});
    return true;
  });
  return make_list(in.parallel_call(calls, a.span));
}

extern const amps_reg nn_natives[] = {
    {"_parallel_apply", embed::cxx_native<parallel_apply>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace amps::stdlib
