// Script bindings of the AMP layer: autocast blocks, GradScaler objects, module `amp`, cast tracing.
#include "interp/amp_binding.hpp"
#include "interp/warnings.hpp"

#include <fmt/format.h>

#include "amp/autocast_layer.hpp"
#include "amp/grad_scaler.hpp"
#include "amp/precision_override.hpp"
#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/error.hpp"

namespace amps::interp {
namespace {

using amp::Policy;
using rt::DeviceType;

// GradScaler state found in a loaded checkpoint: the file, where in the loaded value it sits
// ("" for the value itself, `["scaler"]` or `[0]` one level down), and which load it was.
struct ScalerCheckpoint {
  std::string path, where;
  amp::GradScalerState state;
  uint64_t serial = 0;
};

// The AMP state of one interpreter (captured by its hooks and natives; no globals).
struct AmpState {
  std::shared_ptr<amp::AutocastLayer> layer;
  std::optional<rt::DType> precision_override;  // AMPS_USE_BF16 / AMPS_USE_F16
  bool override_warned = false;
  std::optional<ScalerCheckpoint> checkpoint;   // the first GradScaler state of the last load that had one
  uint64_t checkpoint_loads = 0;                // loads that held GradScaler state
};

// `FILE:LINE:COL: UserWarning: msg` on the err sink, as Python prints warnings.
void warn(Interp& in, const Span& where, const std::string& msg) {
  emit_warning(in, "UserWarning", msg, where);
}

std::string site_position(uint64_t site) {
  auto* stmt = reinterpret_cast<const Stmt*>(uintptr_t(site));
  return stmt ? format_position(stmt->span) : std::string("<unknown>");
}

// ---------------------------------------------------------------- device types and dtypes

std::optional<DeviceType> device_type_named(std::string_view s) {
  for (int d = 0; d < rt::device_type_count; ++d)
    if (rt::device_type_name(DeviceType(d)) == s.substr(0, s.find(':'))) return DeviceType(d);
  return std::nullopt;
}

// A device value or device-type string (autocast's DEV and amp.*'s device_type arguments).
DeviceType device_type_of(const Value& v) {
  if (v.is(ObjKind::Device)) return v.as<DeviceObj>()->device.type;
  if (!v.is(ObjKind::Str))
    throw rt::Error("ValueError", fmt::format("Expected `device_type` of type `str`, got: `{}`", type_name(v)));
  const std::string& s = v.as<Str>()->value;
  if (auto d = device_type_named(s)) return *d;
  throw rt::Error("RuntimeError", fmt::format("User specified an unsupported autocast device_type '{}'", s));
}

rt::DType dtype_arg(const Value& v, const char* what) {
  if (std::optional<rt::DType> d = script_dtype(v)) return *d;  // a dtype, or the builtins float/int/bool naming one
  throw rt::Error("TypeError", fmt::format("{} must be a dtype, not {}", what, type_name(v)));
}

// PyTorch's "target dtype is not supported" warning for [d] (torch_xla's TPU wording for xla).
std::string unsupported_dtype_message(DeviceType d) {
  switch (d) {
    case DeviceType::xla:
      return "In XLA:TPU autocast, but the target dtype is not supported. Disabling autocast.\n"
             "TPU Autocast only supports dtype of torch.bfloat16 currently.";
    case DeviceType::xpu:
      return "In XPU autocast, but the target dtype is not supported. Disabling autocast.\n"
             "XPU Autocast only supports dtypes of torch.bfloat16 and torch.float16 currently.";
    default: {
      std::string dev = d == DeviceType::cuda ? "CUDA" : "CPU";
      return fmt::format("In {0} autocast, but the target dtype is not supported. Disabling autocast.\n"
                         "{0} Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.", dev);
    }
  }
}

// ---------------------------------------------------------------- autocast blocks

// The checks PyTorch's autocast constructor makes when enabled; returns whether autocast stays on.
bool check_autocast_dtype(Interp& in, DeviceType d, rt::DType dtype, const Span& where) {
  if (d == DeviceType::cuda && !rt::cuda_available()) {
    warn(in, where, "CUDA is not available or torch_xla is imported. Disabling autocast.");
    return false;
  }
  auto ok = amp::supported_autocast_dtypes(d);
  if (std::find(ok.begin(), ok.end(), dtype) != ok.end()) return true;
  warn(in, where, unsupported_dtype_message(d));
  return false;
}

void warn_override_once(Interp& in, AmpState& st, const Span& where) {
  if (!st.precision_override || st.override_warned) return;
  st.override_warned = true;
  std::string var = *st.precision_override == rt::DType::bfloat16 ? "AMPS_USE_BF16" : "AMPS_USE_F16";
  warn(in, where, fmt::format("{} is set: every float32 op runs in {}, which overrides autocast's per-op precision",
                              var, rt::dtype_name(*st.precision_override)));
}

// autocast DEV<dtype, enabled=, cache=> { } and autocast(DEV, dtype=, enabled=, cache_enabled=): validates like
// torch.autocast's constructor and returns what enters the region; the guard it returns exits the region (restoring
// the previous state) when destroyed, however the block ends. torch.autocast's keyword `cache_enabled` is accepted
// for `cache`.
std::function<std::shared_ptr<void>()> autocast_prepare(Interp& in, AmpState& st, const Value& device, CallArgs& args) {
  DeviceType d = device_type_of(device);
  for (auto& [name, value] : args.kw)
    if (*name == "cache_enabled") name = intern("cache");
  ArgReader r(args, "autocast", {"dtype", "enabled", "cache"});
  rt::DType dtype = r.has(0) && !r.get(0).is_none() ? dtype_arg(r.get(0), "autocast dtype") : st.layer->state(d).dtype;
  bool enabled = r.has(1) ? in.truthy(r.get(1)) : true;
  bool cache = r.has(2) && !r.get(2).is_none() ? in.truthy(r.get(2)) : st.layer->cache_enabled();
  if (enabled) enabled = check_autocast_dtype(in, d, dtype, args.span);
  if (enabled) warn_override_once(in, st, args.span);
  return [layer = st.layer, d, enabled, dtype, cache]() -> std::shared_ptr<void> {
    return std::make_shared<amp::AutocastGuard>(layer, d, enabled, dtype, cache);
  };
}

// ---------------------------------------------------------------- optimizers seen by the scaler

void collect_tensors(Interp& in, const Value& items, std::vector<rt::Tensor>& out, const Span& where) {
  in.iterate(items, where, [&](Value v) {
    const rt::Tensor* t = tensor_of(v);
    if (!t) Interp::fail("TypeError", fmt::format("optimizer params must be tensors, got {}", type_name(v)), where);
    out.push_back(*t);
    return true;
  });
}

// A script optimizer object adapted to amp::ScalerOptimizer (the protocol in amp_binding.hpp).
struct ScriptOptimizer : amp::ScalerOptimizer {
  ScriptOptimizer(Interp& in, Value opt, CallArgs extra) : in(in), opt(std::move(opt)), extra(std::move(extra)) {}
  const void* identity() const override { return opt.is_obj() ? static_cast<const void*>(opt.obj()) : nullptr; }
  std::vector<rt::Tensor> params() override;
  bool supports_sync_free() const override { return flag("supports_sync_free"); }
  bool supports_amp_scaling() const override { return flag("supports_amp_scaling"); }
  bool flag(const char* name) const { return in.truthy(in.find_attr(opt, intern(name))); }
  void step(const rt::Tensor& found_inf, const rt::Tensor& scale) override;
  bool has_closure() const {
    return std::any_of(extra.kw.begin(), extra.kw.end(), [](const auto& kv) { return *kv.first == "closure"; });
  }
  Interp& in;
  Value opt;
  CallArgs extra;  // scaler.step's extra arguments, passed on to opt.step
  Value result;    // what opt.step returned
};

std::vector<rt::Tensor> ScriptOptimizer::params() {
  std::vector<rt::Tensor> out;
  Value groups = in.find_attr(opt, intern("param_groups"));
  if (!groups.is_undef() && !groups.is_none()) {
    in.iterate(groups, extra.span, [&](Value g) {
      Value* ps = g.is(ObjKind::Dict) ? g.as<Dict>()->find(make_str("params")) : nullptr;
      if (!ps) Interp::fail("TypeError", "optimizer param_groups must be dicts with a \"params\" list", extra.span);
      collect_tensors(in, *ps, out, extra.span);
      return true;
    });
    return out;
  }
  Value ps = in.find_attr(opt, intern("params"));
  if (ps.is(ObjKind::BoundMethod) || ps.is(ObjKind::Native) || ps.is(ObjKind::Function)) ps = in.call(ps, std::vector<Value>{});
  if (ps.is_undef())
    Interp::fail("TypeError", fmt::format("GradScaler: '{}' object has neither param_groups nor params", type_name(opt)), extra.span);
  collect_tensors(in, ps, out, extra.span);
  return out;
}

void ScriptOptimizer::step(const rt::Tensor& found_inf, const rt::Tensor& scale) {
  Value method = in.get_attr(opt, intern("step"), extra.span);
  CallArgs call = extra;
  if (found_inf.defined() && supports_amp_scaling()) {
    call.kw.emplace_back(intern("found_inf"), wrap(found_inf));
    call.kw.emplace_back(intern("grad_scale"), scale.defined() ? wrap(scale) : Value());
  } else if (found_inf.defined()) {
    call.kw.emplace_back(intern("found_inf"), wrap(found_inf));
    call.kw.emplace_back(intern("scale"), wrap(scale));
  }
  result = in.call(method, call);
}

// ---------------------------------------------------------------- GradScaler objects

struct ScalerObj : Opaque {
  ScalerObj(amp::GradScalerOptions o, std::shared_ptr<AmpState> st) : core(o), amp_state(std::move(st)), fresh(o.enabled) {}
  std::string type_name() const override { return "GradScaler"; }
  Value get_attr(Interp& in, Atom name) override;
  amp::GradScaler core;
  std::shared_ptr<AmpState> amp_state;
  // Enabled, and no load_state_dict, update, step or resume warning yet: scale() and step() check
  // whether a loaded checkpoint holds scaler state this one ignores.
  bool fresh;
  uint64_t checked_load = 0;   // the checkpoint load it was last compared with
};

ScalerObj& self_of(CallArgs& a) { return *static_cast<ScalerObj*>(a.pos.at(0).obj()); }

// ---------------------------------------------------------------- resuming from checkpoints

// The keys of GradScaler.state_dict(), in PyTorch's order.
constexpr const char* kScalerStateKeys[] = {"scale", "growth_factor", "backoff_factor", "growth_interval", "_growth_tracker"};

// [v] as a GradScaler state dict: a dict with exactly kScalerStateKeys, each a number.
std::optional<amp::GradScalerState> scaler_state_of(const Value& v) {
  if (!v.is(ObjKind::Dict) || v.as<Dict>()->size() != std::size(kScalerStateKeys)) return std::nullopt;
  double x[std::size(kScalerStateKeys)];
  for (size_t i = 0; i < std::size(x); ++i) {
    const Value* e = v.as<Dict>()->find(make_str(kScalerStateKeys[i]));
    if (!e || !e->is_number()) return std::nullopt;
    x[i] = e->to_double();
  }
  return amp::GradScalerState{x[0], x[1], x[2], int64_t(x[3]), int64_t(x[4])};
}

// The first GradScaler state dict in [loaded]: itself, else a dict value or list/tuple item.
std::optional<ScalerCheckpoint> find_scaler_state(Interp& in, const Value& loaded) {
  if (auto sd = scaler_state_of(loaded)) return ScalerCheckpoint{{}, "", *sd};
  std::vector<std::pair<std::string, Value>> children;
  if (loaded.is(ObjKind::Dict))
    for (auto& [k, v] : loaded.as<Dict>()->entries)
      children.emplace_back(k.is(ObjKind::Str) ? fmt::format("[\"{}\"]", k.as<Str>()->value) : "[" + in.repr(k) + "]", v);
  const std::vector<Value>* items = loaded.is(ObjKind::List) ? &loaded.as<List>()->items
                                  : loaded.is(ObjKind::Tuple) ? &loaded.as<Tuple>()->items : nullptr;
  for (size_t i = 0; items && i < items->size(); ++i) children.emplace_back(fmt::format("[{}]", i), (*items)[i]);
  for (auto& [where, v] : children)
    if (auto sd = scaler_state_of(v)) return ScalerCheckpoint{{}, where, *sd};
  return std::nullopt;
}

// in.checkpoint_loaded: remembers GradScaler state in what load(path) returned.
void note_checkpoint(AmpState& st, Interp& in, const std::string& path, const Value& loaded) {
  std::optional<ScalerCheckpoint> found = find_scaler_state(in, loaded);
  if (!found) return;
  found->path = path;
  found->serial = ++st.checkpoint_loads;
  st.checkpoint = std::move(found);
}

bool same_state(const amp::GradScalerState& a, const amp::GradScalerState& b) {
  return a.scale == b.scale && a.growth_factor == b.growth_factor && a.backoff_factor == b.backoff_factor &&
         a.growth_interval == b.growth_interval && a.growth_tracker == b.growth_tracker;
}

// Before a fresh scaler's scale() or step(): warns once when a checkpoint loaded in this interpreter
// holds GradScaler state that differs from the fresh one (training would restart the loss scale).
void check_resume(Interp& in, ScalerObj& s, const Span& where) {
  const std::optional<ScalerCheckpoint>& ck = s.amp_state->checkpoint;
  if (!ck || ck->serial == s.checked_load) return;
  s.checked_load = ck->serial;
  std::optional<amp::GradScalerState> mine = s.core.state_dict();
  if (!mine || same_state(*mine, ck->state)) return;
  s.fresh = false;
  warn(in, where, fmt::format("the checkpoint loaded from {} holds GradScaler state (scale={}) but this GradScaler "
                              "starts fresh (scale={}); call scaler.load_state_dict(ckpt{}) to resume it",
                              ck->path, in.repr(Value(ck->state.scale)), in.repr(Value(mine->scale)), ck->where));
}

// scaler.scale(outputs): tensors and nested lists/tuples of them (same container types back).
Value scale_value(Interp& in, amp::GradScaler& s, const Value& v) {
  if (const rt::Tensor* t = tensor_of(v)) return wrap(s.scale(*t));
  if (v.is(ObjKind::List) || v.is(ObjKind::Tuple)) {
    const auto& items = v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items;
    std::vector<Value> out;
    for (const Value& x : items) out.push_back(scale_value(in, s, x));
    return v.is(ObjKind::List) ? make_list(std::move(out)) : make_tuple(std::move(out));
  }
  throw rt::Error("ValueError", "outputs must be a Tensor or an iterable of Tensors");
}

Value m_scale(Interp& in, CallArgs& a) {
  ArgReader r(a, "scale", {"self", "outputs"});
  ScalerObj& s = self_of(a);
  if (s.fresh) check_resume(in, s, a.span);
  return s.core.is_enabled() ? scale_value(in, s.core, r.required(1)) : r.required(1);
}

Value m_unscale(Interp& in, CallArgs& a) {
  ArgReader r(a, "unscale_", {"self", "optimizer"});
  ScriptOptimizer opt(in, r.required(1), CallArgs{{}, {}, a.span});
  self_of(a).core.unscale_(opt);
  return Value();
}

// scaler.step(optimizer, *args, **kwargs): extra arguments go to optimizer.step.
Value m_step(Interp& in, CallArgs& a) {
  if (a.pos.size() < 2) throw rt::Error("TypeError", "step() missing 1 required positional argument: 'optimizer'");
  CallArgs extra{std::vector<Value>(a.pos.begin() + 2, a.pos.end()), a.kw, a.span};
  ScriptOptimizer opt(in, a.pos[1], std::move(extra));
  ScalerObj& s = self_of(a);
  if (s.fresh) check_resume(in, s, a.span);
  bool stepped = s.core.step(opt, opt.has_closure());
  s.fresh = false;
  return stepped ? opt.result : Value();
}

// update(new_scale=none): a float sets the scale; a tensor is checked and copied; an int is neither
// (PyTorch then fails reading new_scale.device).
Value m_update(Interp&, CallArgs& a) {
  ArgReader r(a, "update", {"self", "new_scale"});
  self_of(a).fresh = false;
  amp::GradScaler& s = self_of(a).core;
  if (!r.has(1) || r.get(1).is_none()) s.update();
  else if (r.get(1).is_float()) s.update(r.get(1).as_float());
  else if (const rt::Tensor* t = tensor_of(r.get(1))) s.update(*t);
  else if (s.is_enabled() && !s.scale_tensor().defined()) s.update();  // PyTorch's "_scale is None" guard comes first
  else if (s.is_enabled())
    throw rt::Error("AttributeError", fmt::format("'{}' object has no attribute 'device'", type_name(r.get(1))));
  return Value();
}

Value m_state_dict(Interp&, CallArgs& a) {
  auto sd = self_of(a).core.state_dict();
  auto d = make<Dict>();
  if (!sd) return d;
  const Value values[] = {sd->scale, sd->growth_factor, sd->backoff_factor, sd->growth_interval, sd->growth_tracker};
  static_assert(std::size(values) == std::size(kScalerStateKeys));
  for (size_t i = 0; i < std::size(values); ++i) d->set(make_str(kScalerStateKeys[i]), values[i]);
  return d;
}

double number_at(Dict& d, const char* key) {
  Value* v = d.find(make_str(key));
  if (!v) throw rt::Error("KeyError", fmt::format("'{}'", key));
  if (!v->is_number()) throw rt::Error("TypeError", fmt::format("state dict entry '{}' must be a number", key));
  return v->to_double();
}

Value m_load_state_dict(Interp&, CallArgs& a) {
  ArgReader r(a, "load_state_dict", {"self", "state_dict"});
  if (!r.required(1).is(ObjKind::Dict)) r.type_error(1, "a dict");
  Dict& d = *r.get(1).as<Dict>();
  self_of(a).fresh = false;
  amp::GradScaler& s = self_of(a).core;
  if (!s.is_enabled()) return Value();
  if (d.size() == 0) return s.load_state_dict(std::nullopt), Value();
  s.load_state_dict(amp::GradScalerState{number_at(d, "scale"), number_at(d, "growth_factor"),
                                         number_at(d, "backoff_factor"), int64_t(number_at(d, "growth_interval")),
                                         int64_t(number_at(d, "_growth_tracker"))});
  return Value();
}

// Getters and setters: one-liners over the core.
Value m_get(CallArgs& a, double (amp::GradScaler::*get)() const) { return (self_of(a).core.*get)(); }

Value m_set_float(CallArgs& a, const char* name, void (amp::GradScaler::*set)(double)) {
  ArgReader r(a, name, {"self", "value"});
  if (!r.required(1).is_number()) r.type_error(1, "a number");
  (self_of(a).core.*set)(r.float_or(1, 0.0));
  return Value();
}

using Method = Value (*)(Interp&, CallArgs&);
const std::map<std::string, Method, std::less<>>& scaler_methods() {
  static const std::map<std::string, Method, std::less<>> m = {
      {"scale", m_scale}, {"unscale_", m_unscale}, {"step", m_step}, {"update", m_update},
      {"state_dict", m_state_dict}, {"load_state_dict", m_load_state_dict},
      {"get_scale", [](Interp&, CallArgs& a) { return m_get(a, &amp::GradScaler::get_scale); }},
      {"get_growth_factor", [](Interp&, CallArgs& a) { return m_get(a, &amp::GradScaler::get_growth_factor); }},
      {"get_backoff_factor", [](Interp&, CallArgs& a) { return m_get(a, &amp::GradScaler::get_backoff_factor); }},
      {"get_growth_interval", [](Interp&, CallArgs& a) { return Value(self_of(a).core.get_growth_interval()); }},
      {"_get_growth_tracker", [](Interp&, CallArgs& a) { return Value(self_of(a).core.growth_tracker()); }},
      {"is_enabled", [](Interp&, CallArgs& a) { return Value(self_of(a).core.is_enabled()); }},
      {"set_growth_factor", [](Interp&, CallArgs& a) { return m_set_float(a, "set_growth_factor", &amp::GradScaler::set_growth_factor); }},
      {"set_backoff_factor", [](Interp&, CallArgs& a) { return m_set_float(a, "set_backoff_factor", &amp::GradScaler::set_backoff_factor); }},
      {"set_growth_interval", [](Interp&, CallArgs& a) {
         ArgReader r(a, "set_growth_interval", {"self", "value"});
         self_of(a).core.set_growth_interval(r.int_or(1, 0));
         return Value();
       }},
  };
  return m;
}

Value ScalerObj::get_attr(Interp&, Atom name) {
  auto it = scaler_methods().find(*name);
  if (it == scaler_methods().end()) return Value::undef();
  return make<BoundMethod>(Value(this), make<Native>(*name, it->second));
}

// GradScaler(init_scale=65536.0, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
// enabled=true, device=none)
Value b_grad_scaler(Interp& in, const std::shared_ptr<AmpState>& st, CallArgs& a) {
  ArgReader r(a, "GradScaler", {"init_scale", "growth_factor", "backoff_factor", "growth_interval", "enabled", "device"});
  amp::GradScalerOptions o{r.float_or(0, 65536.0), r.float_or(1, 2.0), r.float_or(2, 0.5), r.int_or(3, 2000),
                           r.bool_or(4, true)};
  bool cuda = r.has(5) && !r.get(5).is_none() && device_type_of(r.get(5)) == DeviceType::cuda;
  if (o.enabled && cuda && !rt::cuda_available()) {
    warn(in, a.span, "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.");
    o.enabled = false;
  }
  Value obj = make<ScalerObj>(o, st);
  if (o.enabled) in.active_scaler = obj;
  return obj;
}

// ---------------------------------------------------------------- module amp

rt::OpId op_named(const std::string& name) {
  if (auto op = rt::op_from_id_name(name)) return *op;
  for (int i = 0; i < rt::op_count; ++i)
    if (rt::op_name(rt::OpId(i)) == name) return rt::OpId(i);
  throw rt::Error("ValueError", fmt::format("unknown op '{}'", name));
}

std::string str_arg(const ArgReader& r, size_t i) {
  if (!r.required(i).is(ObjKind::Str)) r.type_error(i, "a str");
  return r.get(i).as<Str>()->value;
}

Value m_cast_policy(AmpState& st, CallArgs& a) {
  ArgReader r(a, "cast_policy", {"device_type", "op"});
  return make_str(std::string(amp::policy_name(st.layer->policy(device_type_of(r.required(0)), op_named(str_arg(r, 1))))));
}

Value m_ops(AmpState& st, CallArgs& a) {
  ArgReader r(a, "ops", {"device_type", "policy"});
  DeviceType d = device_type_of(r.required(0));
  std::string name = str_arg(r, 1);
  auto p = amp::policy_from_name(name);
  if (!p)
    throw rt::Error("ValueError", fmt::format("unknown policy '{}'; expected one of lower_precision_fp, fp32, "
                                              "fp32_set_opt_dtype, fp32_append_dtype, promote, banned, none", name));
  std::vector<Value> out;
  for (int i = 0; i < rt::op_count; ++i)
    if (st.layer->policy(d, rt::OpId(i)) == *p) out.push_back(make_str(std::string(rt::op_id_name(rt::OpId(i)))));
  return make_list(std::move(out));
}

// amp.why(t): the decision that gave [t] its dtype, with the source position of the statement.
Value m_why(AmpState& st, CallArgs& a) {
  ArgReader r(a, "why", {"tensor"});
  const rt::Tensor* t = tensor_of(r.required(0));
  if (!t) r.type_error(0, "a Tensor");
  auto d = st.layer->provenance(*t);
  if (!d)
    return make_str(fmt::format("{}: no autocast decision made this tensor (created outside an autocast region, or "
                                "by an in-place or out= call)", rt::dtype_name(t->dtype())));
  return make_str(amp::explain(*d) + (d->site ? " at " + site_position(d->site) : ""));
}

void def(Module& m, const char* name, Native::Fn fn) { m.attrs[intern(name)] = make<Native>(name, std::move(fn)); }
// ---------------------------------------------------------------- decorators: custom_fwd/bwd, apex

// [v] with every tensor (also inside lists/tuples) replaced by f(original value, tensor).
template <class F> Value map_tensors(const Value& v, F& f) {
  if (const rt::Tensor* t = tensor_of(v)) return f(v, *t);
  if (!v.is(ObjKind::List) && !v.is(ObjKind::Tuple)) return v;
  std::vector<Value> out;
  for (const Value& x : v.is(ObjKind::List) ? v.as<List>()->items : v.as<Tuple>()->items) out.push_back(map_tensors(x, f));
  return v.is(ObjKind::List) ? make_list(std::move(out)) : make_tuple(std::move(out));
}

// Applies map_tensors to the call's positional arguments from [skip] on and to its keyword arguments.
template <class F> void map_call_tensors(CallArgs& a, F&& f, size_t skip) {
  for (size_t i = skip; i < a.pos.size(); ++i) a.pos[i] = map_tensors(a.pos[i], f);
  for (auto& kv : a.kw) kv.second = map_tensors(kv.second, f);
}

// Casts the call's tensors together as policy [p] would inside the current region (cache and promote
// rules included); nothing happens outside autocast.
void cast_call(AmpState& st, CallArgs& a, Policy p) {
  rt::Args flat;
  map_call_tensors(a, [&](const Value& v, const rt::Tensor& t) { return flat.push_back(rt::IValue(t)), v; }, 0);
  st.layer->cast_for_policy(flat, p);
  size_t i = 0;
  map_call_tensors(a, [&](const Value& v, const rt::Tensor& t) {
    const rt::Tensor& c = flat[i++].tensor();
    return c.is_same(t) ? v : wrap(c);
  }, 0);
}

// apex's half_function / float_function / promote_function: [fn] with its tensor arguments cast by
// [p] whenever it is called inside an autocast region (the region's dtype stands for apex's fp16).
Value cast_wrapper(std::shared_ptr<AmpState> st, Value fn, Policy p) {
  return make<Native>(callee_name(fn), [st, fn, p](Interp& in, CallArgs& a) {
    cast_call(*st, a, p);
    return in.call(fn, a);
  });
}

// The device type custom_fwd/custom_bwd consult: device_type= when given, else the first tensor's.
DeviceType decorator_device(const std::optional<DeviceType>& given, CallArgs& a) {
  if (given) return *given;
  std::optional<DeviceType> found;
  map_call_tensors(a, [&](const Value& v, const rt::Tensor& t) { if (!found) found = t.device().type; return v; }, 1);
  return found.value_or(DeviceType::cpu);
}

// torch.amp.custom_fwd: records the autocast state on ctx (args[0]) for custom_bwd; with cast_inputs
// and autocast on, casts eligible tensors to it and runs forward with autocast off.
Value custom_fwd(std::shared_ptr<AmpState> st, Value fwd, std::optional<DeviceType> dev, std::optional<rt::DType> cast_to) {
  return make<Native>(callee_name(fwd), [st, fwd, dev, cast_to](Interp& in, CallArgs& a) {
    if (a.pos.empty()) throw rt::Error("TypeError", "custom_fwd: the forward needs ctx as its first argument");
    DeviceType d = decorator_device(dev, a);
    amp::DeviceAutocast s = st->layer->state(d);
    in.set_attr(a.pos[0], intern("_dtype"), wrap_dtype(s.dtype), a.span);
    in.set_attr(a.pos[0], intern("_fwd_used_autocast"), Value(s.enabled && !cast_to), a.span);
    if (!cast_to || !s.enabled) return in.call(fwd, a);
    map_call_tensors(a, [&](const Value& v, const rt::Tensor& t) { return amp::is_eligible(t, d) ? wrap(t.to(*cast_to)) : v; }, 1);
    amp::AutocastGuard off(st->layer, d, false, s.dtype, st->layer->cache_enabled());
    return in.call(fwd, a);
  });
}

// torch.amp.custom_bwd: runs backward under the autocast state custom_fwd recorded on ctx.
Value custom_bwd(std::shared_ptr<AmpState> st, Value bwd, std::optional<DeviceType> dev) {
  return make<Native>(callee_name(bwd), [st, bwd, dev](Interp& in, CallArgs& a) {
    if (a.pos.empty()) throw rt::Error("TypeError", "custom_bwd: the backward needs ctx as its first argument");
    DeviceType d = decorator_device(dev, a);
    Value used = in.find_attr(a.pos[0], intern("_fwd_used_autocast")), dt = in.find_attr(a.pos[0], intern("_dtype"));
    rt::DType dtype = dt.is(ObjKind::DType) ? dt.as<DTypeObj>()->dtype : st->layer->state(d).dtype;
    amp::AutocastGuard region(st->layer, d, !used.is_undef() && in.truthy(used), dtype, st->layer->cache_enabled());
    return in.call(bwd, a);
  });
}

// @amp.custom_fwd, @amp.custom_fwd(device_type=, cast_inputs=), and the same for custom_bwd.
Value b_custom_fwd(std::shared_ptr<AmpState> st, CallArgs& a, bool forward) {
  ArgReader r(a, forward ? "custom_fwd" : "custom_bwd", {"fn", "device_type", "cast_inputs"});
  std::optional<DeviceType> dev;
  if (r.has(1) && !r.get(1).is_none()) dev = device_type_of(r.get(1));
  std::optional<rt::DType> cast_to;
  if (r.has(2) && !r.get(2).is_none()) cast_to = dtype_arg(r.get(2), "cast_inputs");
  auto make_one = [st, dev, cast_to, forward](Value fn) { return forward ? custom_fwd(st, fn, dev, cast_to) : custom_bwd(st, fn, dev); };
  if (r.has(0) && !r.get(0).is_none()) return make_one(r.get(0));
  return make<Native>(forward ? "custom_fwd" : "custom_bwd", [make_one](Interp&, CallArgs& d) {
    ArgReader rd(d, "decorator", {"fn"});
    return make_one(rd.required(0));
  });
}

// apex's register_*_function(module, name): replaces module.name by its cast wrapper.
Value b_register(std::shared_ptr<AmpState> st, Interp& in, CallArgs& a, Policy p) {
  ArgReader r(a, "register_function", {"module", "name"});
  std::string name = str_arg(r, 1);
  Value fn = in.find_attr(r.required(0), intern(name));
  std::string owner = r.get(0).is(ObjKind::Module) ? r.get(0).as<Module>()->name : type_name(r.get(0));
  if (fn.is_undef()) throw rt::Error("ValueError", fmt::format("No function named {} in module {}.", name, owner));
  in.set_attr(r.get(0), intern(name), cast_wrapper(st, fn, p), a.span);
  return Value();
}


void init_decorators(Module& m, std::shared_ptr<AmpState> st) {
  def(m, "custom_fwd", [st](Interp&, CallArgs& a) { return b_custom_fwd(st, a, true); });
  def(m, "custom_bwd", [st](Interp&, CallArgs& a) { return b_custom_fwd(st, a, false); });
  const std::pair<const char*, Policy> kinds[] = {
      {"half", Policy::lower_precision_fp}, {"float", Policy::fp32}, {"promote", Policy::promote}};
  for (auto [kind, p] : kinds) {
    Policy pol = p;
    def(m, (std::string(kind) + "_function").c_str(), [st, pol](Interp&, CallArgs& a) {
      ArgReader r(a, "function", {"fn"});
      return cast_wrapper(st, r.required(0), pol);
    });
    def(m, ("register_" + std::string(kind) + "_function").c_str(),
        [st, pol](Interp& in, CallArgs& a) { return b_register(st, in, a, pol); });
  }
}

void init_amp_module(Interp& in, Module& m, std::shared_ptr<AmpState> st) {
  m.attrs[intern("GradScaler")] = in.lookup_global("GradScaler");
  def(m, "cast_policy", [st](Interp&, CallArgs& a) { return m_cast_policy(*st, a); });
  def(m, "ops", [st](Interp&, CallArgs& a) { return m_ops(*st, a); });
  def(m, "why", [st](Interp&, CallArgs& a) { return m_why(*st, a); });
  def(m, "get_autocast_dtype", [st](Interp&, CallArgs& a) {
    ArgReader r(a, "get_autocast_dtype", {"device_type"});
    return wrap_dtype(st->layer->state(device_type_of(r.required(0))).dtype);
  });
  def(m, "is_autocast_enabled", [st](Interp&, CallArgs& a) {
    ArgReader r(a, "is_autocast_enabled", {"device_type"});
    return Value(st->layer->state(device_type_of(r.required(0))).enabled);
  });
  def(m, "is_autocast_cache_enabled", [st](Interp&, CallArgs&) { return Value(st->layer->cache_enabled()); });
  init_decorators(m, st);
  def(m, "cast_cache_size", [st](Interp&, CallArgs&) { return Value(int64_t(st->layer->cache_size())); });
  def(m, "clear_autocast_cache", [st](Interp&, CallArgs&) { return st->layer->clear_cache(), Value(); });
  if (Value autocast = in.lookup_builtin("autocast"); !autocast.is_undef()) m.attrs[intern("autocast")] = autocast;
}

// torch's top-level autocast queries of PyTorch 1.13 (is_autocast_enabled() asks about CUDA), reading the state the
// `autocast dev<dtype> { }` blocks set, as amp.is_autocast_enabled(device_type) does. Their set_* twins are left out:
// autocast state changes only through the block syntax, which restores it on every exit.
void install_autocast_queries(Interp& in, std::shared_ptr<AmpState> st) {
  auto enabled = [st](DeviceType d) { return Value(st->layer->state(d).enabled); };
  in.def_native("is_autocast_enabled", [enabled](Interp&, CallArgs& a) {
    ArgReader r(a, "is_autocast_enabled", {});
    return enabled(DeviceType::cuda);
  });
  in.def_native("is_autocast_cpu_enabled", [enabled](Interp&, CallArgs& a) {
    ArgReader r(a, "is_autocast_cpu_enabled", {});
    return enabled(DeviceType::cpu);
  });
  in.def_native("get_autocast_gpu_dtype", [st](Interp&, CallArgs& a) {
    ArgReader r(a, "get_autocast_gpu_dtype", {});
    return wrap_dtype(st->layer->state(DeviceType::cuda).dtype);
  });
  in.def_native("get_autocast_cpu_dtype", [st](Interp&, CallArgs& a) {
    ArgReader r(a, "get_autocast_cpu_dtype", {});
    return wrap_dtype(st->layer->state(DeviceType::cpu).dtype);
  });
  in.def_native("is_autocast_cache_enabled", [st](Interp&, CallArgs& a) {
    ArgReader r(a, "is_autocast_cache_enabled", {});
    return Value(st->layer->cache_enabled());
  });
}

void install_tracing(Interp& in, amp::AutocastLayer& layer) {
  layer.set_site_provider([&in] { return uint64_t(reinterpret_cast<uintptr_t>(in.current_stmt())); });
  layer.set_trace([&in](const amp::CastDecision& d) {
    if (!in.trace_casts) return;
    in.write_err(fmt::format("{}: autocast: {}\n", site_position(d.site), amp::describe(d)));
  });
}

}  // namespace

void install_amp_builtins(Interp& in) {
  auto st = std::make_shared<AmpState>();
  st->layer = amp::install_autocast(in.runtime());
  install_tracing(in, *st->layer);
  st->precision_override = amp::precision_override_from_env();
  if (st->precision_override)
    in.runtime().add_layer(std::make_shared<amp::PrecisionOverrideLayer>(*st->precision_override),
                           amp::layer_order_amp::precision_override);
  in.hooks.autocast_enter = [st](Interp& i, const Value& dev, CallArgs& a) { return autocast_prepare(i, *st, dev, a)(); };
  in.hooks.autocast_prepare = [st](Interp& i, const Value& dev, CallArgs& a) { return autocast_prepare(i, *st, dev, a); };
  def_type(in, "GradScaler", [st](Interp& i, CallArgs& a) { return b_grad_scaler(i, st, a); });
  in.checkpoint_loaded = [st](Interp& i, const std::string& path, const Value& v) { note_checkpoint(*st, i, path, v); };
  in.def_module("amp", [st](Interp& i, Module& m) { init_amp_module(i, m, st); });
  install_autocast_queries(in, st);
}

}  // namespace amps::interp
