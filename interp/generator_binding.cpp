// Generator objects (torch.Generator), default_generator and torch's top-level RNG functions manual_seed, seed,
// initial_seed, get_rng_state and set_rng_state: PyTorch 1.13's names, results and errors; the streams are amps'.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/generator_value.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {

GeneratorObj* generator_obj(const Value& v) {
  return v.is(ObjKind::Opaque) ? dynamic_cast<GeneratorObj*>(v.obj()) : nullptr;
}

namespace {

// A non-deterministic seed that fits an amps int (torch.seed / Generator.seed).
uint64_t fresh_seed() { return (uint64_t(std::random_device{}()) << 32 | std::random_device{}()) >> 1; }

// A stream's whole state as a 1-D int64 tensor. PyTorch's is a uint8 tensor of its own engine's bytes; amps' words
// belong to another engine (mt19937_64), so states do not travel between amps and PyTorch.
Value state_tensor(const rt::Generator& g) {
  const std::vector<uint64_t> words = g.state();
  rt::Tensor t = rt::Tensor::empty({int64_t(words.size())}, rt::DType::int64);
  std::copy(words.begin(), words.end(), reinterpret_cast<uint64_t*>(t.data<int64_t>()));
  return wrap(t);
}

// Restores [g] from [v], a tensor state_tensor made; [fn] and [getter] name the caller and where its states come
// from. Words that state_tensor did not make are refused (the runtime's message, after the caller's name).
void restore_state(rt::Generator& g, const Value& v, const char* fn, const char* getter, const Span& where) {
  const rt::Tensor* t = tensor_of(v);
  if (!t || t->dtype() != rt::DType::int64 || t->dim() != 1)
    Interp::fail("TypeError", fmt::format("{}() expects the int64 tensor returned by {}() (amps' own generator words: "
                                          "PyTorch's uint8 states do not load)", fn, getter), where);
  const rt::Tensor host = t->to(rt::Device::cpu()).contiguous();
  const uint64_t* p = reinterpret_cast<const uint64_t*>(host.data<int64_t>());
  try {
    g.set_state(std::vector<uint64_t>(p, p + host.numel()));
  } catch (const rt::Error& e) {
    throw AmpsError(e.kind(), fmt::format("{}: {}", fn, e.message()), where);
  }
}

// ---------------------------------------------------------------- Generator methods (self is a.pos[0])

GeneratorObj& self_of(CallArgs& a) { return *static_cast<GeneratorObj*>(a.pos.front().obj()); }

// The call's arguments after self, read as method [name] of Generator.
ArgReader method_args(CallArgs& a, const char* name, std::vector<const char*> params) {
  a.pos.erase(a.pos.begin());
  return ArgReader(a, std::string("Generator.") + name, std::move(params));
}

// Generator.manual_seed(seed): reseeds and returns the generator; a negative seed wraps to 64 bits, as PyTorch's.
Value m_manual_seed(Interp&, CallArgs& a) {
  Value self = a.pos.front();
  ArgReader r = method_args(a, "manual_seed", {"seed"});
  const Value& s = r.required(0);
  if (!s.is_int())
    Interp::fail("RuntimeError", fmt::format("manual_seed expected a long, but got {}", type_name(s)), a.span);
  static_cast<GeneratorObj*>(self.obj())->gen->manual_seed(uint64_t(s.as_int()));
  return self;
}

// Generator.seed(): reseeds with a non-deterministic number and returns it.
Value m_seed(Interp&, CallArgs& a) {
  GeneratorObj& g = self_of(a);
  method_args(a, "seed", {});
  const uint64_t s = fresh_seed();
  g.gen->manual_seed(s);
  return Value(int64_t(s));
}

Value m_initial_seed(Interp&, CallArgs& a) {
  GeneratorObj& g = self_of(a);
  method_args(a, "initial_seed", {});
  return Value(int64_t(g.gen->initial_seed()));
}

Value m_get_state(Interp&, CallArgs& a) {
  GeneratorObj& g = self_of(a);
  method_args(a, "get_state", {});
  return state_tensor(*g.gen);
}

// Generator.set_state(new_state): restores a state get_state / get_rng_state returned; returns the generator.
Value m_set_state(Interp&, CallArgs& a) {
  Value self = a.pos.front();
  ArgReader r = method_args(a, "set_state", {"new_state"});
  restore_state(*static_cast<GeneratorObj*>(self.obj())->gen, r.required(0), "Generator.set_state", "get_state",
                a.span);
  return self;
}

const std::unordered_map<std::string, Native::Fn>& generator_methods() {
  static const std::unordered_map<std::string, Native::Fn> methods = {
      {"manual_seed", m_manual_seed}, {"seed", m_seed},           {"initial_seed", m_initial_seed},
      {"get_state", m_get_state},     {"set_state", m_set_state}};
  return methods;
}

// ---------------------------------------------------------------- constructor and top-level functions

// "CUDA" for cuda: PyTorch's spelling of device types in its messages.
std::string upper_name(rt::DeviceType t) {
  std::string s(rt::device_type_name(t));
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Generator(device="cpu"): a new stream seeded with PyTorch's default seed. A cuda one draws on the host, as amps'
// cuda random ops do; it needs a CUDA device, as PyTorch's does.
Value b_generator(Interp&, CallArgs& a) {
  ArgReader r(a, "Generator", {"device"});
  const rt::Device d = r.has(0) && !r.get(0).is_none() ? device_of(r.get(0), a.span) : rt::Device::cpu();
  if (d.type == rt::DeviceType::cuda && !rt::cuda_available())
    Interp::fail("RuntimeError", "Device type CUDA is not supported for torch.Generator() api: CUDA is not available "
                 "(use a cpu Generator())", a.span);
  if (d.type != rt::DeviceType::cpu && d.type != rt::DeviceType::cuda)
    Interp::fail("RuntimeError", fmt::format("Device type {} is not supported for torch.Generator() api (amps' "
                                             "Generators are cpu or cuda)", upper_name(d.type)), a.span);
  return make<GeneratorObj>(std::make_shared<rt::Generator>(), d);
}

// manual_seed(seed): reseeds the interpreter's generator and returns it (default_generator).
Value b_manual_seed(Interp& in, const Value& default_generator, CallArgs& a) {
  ArgReader r(a, "manual_seed", {"seed"});
  r.required(0);
  in.runtime().manual_seed(uint64_t(r.int_or(0, 0)));
  return default_generator;
}

// seed(): reseeds the interpreter's generator with a non-deterministic number and returns it (torch.seed).
Value b_seed(Interp& in, CallArgs& a) {
  ArgReader r(a, "seed", {});
  const uint64_t s = fresh_seed();
  in.runtime().manual_seed(s);
  return Value(int64_t(s));
}

Value b_initial_seed(Interp& in, CallArgs& a) {
  ArgReader r(a, "initial_seed", {});
  return Value(int64_t(in.runtime().generator().initial_seed()));
}

// get_rng_state(): the interpreter's generator state as a 1-D int64 tensor (see state_tensor), for set_rng_state.
Value b_get_rng_state(Interp& in, CallArgs& a) {
  ArgReader r(a, "get_rng_state", {});
  return state_tensor(in.runtime().generator());
}

Value b_set_rng_state(Interp& in, CallArgs& a) {
  ArgReader r(a, "set_rng_state", {"new_state"});
  restore_state(in.runtime().generator(), r.required(0), "set_rng_state", "get_rng_state", a.span);
  return Value();
}

}  // namespace

Value GeneratorObj::get_attr(Interp&, Atom name) {
  if (*name == "device") return wrap_device(device);
  auto it = generator_methods().find(*name);
  if (it == generator_methods().end()) return Value::undef();
  return make<BoundMethod>(Value(this), make<Native>(*name, it->second));
}

void install_generator_builtins(Interp& in) {
  std::shared_ptr<rt::Generator> own(std::shared_ptr<void>(), &in.runtime().generator());   // not owned
  const Value default_generator = make<GeneratorObj>(std::move(own), rt::Device::cpu());
  in.def_global("default_generator", default_generator);
  def_type(in, "Generator", b_generator);
  in.def_native("manual_seed",
                [default_generator](Interp& i, CallArgs& a) { return b_manual_seed(i, default_generator, a); });
  in.def_native("seed", b_seed);
  in.def_native("initial_seed", b_initial_seed);
  in.def_native("get_rng_state", b_get_rng_state);
  in.def_native("set_rng_state", b_set_rng_state);
}

}  // namespace amps::interp
