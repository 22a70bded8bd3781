// The embedding API's interpreter half: configuration, errors, running code, calls, globals.
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "interp/embed/handles.hpp"
#include "interp/parser.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::interp::embed {

EmbedState& state(Interp& in) {
  if (!in.embed_state) in.embed_state = std::make_shared<EmbedState>();
  return *in.embed_state;
}

amps_status set_error(Interp& in, amps_status s, const AmpsError& e) {
  EmbedState& st = state(in);
  st.kind = e.kind();
  st.message = e.message();
  st.file = e.has_span() ? e.span().file->name() : "";
  st.diagnostic = format_diagnostic(e);
  st.err = {s, st.kind.c_str(), st.message.c_str(), st.file.c_str(), e.span().line, e.span().col, st.diagnostic.c_str()};
  return s;
}

amps_status misuse(Interp& in, const std::string& message) {
  return set_error(in, AMPS_ERROR_MISUSE, AmpsError("MisuseError", message));
}

// A RAII count of host entries, so nested entries (natives calling back) are recognised.
struct Entry {
  explicit Entry(EmbedState& st) : st_(st) { ++st_.depth; }
  ~Entry() { --st_.depth; }
  EmbedState& st_;
};

amps_status guarded(amps_vm* vm, const std::function<amps_status(Interp&)>& body) {
  if (!vm) return AMPS_ERROR_MISUSE;
  Interp& in = interp_of(vm);
  EmbedState& st = state(in);
  st.err = amps_error{};
  st.pending = nullptr;
  // Nested entries (natives calling back, DataParallel workers) keep the thread's context.
  std::optional<rt::ContextGuard> context;
  if (st.depth == 0) context.emplace(in.runtime());
  Entry entry(st);
  try {
    return body(in);
  } catch (const AmpsError& e) {
    st.pending = std::current_exception();
    return set_error(in, AMPS_ERROR_RUNTIME, e);
  } catch (const rt::Error& e) {
    AmpsError a(e.kind(), e.message());
    st.pending = std::make_exception_ptr(a);
    return set_error(in, AMPS_ERROR_RUNTIME, a);
  } catch (const std::bad_alloc&) {
    st.pending = std::current_exception();
    return set_error(in, AMPS_ERROR_MEMORY, AmpsError("MemoryError", "out of memory"));
  } catch (const std::exception& e) {
    AmpsError a("InternalError", e.what());
    st.pending = std::make_exception_ptr(a);
    return set_error(in, AMPS_ERROR_RUNTIME, a);
  }
}

Value adopt(amps_value* v) {
  if (!v) return Value::undef();
  Value out = std::move(value_of(v));
  amps_release(v);
  return out;
}

static std::vector<std::string> strings(const char* const* items, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i)
    if (items && items[i]) out.emplace_back(items[i]);
  return out;
}

// Sinks and the loader forward to the host's C callbacks with its user pointer.
InterpConfig interp_config(const amps_config& c) {
  InterpConfig ic;
  if (c.write) ic.sinks.out = [fn = c.write, u = c.user](std::string_view s) { fn(u, s.data(), s.size()); };
  if (c.diagnostic) ic.sinks.err = [fn = c.diagnostic, u = c.user](std::string_view s) { fn(u, s.data(), s.size()); };
  if (c.load_module)
    ic.load_module = [fn = c.load_module, u = c.user](const std::string& name) -> std::optional<std::string> {
      std::unique_ptr<char, decltype(&std::free)> text(fn(u, name.c_str()), &std::free);
      return text ? std::optional<std::string>(text.get()) : std::nullopt;
    };
  ic.module_roots = strings(c.module_roots, c.module_root_count);
  ic.script_args = strings(c.argv, c.argc);
  ic.sandbox = c.sandbox != 0;
  ic.imports_only_from_roots = c.imports_only_from_roots != 0;
  ic.step_budget = c.step_budget;
  ic.time_budget = std::chrono::milliseconds(c.time_budget_ms);
  return ic;
}

void apply_runtime_config(Interp& in, const amps_config& c) {
  if (c.default_device) {
    rt::Device d = rt::device_from_string(c.default_device);
    rt::check_device_available(d);
    in.runtime().set_default_device(d);
  }
  if (c.alloc && c.free)
    in.runtime().set_host_allocator(std::make_shared<rt::Context::HostAllocator>(rt::Context::HostAllocator{
        [fn = c.alloc, u = c.alloc_user](size_t n) { return fn(u, n); },
        [fn = c.free, u = c.alloc_user](void* p) { fn(u, p); }}));
  else if (c.alloc || c.free)
    throw AmpsError("MisuseError", "amps_config: alloc and free must be set together");
}

// Compiles then executes, so the status tells a syntax error from a runtime one.
static amps_status run_source(Interp& in, SourceRef src, amps_value** result) {
  if (state(in).depth > 1) return misuse(in, "amps_run: called while a script runs on this vm (use amps_call from natives)");
  std::shared_ptr<Program> prog;
  try {
    prog = in.compile(src);
  } catch (AmpsError& e) {
    e.retain(src);
    return set_error(in, AMPS_ERROR_SYNTAX, e);
  }
  Value v = in.execute(prog, src, result != nullptr);
  if (result) *result = new_handle(v.is_undef() ? Value() : v);
  return AMPS_OK;
}

}  // namespace amps::interp::embed

using namespace amps::interp;
using namespace amps::interp::embed;

extern "C" {

void amps_config_init(amps_config* cfg) {
  if (cfg) *cfg = amps_config{};
}

// Here, not in open.cpp with amps_new, so code that only borrows a vm (the stdlib, through
// amps.hpp's Vm) links without the stdlib's installer.
void amps_free(amps_vm* vm) { delete reinterpret_cast<Interp*>(vm); }

const amps_error* amps_last_error(const amps_vm* vm) {
  static const amps_error null_vm{AMPS_ERROR_MISUSE, "MisuseError", "null amps_vm handle (amps_new failed or was not called)",
                                  "", 0, 0, "amps: MisuseError: null amps_vm handle (amps_new failed or was not called)\n"};
  if (!vm) return &null_vm;
  return &state(interp_of(const_cast<amps_vm*>(vm))).err;
}

const char* amps_status_name(amps_status s) {
  switch (s) {
    case AMPS_OK: return "AMPS_OK";
    case AMPS_ERROR_SYNTAX: return "AMPS_ERROR_SYNTAX";
    case AMPS_ERROR_RUNTIME: return "AMPS_ERROR_RUNTIME";
    case AMPS_ERROR_MISUSE: return "AMPS_ERROR_MISUSE";
    case AMPS_ERROR_MEMORY: return "AMPS_ERROR_MEMORY";
  }
  return "AMPS_ERROR_UNKNOWN";
}

amps_status amps_run(amps_vm* vm, const char* name, const char* code, amps_value** result) {
  return guarded(vm, [&](Interp& in) {
    if (!code) return misuse(in, "amps_run: code is NULL");
    return run_source(in, std::make_shared<SourceFile>(name ? name : "<string>", code, "."), result);
  });
}

amps_status amps_run_file(amps_vm* vm, const char* path, amps_value** result) {
  return guarded(vm, [&](Interp& in) {
    if (!path) return misuse(in, "amps_run_file: path is NULL");
    std::ifstream f(path, std::ios::binary);
    if (!f) return set_error(in, AMPS_ERROR_RUNTIME, AmpsError("FileNotFoundError", fmt::format("cannot open script '{}': {}", path, std::strerror(errno))));
    std::ostringstream ss;
    ss << f.rdbuf();
    auto dir = std::filesystem::path(path).parent_path().string();
    return run_source(in, std::make_shared<SourceFile>(path, ss.str(), dir.empty() ? "." : dir), result);
  });
}

amps_status amps_call(amps_vm* vm, const amps_value* callee, size_t argc, amps_value* const* argv, amps_value** result) {
  return guarded(vm, [&](Interp& in) {
    if (!callee || (argc && !argv)) return misuse(in, "amps_call: callee or argv is NULL");
    std::vector<Value> args;
    for (size_t i = 0; i < argc; ++i) {
      if (!argv[i]) return misuse(in, fmt::format("amps_call: argument {} is NULL", i));
      args.push_back(value_of(argv[i]));
    }
    bool outermost = state(in).depth == 1;   // nested calls (from natives) keep the run's budget
    if (outermost) in.start_budget();
    try {
      Value v = in.call(value_of(callee), std::move(args));
      if (result) *result = new_handle(v);
    } catch (AmpsError& e) {
      if (outermost) e.finish_stack("<host>");   // a nested failure goes back to the script as it was
      throw;
    }
    return AMPS_OK;
  });
}

void amps_interrupt(amps_vm* vm) {
  if (vm) interp_of(vm).request_interrupt();
}

amps_status amps_get_global(amps_vm* vm, const char* name, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!name || !out) return misuse(in, "amps_get_global: name or out is NULL");
    Value v = in.lookup_global(name);
    if (v.is_undef()) Interp::fail("NameError", fmt::format("name '{}' is not defined", name), {});
    *out = new_handle(v);
    return AMPS_OK;
  });
}

amps_status amps_set_global(amps_vm* vm, const char* name, const amps_value* v) {
  return guarded(vm, [&](Interp& in) {
    if (!name || !v) return misuse(in, "amps_set_global: name or value is NULL");
    in.set_global(name, value_of(v));
    return AMPS_OK;
  });
}

amps_status amps_get_attr(amps_vm* vm, const amps_value* obj, const char* name, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!obj || !name || !out) return misuse(in, "amps_get_attr: obj, name or out is NULL");
    *out = new_handle(in.get_attr(value_of(obj), intern(name), {}));
    return AMPS_OK;
  });
}

amps_status amps_find_attr(amps_vm* vm, const amps_value* obj, const char* name, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!obj || !name || !out) return misuse(in, "amps_find_attr: obj, name or out is NULL");
    *out = nullptr;
    Value v = in.find_attr(value_of(obj), intern(name));
    *out = v.is_undef() ? nullptr : new_handle(std::move(v));
    return AMPS_OK;
  });
}

amps_status amps_get_builtin(amps_vm* vm, const char* name, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!name || !out) return misuse(in, "amps_get_builtin: name or out is NULL");
    Value v = in.lookup_builtin(name);
    if (v.is_undef()) Interp::fail("NameError", fmt::format("there is no builtin named '{}'", name), {});
    *out = new_handle(std::move(v));
    return AMPS_OK;
  });
}

amps_status amps_call_parallel(amps_vm* vm, size_t n, const amps_value* const* callees, const amps_value* const* args,
                               amps_value** results) {
  return guarded(vm, [&](Interp& in) {
    if (n && (!callees || !args || !results)) return misuse(in, "amps_call_parallel: callees, args or results is NULL");
    std::vector<std::pair<Value, std::vector<Value>>> calls;
    for (size_t i = 0; i < n; ++i) {
      if (!callees[i] || !args[i]) return misuse(in, fmt::format("amps_call_parallel: call {} has a NULL callee or argument list", i));
      const Value& a = value_of(args[i]);
      if (!a.is(ObjKind::List) && !a.is(ObjKind::Tuple))
        return misuse(in, fmt::format("amps_call_parallel: the arguments of call {} are a {}, not a list or tuple", i, type_name(a)));
      calls.push_back({value_of(callees[i]), a.is(ObjKind::List) ? a.as<List>()->items : a.as<Tuple>()->items});
    }
    std::vector<Value> out = in.parallel_call(calls, call_site(in));
    for (size_t i = 0; i < n; ++i) results[i] = new_handle(std::move(out[i]));
    return AMPS_OK;
  });
}

amps_status amps_fail(amps_vm* vm, const char* kind, const char* message) {
  if (!vm) return AMPS_ERROR_MISUSE;
  Interp& in = interp_of(vm);
  AmpsError e(kind && *kind ? kind : "RuntimeError", message ? message : "");
  state(in).pending = std::make_exception_ptr(e);
  return set_error(in, AMPS_ERROR_RUNTIME, e);
}

void amps_write(amps_vm* vm, const char* text, size_t len) {
  if (vm && (text || !len)) interp_of(vm).write_out(std::string_view(text ? text : "", len));
}

void amps_write_diagnostic(amps_vm* vm, const char* text, size_t len) {
  if (vm && (text || !len)) interp_of(vm).write_err(std::string_view(text ? text : "", len));
}

amps_status amps_checkpoint_loaded(amps_vm* vm, const char* path, const amps_value* loaded) {
  return guarded(vm, [&](Interp& in) {
    if (!path || !loaded) return misuse(in, "amps_checkpoint_loaded: path or loaded is NULL");
    if (in.checkpoint_loaded) in.checkpoint_loaded(in, path, value_of(loaded));
    return AMPS_OK;
  });
}

int amps_sandboxed(const amps_vm* vm) { return vm && interp_of(const_cast<amps_vm*>(vm)).config().sandbox ? 1 : 0; }

}  // extern "C"
