// The global `backends` (torch.backends): what PyTorch scripts query before choosing a device.
//   backends.mps.is_available() / is_built()   false: amps has no Apple MPS backend (as PyTorch off macOS)
//   backends.cudnn.is_available()              whether the CUDA backend (which runs convolutions through cuDNN) is usable
//   backends.cudnn.enabled / benchmark / deterministic
//                                              PyTorch's defaults (true, false, false), kept as plain attributes that a
//                                              script may set: amps' cuDNN path always takes cuDNN's heuristic algorithm
//                                              choice (runtime/backend/cuda/cudnn.cpp), so benchmark never times
//                                              algorithms and deterministic does not restrict them (docs/language.md).
#include "interp/builtins.hpp"
#include "runtime/device.hpp"

namespace amps::interp {
namespace {

void def_fn(Module& m, const char* name, Native::Fn fn) { m.attrs[intern(name)] = make<Native>(name, std::move(fn)); }

// A query without arguments that answers [answer].
Native::Fn constant_query(const char* name, bool answer) {
  return [name, answer](Interp&, CallArgs& a) {
    ArgReader(a, name, {});
    return Value(answer);
  };
}

Ref<Module> mps_module() {
  auto m = make<Module>("torch.backends.mps");
  def_fn(*m, "is_available", constant_query("is_available", false));
  def_fn(*m, "is_built", constant_query("is_built", false));
  return m;
}

Ref<Module> cudnn_module() {
  auto m = make<Module>("torch.backends.cudnn");
  def_fn(*m, "is_available", [](Interp&, CallArgs& a) {
    ArgReader(a, "is_available", {});
    return Value(rt::cuda_available());
  });
  m->attrs[intern("enabled")] = Value(true);
  m->attrs[intern("benchmark")] = Value(false);
  m->attrs[intern("deterministic")] = Value(false);
  return m;
}

}  // namespace

void install_backends_module(Interp& in) {
  auto m = make<Module>("torch.backends");
  m->attrs[intern("mps")] = mps_module();
  m->attrs[intern("cudnn")] = cudnn_module();
  in.def_global("backends", m);
}

}  // namespace amps::interp
