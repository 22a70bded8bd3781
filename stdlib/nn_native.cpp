// The C++ half of module nn: helpers the nn.amps script calls (thread-parallel replicas).
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {

namespace {

// _parallel_apply(module, inputs): module(inputs[i]) on one thread per input, in order.
Value parallel_apply(Vm& vm, Call& call) {
  Args r(vm, call, "_parallel_apply", {"module", "inputs"});
  std::vector<Value> callees, arg_lists;
  Value it = vm.iter(r.required(1));
  for (Value x = vm.next(it); x; x = vm.next(it)) {
    callees.push_back(r.get(0));
    arg_lists.push_back(Value::tuple({x}));
  }
  return Value::list(vm.call_parallel(callees, arg_lists));
}

}  // namespace

extern const amps_reg nn_natives[] = {
    {"_parallel_apply", native<parallel_apply>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace amps::stdlib
