// amps.hpp: the C++ face of the embedding API: amps.h's functions behind RAII handles, results
// instead of status codes, std::function natives, static native tables (amps::native<f>), an
// argument reader (amps::Args) and host objects (amps::Object). Header-only; links against libamps.
//
// Ownership: amps::Value owns one amps_value reference (copies add one); amps::Vm owns its
// interpreter and the host callbacks (sinks, loader, natives), which live exactly as long as it.
// The rules of amps.h hold: one thread per Vm at a time, except interrupt(); release Values before
// their Vm dies, except tensors.
//
// Errors inside natives: throw amps::ScriptError(kind, message) to raise at the call; let an
// amps::Failed (thrown by Result::get() and the Vm helpers for natives) escape to re-raise the
// failure of a call back into the vm unchanged.
#pragma once

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "amps/amps.h"

namespace amps {

enum class CastRule { none = AMPS_CAST_NONE, lower = AMPS_CAST_LOWER, fp32 = AMPS_CAST_FP32, promote = AMPS_CAST_PROMOTE };

// A script value held by the host; an empty Value holds nothing (distinct from none()).
class Value {
 public:
  Value() = default;
  static Value adopt(amps_value* v) { Value r; r.v_ = v; return r; }   // takes over the reference
  static Value borrow(const amps_value* v) { return adopt(v ? amps_retain(v) : nullptr); }
  static Value none() { return adopt(amps_none()); }
  static Value of(bool b) { return adopt(amps_bool(b)); }
  static Value of(int64_t i) { return adopt(amps_int(i)); }
  static Value of(int i) { return adopt(amps_int(i)); }
  static Value of(double d) { return adopt(amps_float(d)); }
  static Value of(std::string_view s) { return adopt(amps_str(s.data(), s.size())); }
  Value(const Value& o) : v_(o.v_ ? amps_retain(o.v_) : nullptr) {}
  Value(Value&& o) noexcept : v_(std::exchange(o.v_, nullptr)) {}
  Value& operator=(Value o) noexcept { std::swap(v_, o.v_); return *this; }
  ~Value() { amps_release(v_); }

  static Value list(const std::vector<Value>& items) { return adopt(amps_list(items.size(), raw(items).data())); }
  static Value tuple(const std::vector<Value>& items) { return adopt(amps_tuple(items.size(), raw(items).data())); }
  static Value dict() { return adopt(amps_dict()); }
  static Value dtype(amps_dtype d) { return adopt(amps_dtype_value(d)); }

  amps_value* get() const { return v_; }
  // Hands the reference over (for amps_* functions that take one over); this Value becomes empty.
  amps_value* release() { return std::exchange(v_, nullptr); }
  explicit operator bool() const { return v_ != nullptr; }
  amps_type type() const { return amps_typeof(v_); }
  bool is(amps_type t) const { return v_ && amps_typeof(v_) == t; }
  bool is_none() const { return is(AMPS_TYPE_NONE); }
  bool is_number() const { return is(AMPS_TYPE_INT) || is(AMPS_TYPE_FLOAT) || is(AMPS_TYPE_BOOL); }
  // type(v)'s name: "int", "list", "Tensor", a class name (static storage).
  const char* type_name() const { return amps_type_name(v_); }

 private:
  static std::vector<amps_value*> raw(const std::vector<Value>& items) {
    std::vector<amps_value*> out;
    for (const Value& v : items) out.push_back(v.get());
    return out;
  }
  amps_value* v_ = nullptr;
};

// A failure of a run, call or API use: amps.h's amps_error, copied.
struct Error {
  amps_status status = AMPS_OK;
  std::string kind, message, file;
  uint32_t line = 0, column = 0;
  std::string diagnostic;
};

// Thrown by Result::get() and the Vm helpers for natives when an amps_* call failed. A native or
// host-object hook that lets it escape returns the failure's status, which re-raises that error in
// the script unchanged (kind, position, call stack; see amps_native_fn).
struct Failed : std::runtime_error {
  explicit Failed(Error e) : std::runtime_error(e.message), error(std::move(e)) {}
  Error error;
};

// The value of a successful run/call, or its error.
struct Result {
  Value value;
  std::optional<Error> error;
  explicit operator bool() const { return !error; }
  // The value; throws Failed when there is an error.
  const Value& get() const {
    if (error) throw Failed(*error);
    return value;
  }
};

// Thrown from a native to raise an amps error of `kind` in the script.
struct ScriptError : std::runtime_error {
  ScriptError(std::string k, const std::string& msg) : std::runtime_error(msg), kind(std::move(k)) {}
  std::string kind;
};

class Vm;
class Call;
using NativeFn = std::function<Value(Vm&, Call&)>;

// One row of a registration table.
struct Native {
  std::string name;
  NativeFn fn;
  CastRule cast = CastRule::none;
};

// The arguments of one native call (valid during the call).
class Call {
 public:
  explicit Call(amps_args* c) : c_(c) {}
  amps_args* get() const { return c_; }
  size_t size() const { return amps_arg_count(c_); }
  Value arg(size_t i) const { return Value::borrow(amps_arg(c_, i)); }
  Value kwarg(const char* name) const { return Value::borrow(amps_kwarg(c_, name)); }
  // The keyword arguments in call order: name and value of keyword [i].
  size_t kw_size() const { return amps_kwarg_count(c_); }
  std::pair<std::string, Value> kw(size_t i) const {
    const char* name = nullptr;
    Value v = Value::borrow(amps_kwarg_at(c_, i, &name));
    return {name ? name : "", std::move(v)};
  }

 private:
  amps_args* c_;
};

struct Config {
  std::function<void(std::string_view)> write;       // script output; empty: stdout
  std::function<void(std::string_view)> diagnostic;  // warnings and traces; empty: stderr
  std::function<std::optional<std::string>(const std::string& name)> load_module;
  std::vector<std::string> module_roots;
  std::string default_device;                        // empty: cpu
  bool sandbox = false, imports_only_from_roots = false, no_stdlib = false;
  uint64_t step_budget = 0;
  std::chrono::milliseconds time_budget{0};
  std::vector<std::string> args;
  amps_alloc_fn alloc = nullptr;                     // see amps_config; alloc_user outlives every tensor
  amps_free_fn free = nullptr;
  void* alloc_user = nullptr;
};

class Vm {
 public:
  // Creates an interpreter; throws std::runtime_error when amps_new fails (its message went to the
  // diagnostic sink).
  explicit Vm(Config cfg = {}) : state_(std::make_unique<State>()) {
    state_->cfg = std::move(cfg);
    std::vector<const char*> roots = c_strings(state_->cfg.module_roots), argv = c_strings(state_->cfg.args);
    amps_config c = c_config(roots, argv);
    if (amps_new(&c, &vm_) != AMPS_OK) throw std::runtime_error("amps_new failed");
  }
  Vm(Vm&& o) noexcept : state_(std::move(o.state_)), vm_(std::exchange(o.vm_, nullptr)) {}
  Vm& operator=(Vm&&) = delete;
  ~Vm() { if (state_) amps_free(vm_); }

  // A non-owning view of [vm] (what natives receive); cannot register natives.
  static Vm borrow(amps_vm* vm) { return Vm(vm); }
  amps_vm* get() const { return vm_; }

  Result run(std::string_view code, const char* name = "<string>") {
    std::string text(code);
    amps_value* out = nullptr;
    return result(amps_run(vm_, name, text.c_str(), &out), out);
  }
  Result run_file(const std::string& path) {
    amps_value* out = nullptr;
    return result(amps_run_file(vm_, path.c_str(), &out), out);
  }
  Result call(const Value& fn, const std::vector<Value>& args = {}) {
    std::vector<amps_value*> argv;
    for (const Value& a : args) argv.push_back(a.get());
    amps_value* out = nullptr;
    return result(amps_call(vm_, fn.get(), argv.size(), argv.data(), &out), out);
  }
  Result global(const char* name) {
    amps_value* out = nullptr;
    return result(amps_get_global(vm_, name, &out), out);
  }
  Result attr(const Value& obj, const char* name) {
    amps_value* out = nullptr;
    return result(amps_get_attr(vm_, obj.get(), name, &out), out);
  }
  // obj.name(args...)
  Result call_method(const Value& obj, const char* name, const std::vector<Value>& args = {}) {
    Result m = attr(obj, name);
    return m ? call(m.value, args) : m;
  }
  std::optional<Error> set_global(const char* name, const Value& v) { return check_opt(amps_set_global(vm_, name, v.get())); }
  // Thread-safe: stops the running script at its next safe point (a catchable KeyboardInterrupt).
  void interrupt() { amps_interrupt(vm_); }

  std::optional<Error> register_globals(std::vector<Native> table) { return register_table(nullptr, std::move(table), nullptr); }
  std::optional<Error> register_module(const char* name, std::vector<Native> table, const char* source = nullptr) {
    return register_table(name, std::move(table), source);
  }

  // ---- conversions (nullopt on a type mismatch; last_error() says why)
  std::optional<double> to_float(const Value& v) {
    double d = 0;
    return amps_to_float(vm_, v.get(), &d) == AMPS_OK ? std::optional<double>(d) : std::nullopt;
  }
  std::optional<int64_t> to_int(const Value& v) {
    int64_t i = 0;
    return amps_to_int(vm_, v.get(), &i) == AMPS_OK ? std::optional<int64_t>(i) : std::nullopt;
  }
  std::optional<std::string> to_str(const Value& v) {
    const char* s = nullptr;
    size_t n = 0;
    return amps_to_str(vm_, v.get(), &s, &n) == AMPS_OK ? std::optional<std::string>(std::string(s, n)) : std::nullopt;
  }
  std::string repr(const Value& v) {
    char* s = nullptr;
    if (amps_repr(vm_, v.get(), &s) != AMPS_OK) return "<" + last_error().message + ">";
    std::string r(s);
    std::free(s);
    return r;
  }

  // ---- tensors: see amps_tensor_wrap (no copy; [release] runs when the last tensor dies) and
  // amps_tensor_copy; shape and strides in elements, empty strides: contiguous.
  Result tensor_wrap(void* data, amps_dtype dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides = {},
                     amps_release_fn release = nullptr, void* release_user = nullptr) {
    amps_value* out = nullptr;
    return result(amps_tensor_wrap(vm_, data, dtype, shape.size(), shape.data(), strides.empty() ? nullptr : strides.data(),
                                   release, release_user, &out), out);
  }
  Result tensor_copy(const void* data, amps_dtype dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides = {}) {
    amps_value* out = nullptr;
    return result(amps_tensor_copy(vm_, data, dtype, shape.size(), shape.data(), strides.empty() ? nullptr : strides.data(), &out), out);
  }
  // The elements of [t] as T (T must match the tensor's dtype, e.g. float for float32).
  template <typename T>
  std::optional<std::vector<T>> tensor_read(const Value& t, amps_dtype dtype) {
    amps_tensor_info info{};
    if (amps_tensor_info_get(vm_, t.get(), &info) != AMPS_OK) return std::nullopt;
    std::vector<T> out(size_t(info.numel));
    if (amps_tensor_read(vm_, t.get(), dtype, out.data(), out.size() * sizeof(T)) != AMPS_OK) return std::nullopt;
    return out;
  }

  Error last_error() const {
    const amps_error* e = amps_last_error(vm_);
    auto s = [](const char* p) { return std::string(p ? p : ""); };
    return Error{e->status, s(e->kind), s(e->message), s(e->file), e->line, e->column, s(e->diagnostic)};
  }

  // ---- registration of static tables ({name, amps::native<f>, cast, user} rows ending with a NULL
  // name): no per-row state, so it also works through a borrowed Vm.
  std::optional<Error> register_globals_table(const amps_reg* table) { return check_opt(amps_register_globals(vm_, table)); }
  std::optional<Error> register_module_table(const char* name, const amps_reg* table, const char* source = nullptr) {
    return check_opt(amps_register_module(vm_, name, table, source));
  }

  // ---- helpers for natives and hooks: each throws amps::Failed when its amps_* call fails.
  void check(amps_status s) const {
    if (s != AMPS_OK) throw Failed(last_error());
  }
  bool sandboxed() const { return amps_sandboxed(vm_) != 0; }
  void write_diagnostic(std::string_view text) { amps_write_diagnostic(vm_, text.data(), text.size()); }
  // See amps_checkpoint_loaded: [loaded] was read from the checkpoint at [path].
  void checkpoint_loaded(const std::string& path, const Value& loaded) { check(amps_checkpoint_loaded(vm_, path.c_str(), loaded.get())); }
  // str(v), as print shows it.
  std::string str(const Value& v) {
    char* s = nullptr;
    check(amps_repr(vm_, v.get(), &s));
    std::string r(s);
    std::free(s);
    return r;
  }
  Value builtin(const char* name) { return out([&](amps_value** o) { return amps_get_builtin(vm_, name, o); }); }
  // obj.name, or an empty Value when obj has no such attribute.
  Value find_attr(const Value& obj, const char* name) { return out([&](amps_value** o) { return amps_find_attr(vm_, obj.get(), name, o); }); }
  int64_t len(const Value& v) {
    int64_t n = 0;
    check(amps_len(vm_, v.get(), &n));
    return n;
  }
  Value item(const Value& seq, int64_t i) { return out([&](amps_value** o) { return amps_item(vm_, seq.get(), i, o); }); }
  // dict[key], or an empty Value when absent.
  Value dict_get(const Value& d, const Value& key) { return out([&](amps_value** o) { return amps_dict_get(vm_, d.get(), key.get(), o); }); }
  void dict_set(const Value& d, const Value& key, const Value& v) { check(amps_dict_set(vm_, d.get(), key.get(), v.get())); }
  std::pair<Value, Value> dict_entry(const Value& d, size_t i) {
    amps_value *k = nullptr, *v = nullptr;
    check(amps_dict_entry(vm_, d.get(), i, &k, &v));
    return {Value::adopt(k), Value::adopt(v)};
  }
  Value iter(const Value& iterable) { return out([&](amps_value** o) { return amps_iter(vm_, iterable.get(), o); }); }
  // The next item, or an empty Value when the iterator is exhausted.
  Value next(const Value& iterator) { return out([&](amps_value** o) { return amps_next(vm_, iterator.get(), o); }); }
  // callees[i](*arg_lists[i]) on threads of their own (see amps_call_parallel).
  std::vector<Value> call_parallel(const std::vector<Value>& callees, const std::vector<Value>& arg_lists) {
    std::vector<const amps_value*> fs, as;
    for (size_t i = 0; i < callees.size(); ++i) fs.push_back(callees[i].get()), as.push_back(arg_lists.at(i).get());
    std::vector<amps_value*> res(callees.size(), nullptr);
    check(amps_call_parallel(vm_, callees.size(), fs.data(), as.data(), res.data()));
    std::vector<Value> r;
    for (amps_value* v : res) r.push_back(Value::adopt(v));
    return r;
  }
  Value device(const char* spec) { return out([&](amps_value** o) { return amps_device_value(vm_, spec, o); }); }
  amps_dtype dtype_of(const Value& v) {
    amps_dtype d = AMPS_FLOAT32;
    check(amps_to_dtype(vm_, v.get(), &d));
    return d;
  }
  amps_tensor_info tensor_info(const Value& t) {
    amps_tensor_info info{};
    check(amps_tensor_info_get(vm_, t.get(), &info));
    return info;
  }
  Value tensor_empty(amps_dtype dtype, const std::vector<int64_t>& shape) {
    return out([&](amps_value** o) { return amps_tensor_empty(vm_, dtype, shape.size(), shape.data(), o); });
  }
  // ---- script-class instances (see amps_instance_class and its neighbours)
  bool is_instance(const Value& v) const { return amps_is_instance(v.get()) != 0; }
  uint64_t identity(const Value& v) const { return amps_identity(v.get()); }
  // The (module, name) pickle records for instance [obj]'s class.
  std::pair<std::string, std::string> instance_class(const Value& obj) {
    amps_value *m = nullptr, *n = nullptr;
    check(amps_instance_class(vm_, obj.get(), &m, &n));
    Value mv = Value::adopt(m), nv = Value::adopt(n);
    return {*to_str(mv), *to_str(nv)};
  }
  // The (module, name) pickle records for function, builtin or class [v].
  std::pair<std::string, std::string> global_name(const Value& v) {
    amps_value *m = nullptr, *n = nullptr;
    check(amps_global_name(vm_, v.get(), &m, &n));
    Value mv = Value::adopt(m), nv = Value::adopt(n);
    return {*to_str(mv), *to_str(nv)};
  }
  // The receiver and function of a bound method.
  std::pair<Value, Value> method_parts(const Value& v) {
    amps_value *s = nullptr, *f = nullptr;
    check(amps_method_parts(vm_, v.get(), &s, &f));
    return {Value::adopt(s), Value::adopt(f)};
  }
  // What [module] holds under [name], or an empty Value when nothing.
  Value find_global(const std::string& module, const std::string& name) {
    return out([&](amps_value** o) { return amps_find_global(vm_, module.c_str(), name.c_str(), o); });
  }
  // The class [name] of [module], or an empty Value when there is none.
  Value find_class(const std::string& module, const std::string& name) {
    return out([&](amps_value** o) { return amps_find_class(vm_, module.c_str(), name.c_str(), o); });
  }
  Value instance_attrs(const Value& obj) { return out([&](amps_value** o) { return amps_instance_attrs(vm_, obj.get(), o); }); }
  Value instance_new(const Value& cls) { return out([&](amps_value** o) { return amps_instance_new(vm_, cls.get(), o); }); }
  void instance_set(const Value& obj, const char* name, const Value& v) { check(amps_instance_set(vm_, obj.get(), name, v.get())); }
  void set_attr(const Value& obj, const char* name, const Value& v) { check(amps_set_attr(vm_, obj.get(), name, v.get())); }

  // A new host object of [cls] (from object_class / iterator_class) owning [obj].
  template <class T>
  Value new_object(const amps_class& cls, std::unique_ptr<T> obj);

 private:
  struct State {
    Config cfg;
    std::vector<std::unique_ptr<NativeFn>> natives;   // user pointers of registered rows
  };

  explicit Vm(amps_vm* borrowed) : vm_(borrowed) {}

  static std::vector<const char*> c_strings(const std::vector<std::string>& v) {
    std::vector<const char*> out;
    for (const std::string& s : v) out.push_back(s.c_str());
    return out;
  }

  amps_config c_config(const std::vector<const char*>& roots, const std::vector<const char*>& argv) {
    const Config& cfg = state_->cfg;
    amps_config c;
    amps_config_init(&c);
    c.user = state_.get();
    if (cfg.write) c.write = [](void* u, const char* t, size_t n) { static_cast<State*>(u)->cfg.write({t, n}); };
    if (cfg.diagnostic) c.diagnostic = [](void* u, const char* t, size_t n) { static_cast<State*>(u)->cfg.diagnostic({t, n}); };
    if (cfg.load_module) c.load_module = &load_trampoline;
    c.module_roots = roots.data();
    c.module_root_count = roots.size();
    c.default_device = cfg.default_device.empty() ? nullptr : cfg.default_device.c_str();
    c.sandbox = cfg.sandbox;
    c.imports_only_from_roots = cfg.imports_only_from_roots;
    c.no_stdlib = cfg.no_stdlib;
    c.step_budget = cfg.step_budget;
    c.time_budget_ms = uint64_t(cfg.time_budget.count());
    c.alloc = cfg.alloc, c.free = cfg.free, c.alloc_user = cfg.alloc_user;
    c.argv = argv.data();
    c.argc = argv.size();
    return c;
  }

  static char* load_trampoline(void* u, const char* name) {
    std::optional<std::string> src = static_cast<State*>(u)->cfg.load_module(name);
    if (!src) return nullptr;
    char* out = static_cast<char*>(std::malloc(src->size() + 1));
    if (out) std::memcpy(out, src->c_str(), src->size() + 1);
    return out;
  }

  static amps_status native_trampoline(amps_vm* vm, amps_args* c);

  std::optional<Error> register_table(const char* module, std::vector<Native> table, const char* source) {
    if (!state_) return Error{AMPS_ERROR_MISUSE, "MisuseError", "natives cannot be registered through a borrowed Vm", "", 0, 0, ""};
    std::vector<amps_reg> rows;
    for (Native& n : table) {
      state_->natives.push_back(std::make_unique<NativeFn>(std::move(n.fn)));
      rows.push_back({n.name.c_str(), &native_trampoline, amps_cast_rule(n.cast), state_->natives.back().get()});
    }
    rows.push_back({nullptr, nullptr, AMPS_CAST_NONE, nullptr});
    return check_opt(module ? amps_register_module(vm_, module, rows.data(), source) : amps_register_globals(vm_, rows.data()));
  }

  std::optional<Error> check_opt(amps_status s) const { return s == AMPS_OK ? std::nullopt : std::optional<Error>(last_error()); }
  // Runs an amps_* call with an out-parameter: its handle (maybe empty), or throws Failed.
  template <class F>
  Value out(F&& f) {
    amps_value* o = nullptr;
    amps_status s = f(&o);
    Value v = Value::adopt(o);
    check(s);
    return v;
  }
  // [out] by reference: it is read after the call that fills it (argument order is unspecified).
  Result result(amps_status s, amps_value* const& out) const {
    return s == AMPS_OK ? Result{Value::adopt(out), std::nullopt} : Result{Value(), last_error()};
  }

  std::unique_ptr<State> state_;
  amps_vm* vm_ = nullptr;
};

// ---- natives: how C++ exceptions leave a native or a host-object hook (C++ exceptions stop here)
namespace detail {

// A native's result, or its exception as the call's error: ScriptError keeps its kind, Failed
// re-raises the failure behind it, anything else is a RuntimeError.
template <class F>
amps_status run_native(amps_args* c, F&& body) {
  try {
    Value r = body();
    amps_return(c, r.get());
    return AMPS_OK;
  } catch (const Failed& e) {
    return e.error.status == AMPS_OK ? AMPS_ERROR_RUNTIME : e.error.status;
  } catch (const ScriptError& e) {
    return amps_raise(c, e.kind.c_str(), e.what());
  } catch (const std::exception& e) {
    return amps_raise(c, "RuntimeError", e.what());
  }
}

// The same for hooks without a call (amps_fail records the error).
template <class F>
amps_status run_hook(amps_vm* vm, F&& body) {
  try {
    body();
    return AMPS_OK;
  } catch (const Failed& e) {
    return e.error.status == AMPS_OK ? AMPS_ERROR_RUNTIME : e.error.status;
  } catch (const ScriptError& e) {
    return amps_fail(vm, e.kind.c_str(), e.what());
  } catch (const std::exception& e) {
    return amps_fail(vm, "RuntimeError", e.what());
  }
}

}  // namespace detail

inline amps_status Vm::native_trampoline(amps_vm* vm, amps_args* c) {
  Vm view(vm);
  Call call(c);
  return detail::run_native(c, [&] { return (*static_cast<NativeFn*>(amps_args_user(c)))(view, call); });
}

// A static registration row's function for `Value f(Vm&, Call&)`: {"name", amps::native<f>, ...}.
template <Value (*F)(Vm&, Call&)>
amps_status native(amps_vm* vm, amps_args* c) {
  Vm view = Vm::borrow(vm);
  Call call(c);
  return detail::run_native(c, [&] { return F(view, call); });
}

// ---- host objects: C++ objects scripts hold, with methods, attributes, or iteration.

// Base of the C++ objects of classes made by object_class / iterator_class; the object belongs to
// the script value (deleted when its last reference dies: on any thread, maybe after the Vm).
class Object {
 public:
  virtual ~Object() = default;
  // obj.name for names that are not methods: a Value, or an empty Value when there is none.
  virtual Value attr(Vm&, const char* name) { return Value(); }
  // Objects of iterator classes: the next item, or an empty Value at the end.
  virtual Value next(Vm&) { return Value(); }
};

namespace detail {

inline void drop_object(void* data) { delete static_cast<Object*>(data); }

inline amps_status attr_hook(amps_vm* vm, void* data, const char* name, amps_value** out) {
  Vm view = Vm::borrow(vm);
  return run_hook(vm, [&] { *out = static_cast<Object*>(data)->attr(view, name).release(); });
}

inline amps_status next_hook(amps_vm* vm, void* data, amps_value** out) {
  Vm view = Vm::borrow(vm);
  return run_hook(vm, [&] { *out = static_cast<Object*>(data)->next(view).release(); });
}

template <class M>
struct member_of;
template <class T>
struct member_of<Value (T::*)(Vm&, Call&)> {
  using type = T;
};

}  // namespace detail

// The class of C++ objects named [name] with [methods] (rows of amps::method<&T::f>, or NULL) and
// Object::attr for other attributes; keep it in static storage (amps_class is borrowed).
inline amps_class object_class(const char* name, const amps_reg* methods) {
  return amps_class{name, methods, &detail::attr_hook, nullptr, &detail::drop_object};
}
// The class of C++ iterators named [name]: for loops call Object::next.
inline amps_class iterator_class(const char* name) { return amps_class{name, nullptr, nullptr, &detail::next_hook, &detail::drop_object}; }

// The C++ object inside [v] as T (null when [v] is not one of them).
template <class T>
T* object_cast(const Value& v) {
  const amps_class* cls = amps_object_class(v.get());
  if (!cls || cls->drop != &detail::drop_object) return nullptr;
  return dynamic_cast<T*>(static_cast<Object*>(amps_object_data(v.get(), cls)));
}

template <class T>
Value Vm::new_object(const amps_class& cls, std::unique_ptr<T> obj) {
  Object* o = obj.get();
  Value v = out([&](amps_value** out) { return amps_object_new(vm_, &cls, o, out); });
  obj.release();   // the script value owns it now
  return v;
}

// A method row's function for `Value T::f(Vm&, Call&)`: call.arg(0) is the object itself.
template <auto M>
amps_status method(amps_vm* vm, amps_args* c) {
  using T = typename detail::member_of<decltype(M)>::type;
  Vm view = Vm::borrow(vm);
  Call call(c);
  return detail::run_native(c, [&] {
    T* self = object_cast<T>(call.arg(0));
    if (!self) throw ScriptError("TypeError", "a method of a host object was called on another value");
    return (self->*M)(view, call);
  });
}

// ---- argument reading

// Reads a native's arguments by position or keyword against parameter names, with the builtins'
// TypeErrors: unknown keywords and the like from amps_args_bind, then typed reads that raise
// "fn(): argument 'p' must be int, not str" (throws Failed / ScriptError: natives just read).
class Args {
 public:
  Args(Vm& vm, Call& call, const char* fn, std::vector<const char*> params)
      : vm_(vm), fn_(fn), params_(std::move(params)), vals_(params_.size()) {
    std::vector<const amps_value*> raw(params_.size(), nullptr);
    if (amps_args_bind(call.get(), fn, params_.data(), params_.size(), raw.data()) != AMPS_OK)
      throw Failed(Error{AMPS_ERROR_RUNTIME, "TypeError", "bad arguments", "", 0, 0, ""});   // raised on the call
    for (size_t i = 0; i < raw.size(); ++i) vals_[i] = Value::borrow(raw[i]);
  }
  size_t size() const { return vals_.size(); }
  // Given (none counts), and the argument itself (an empty Value when not given).
  bool has(size_t i) const { return bool(vals_[i]); }
  const Value& get(size_t i) const { return vals_[i]; }
  const Value& required(size_t i) const {
    if (!has(i)) throw ScriptError("TypeError", fn_ + "() missing required argument '" + params_[i] + "'");
    return vals_[i];
  }
  // Typed reads: [dflt] when not given or none, TypeError for another type.
  int64_t int_or(size_t i, int64_t dflt) const {
    if (absent(i)) return dflt;
    if (!vals_[i].is(AMPS_TYPE_INT) && !vals_[i].is(AMPS_TYPE_BOOL)) type_error(i, "int");
    return *vm_.to_int(vals_[i]);
  }
  double float_or(size_t i, double dflt) const {
    if (absent(i)) return dflt;
    if (!vals_[i].is_number()) type_error(i, "a number");
    return *vm_.to_float(vals_[i]);
  }
  bool bool_or(size_t i, bool dflt) const {
    if (absent(i)) return dflt;
    if (!vals_[i].is(AMPS_TYPE_BOOL)) type_error(i, "bool");
    return *vm_.to_int(vals_[i]) != 0;
  }
  std::string str_or(size_t i, std::string dflt) const {
    if (absent(i)) return dflt;
    if (!vals_[i].is(AMPS_TYPE_STR)) type_error(i, "str");
    return *vm_.to_str(vals_[i]);
  }
  [[noreturn]] void type_error(size_t i, const char* expected) const {
    throw ScriptError("TypeError", fn_ + "(): argument '" + params_[i] + "' must be " + expected + ", not " + vals_[i].type_name());
  }

 private:
  bool absent(size_t i) const { return !has(i) || vals_[i].is_none(); }
  Vm& vm_;
  std::string fn_;
  std::vector<const char*> params_;
  std::vector<Value> vals_;
};

// ---- random numbers

// A random stream (see amps_rng): a seeded one of its own, or the Vm's (Rng::of).
class Rng {
 public:
  explicit Rng(uint64_t seed) : r_(amps_rng_new(seed)), own_(true) {}
  static Rng of(Vm& vm) { return Rng(amps_vm_rng(vm.get())); }
  // The stream of a script Generator value (borrowed: keep [generator] alive while drawing), or none when the value
  // is not a Generator.
  static std::optional<Rng> of_generator(const Value& generator) {
    amps_rng* r = amps_generator_rng(generator.get());
    return r ? std::optional<Rng>(Rng(r)) : std::nullopt;
  }
  Rng(Rng&& o) noexcept : r_(std::exchange(o.r_, nullptr)), own_(o.own_) {}
  Rng& operator=(Rng&&) = delete;
  ~Rng() {
    if (own_) amps_rng_free(r_);
  }
  uint64_t below(uint64_t n) { return amps_rng_below(r_, n); }
  double normal() { return amps_rng_normal(r_); }

 private:
  explicit Rng(amps_rng* borrowed) : r_(borrowed), own_(false) {}
  amps_rng* r_;
  bool own_;
};

}  // namespace amps
