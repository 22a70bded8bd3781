// The generator= argument of the random ops (GeneratorArg, see generator_value.hpp): the op's schema has no such
// argument; the call draws from the given stream because it is the context's generator while the op runs.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "interp/generator_value.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {
namespace {

// PyTorch 1.13's random functions and methods that take generator= (keyword-only), by script name; every overload
// of a name takes it (normal's four, random_'s three).
constexpr std::string_view kTakesGenerator[] = {
    "rand",     "randn",    "randint",  "randperm",   "normal",       "bernoulli",  "multinomial", "poisson",
    "binomial", "normal_",  "uniform_", "bernoulli_", "random_",      "cauchy_",    "exponential_", "geometric_",
    "log_normal_"};
// Those whose generator is also their last positional argument (torch.poisson(input, generator)).
constexpr std::string_view kPositionalGenerator[] = {"poisson", "binomial"};

template <size_t N> bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// Takes generator=, or for kPositionalGenerator a trailing Generator, out of [a]; undef when there is none.
Value take_generator(CallArgs& a, std::string_view name) {
  for (auto it = a.kw.begin(); it != a.kw.end(); ++it)
    if (*it->first == "generator") {
      Value g = std::move(it->second);
      a.kw.erase(it);
      return g;
    }
  if (listed(kPositionalGenerator, name) && !a.pos.empty() && generator_obj(a.pos.back())) {
    Value g = std::move(a.pos.back());
    a.pos.pop_back();
    return g;
  }
  return Value::undef();
}

// Where the op's result lives: with its first tensor argument, else on device=, else on the default device.
rt::Device target_device(const CallArgs& a) {
  for (const Value& v : a.pos)
    if (const rt::Tensor* t = tensor_of(v)) return t->device();
  for (const auto& [key, v] : a.kw)
    if (const rt::Tensor* t = tensor_of(v)) return t->device();
  for (const auto& [key, v] : a.kw)
    if (*key == "device" && !v.is_none()) return device_of(v, a.span);
  return rt::current_context().default_device();
}

// PyTorch's device check: a cuda Generator for cuda results only, a cpu one for the host devices (cpu, and the xla
// and xpu that amps emulates on the host).
void check_device(const GeneratorObj& g, const CallArgs& a) {
  const rt::DeviceType want = target_device(a).type;
  const bool cuda = want == rt::DeviceType::cuda;
  if (cuda == (g.device.type == rt::DeviceType::cuda)) return;
  Interp::fail("RuntimeError", fmt::format("Expected a '{}' device type for generator but found '{}' (make the "
                                           "Generator with device=\"{}\")", cuda ? "cuda" : "cpu",
                                           rt::device_type_name(g.device.type), cuda ? "cuda" : "cpu"), a.span);
}

}  // namespace

GeneratorArg::GeneratorArg(const std::vector<rt::OpId>& ops, CallArgs& a) {
  if (!rt::op_has(ops[0], rt::opflag::random)) return;
  const std::string_view name = rt::op_name(ops[0]);
  if (!listed(kTakesGenerator, name)) return;
  const Value g = take_generator(a, name);
  if (g.is_undef() || g.is_none()) return;
  GeneratorObj* obj = generator_obj(g);
  if (!obj)
    Interp::fail("TypeError", fmt::format("{}(): argument 'generator' must be Generator, not {}", name, type_name(g)),
                 a.span);
  check_device(*obj, a);
  if (obj->drawing)
    Interp::fail("RuntimeError", fmt::format("{}(): the Generator is drawing for another thread's op (give each "
                                             "parallel call a Generator of its own)", name), a.span);
  obj_ = obj;
  obj_->drawing = true;
  guard_.emplace(*obj_->gen);
}

GeneratorArg::~GeneratorArg() {
  guard_.reset();
  if (obj_) obj_->drawing = false;
}

}  // namespace amps::interp
