// amps.hpp: the C++ face of the embedding API: amps.h's functions behind RAII handles, results
// instead of status codes, and std::function natives. Header-only; links against libamps only.
//
// Ownership: amps::Value owns one amps_value reference (copies add one); amps::Vm owns its
// interpreter and the host callbacks (sinks, loader, natives), which live exactly as long as it.
// The rules of amps.h hold: one thread per Vm at a time, except interrupt(); release Values before
// their Vm dies, except tensors.
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

  amps_value* get() const { return v_; }
  explicit operator bool() const { return v_ != nullptr; }
  amps_type type() const { return amps_typeof(v_); }

 private:
  amps_value* v_ = nullptr;
};

// A failure of a run, call or API use: amps.h's amps_error, copied.
struct Error {
  amps_status status = AMPS_OK;
  std::string kind, message, file;
  uint32_t line = 0, column = 0;
  std::string diagnostic;
};

// The value of a successful run/call, or its error.
struct Result {
  Value value;
  std::optional<Error> error;
  explicit operator bool() const { return !error; }
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
  size_t size() const { return amps_arg_count(c_); }
  Value arg(size_t i) const { return Value::borrow(amps_arg(c_, i)); }
  Value kwarg(const char* name) const { return Value::borrow(amps_kwarg(c_, name)); }

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
  std::optional<Error> set_global(const char* name, const Value& v) { return check(amps_set_global(vm_, name, v.get())); }
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

  // C++ exceptions stop here: ScriptError keeps its kind, anything else is a RuntimeError.
  static amps_status native_trampoline(amps_vm* vm, amps_args* c) {
    Vm view(vm);
    Call call(c);
    try {
      Value r = (*static_cast<NativeFn*>(amps_args_user(c)))(view, call);
      amps_return(c, r.get());
      return AMPS_OK;
    } catch (const ScriptError& e) {
      return amps_raise(c, e.kind.c_str(), e.what());
    } catch (const std::exception& e) {
      return amps_raise(c, "RuntimeError", e.what());
    }
  }

  std::optional<Error> register_table(const char* module, std::vector<Native> table, const char* source) {
    if (!state_) return Error{AMPS_ERROR_MISUSE, "MisuseError", "natives cannot be registered through a borrowed Vm", "", 0, 0, ""};
    std::vector<amps_reg> rows;
    for (Native& n : table) {
      state_->natives.push_back(std::make_unique<NativeFn>(std::move(n.fn)));
      rows.push_back({n.name.c_str(), &native_trampoline, amps_cast_rule(n.cast), state_->natives.back().get()});
    }
    rows.push_back({nullptr, nullptr, AMPS_CAST_NONE, nullptr});
    return check(module ? amps_register_module(vm_, module, rows.data(), source) : amps_register_globals(vm_, rows.data()));
  }

  std::optional<Error> check(amps_status s) const { return s == AMPS_OK ? std::nullopt : std::optional<Error>(last_error()); }
  // [out] by reference: it is read after the call that fills it (argument order is unspecified).
  Result result(amps_status s, amps_value* const& out) const {
    return s == AMPS_OK ? Result{Value::adopt(out), std::nullopt} : Result{Value(), last_error()};
  }

  std::unique_ptr<State> state_;
  amps_vm* vm_ = nullptr;
};

}  // namespace amps
