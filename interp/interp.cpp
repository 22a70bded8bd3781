// The interpreter context: construction, running programs, functions/classes, imports,
// attributes, truthiness and iteration.
#include "interp/interp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interp/amp_binding.hpp"
#include "interp/builtins.hpp"
#include "interp/context_manager.hpp"
#include "interp/descriptors.hpp"
#include "interp/parser.hpp"
#include "interp/tensor_value.hpp"
#include "interp/type_table.hpp"

namespace amps::interp {

Interp::Interp(InterpConfig cfg) : cfg_(std::move(cfg)) {
  if (!cfg_.sinks.out) cfg_.sinks.out = [](std::string_view s) { fwrite(s.data(), 1, s.size(), stdout); };
  // Diagnostics (warnings, progress) flush what print() buffered first, so a log of both streams
  // (`amps job.amps > log 2>&1`) keeps the order the script wrote them in.
  if (!cfg_.sinks.err) cfg_.sinks.err = [](std::string_view s) {
    fflush(stdout);
    fwrite(s.data(), 1, s.size(), stderr);
  };
  main_env_ = make<Env>(Ref<Env>(), 0);
  types_ = std::make_unique<TypeTable>();
  trace_casts = cfg_.trace_casts;
  install_core_builtins(*this);
  install_tensor_builtins(*this);
  install_autograd_builtins(*this);
  install_amp_builtins(*this);
  install_context_managers(*this);
}

// Breaks the reference cycles scripts make (functions held by the scope they close over).
Interp::~Interp() {
  for (auto& v : main_env_->slots) v = Value();
  for (auto& env : module_envs_)
    for (auto& v : env->slots) v = Value();
  for (auto& [name, m] : modules_)
    if (m.is(ObjKind::Module)) m.as<Module>()->attrs.clear();
  builtins_.clear();
}

void Interp::fail(const char* kind, std::string msg, const Span& where) { throw AmpsError(kind, std::move(msg), where); }

void Interp::check_interrupt(const Span& where) {
  if (interrupt_.load(std::memory_order_relaxed)) {
    interrupt_.store(false);
    fail("KeyboardInterrupt", "interrupted", where);
  }
  if (cfg_.step_budget || cfg_.time_budget.count()) check_budget(where);
}

void Interp::start_budget() {
  steps_.store(0, std::memory_order_relaxed);
  deadline_ = std::chrono::steady_clock::now() + cfg_.time_budget;
}

// Exhausted budgets stay exhausted until the next start_budget(), so a script that catches the
// error fails again at its next step instead of running on.
void Interp::check_budget(const Span& where) {
  uint64_t n = steps_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (cfg_.step_budget && n > cfg_.step_budget)
    fail("BudgetError", fmt::format("step budget of {} exhausted (loop iterations and calls)", cfg_.step_budget), where);
  if (cfg_.time_budget.count() && std::chrono::steady_clock::now() > deadline_)
    fail("TimeoutError", fmt::format("time budget of {} ms exhausted",
                                     std::chrono::duration_cast<std::chrono::milliseconds>(cfg_.time_budget).count()), where);
}

Value Interp::run(SourceRef src, bool interactive) {
  return execute(compile(src), src, interactive);
}

std::shared_ptr<Program> Interp::compile(SourceRef src) {
  auto prog = std::make_shared<Program>(parse_program(src));
  resolve(*prog, main_scope_, builtin_names_);
  programs_.push_back(prog);
  return prog;
}

Value Interp::execute(const std::shared_ptr<Program>& prog, SourceRef src, bool interactive) {
  rt::ContextGuard runtime_guard(rt_ctx_);
  main_env_->slots.resize(main_scope_.order.size(), Value::undef());
  ts_->frames.clear();
  ts_->frames.push_back(Frame{main_env_.get(), nullptr, Value()});
  ts_->depth = 0;
  interrupt_.store(false);
  start_budget();
  try {
    const StmtList& body = prog->body;
    bool last_is_expr = interactive && !body.empty() && body.back()->kind == StmtKind::Expr;
    size_t n = body.size() - (last_is_expr ? 1 : 0);
    for (size_t i = 0; i < n; ++i) exec(*body[i]);
    Value result = last_is_expr ? eval(*static_cast<const ExprStmt&>(*body.back()).expr) : Value::undef();
    ts_->frames.clear();
    return result;
  } catch (AmpsError& e) {
    ts_->frames.clear();
    e.finish_stack("<script>");
    e.retain(src);
    throw;
  }
}

static std::string read_file(const std::string& path, const Span& where) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    Interp::fail("IsADirectoryError", fmt::format("cannot read '{}': it is a directory, not a script", path), where);
  std::ifstream f(path, std::ios::binary);
  if (!f) Interp::fail("FileNotFoundError", fmt::format("cannot open '{}': {}", path, std::strerror(errno)), where);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Value Interp::run_file(const std::string& path) {
  std::string text = read_file(path, {});
  auto dir = std::filesystem::path(path).parent_path().string();
  return run(std::make_shared<SourceFile>(path, std::move(text), dir.empty() ? "." : dir));
}

// A closure over the current scope; default values are evaluated now, like Python.
Value Interp::make_function(const FnDecl& d, const Class* cls) {
  auto fn = make<Function>(&d, Ref<Env>(ts_->frames.back().env));
  fn->defaults.reserve(d.params.size());
  for (auto& p : d.params) fn->defaults.push_back(p.default_value ? eval(*p.default_value) : Value::undef());
  Value result = fn;
  for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it)
    result = call(cls ? eval_method_decorator(**it, *cls) : eval(**it), {result});
  return result;
}

// A method's decorator, evaluated as Python does in the class body: `@x.setter` names the class's own `x` (the
// resolver leaves such a name unresolved, see resolver.cpp); every other decorator is an ordinary expression.
Value Interp::eval_method_decorator(const Expr& e, const Class& cls) {
  if (e.kind == ExprKind::Attr) {
    auto& a = static_cast<const AttrExpr&>(e);
    if (a.object->kind == ExprKind::Name) {
      auto& n = static_cast<const NameExpr&>(*a.object);
      if (n.ref.kind == VarRef::Kind::Unresolved) {
        const Value* v = cls.attrs.find(n.name);
        if (!v) fail("NameError", fmt::format("name '{}' is not defined", *n.name), n.span);
        return get_attr(*v, a.name, e.span);
      }
    }
  }
  return eval(e);
}

// class Name(Base) { fields and methods }
Value Interp::make_class(const ClassDecl& d) {
  Ref<Class> base;
  if (d.base) {
    Value b = eval(*d.base);
    if (!b.is(ObjKind::Class)) fail("TypeError", fmt::format("base of class '{}' must be a class, not {}", *d.name, type_name(b)), d.base->span);
    base = Ref<Class>(b.as<Class>());
  }
  auto cls = make<Class>(d.name, base);
  for (auto& f : d.fields) {
    Value v = f->value ? eval(*f->value) : Value();
    if (Descriptor* desc = as_descriptor(v)) cls->has_descriptors = true, set_descriptor_owner(*desc, cls.get());
    cls->attrs[f->target.name] = std::move(v);
  }
  for (auto& m : d.methods) {
    Value fn = make_function(*m, cls.get());
    if (fn.is(ObjKind::Function)) fn.as<Function>()->owner = cls.get();
    if (Descriptor* desc = as_descriptor(fn)) cls->has_descriptors = true, set_descriptor_owner(*desc, cls.get());
    cls->attrs[m->name] = fn;
  }
  Value result = cls;
  for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it) result = call(eval(**it), {result});
  return result;
}

void Interp::def_global(std::string_view name, Value v) {
  uint32_t s = builtin_names_.add(intern(name));
  if (s >= builtins_.size()) builtins_.resize(s + 1);
  builtins_[s] = std::move(v);
}

void Interp::def_native(std::string_view name, Native::Fn fn) {
  def_global(name, make<Native>(std::string(name), std::move(fn)));
}

void Interp::def_module(std::string name, ModuleInit init) { module_inits_[std::move(name)] = std::move(init); }

Value Interp::lookup_global(std::string_view name) {
  Atom a = intern(name);
  auto it = main_scope_.slots.find(a);
  if (it != main_scope_.slots.end() && it->second < main_env_->slots.size()) return main_env_->slots[it->second];
  int64_t b = builtin_names_.find(a);
  return b >= 0 ? builtins_[b] : Value::undef();
}

Value Interp::lookup_builtin(std::string_view name) {
  int64_t b = builtin_names_.find(intern(name));
  return b >= 0 && size_t(b) < builtins_.size() ? builtins_[size_t(b)] : Value::undef();
}

void Interp::set_global(std::string_view name, Value v) {
  auto it = main_scope_.slots.find(intern(name));
  if (it == main_scope_.slots.end() || it->second >= main_env_->slots.size()) return def_global(name, std::move(v));
  main_env_->slots[it->second] = std::move(v);
}

std::vector<std::string> Interp::global_names() const {
  std::vector<std::string> out;
  for (Atom a : main_scope_.order) out.push_back(*a);
  for (Atom a : builtin_names_.names()) out.push_back(*a);
  return out;
}

// import a.b.c: built-in modules are created on first import and cached per interpreter.
Value Interp::import_module(const std::vector<Atom>& path, const Span& where) {
  std::string name;
  Value top;
  for (size_t i = 0; i < path.size(); ++i) {
    name += (i ? "." : "") + *path[i];
    auto cached = modules_.find(name);
    if (cached != modules_.end()) { if (i == 0) top = cached->second; continue; }
    auto init = module_inits_.find(name);
    if (init == module_inits_.end()) {
      if (i > 0) {   // a submodule may be an attribute of its parent: a module, or an object (nn.functional)
        Value parent = modules_[name.substr(0, name.rfind('.'))];
        Value sub = find_attr(parent, path[i]);
        if (sub.is(ObjKind::Module) || sub.is(ObjKind::Instance)) { modules_[name] = sub; continue; }
      }
      if (Value host = load_host_module(name, where); !host.is_undef()) {
        modules_[name] = host;
        if (i == 0) top = host;
        continue;
      }
      fail("ModuleNotFoundError", fmt::format("no module named '{}'; for a file write `import \"{}.amps\" as {}`", name, name, *path.back()), where);
    }
    auto mod = make<Module>(name);
    modules_[name] = mod;
    init->second(*this, *mod);
    if (i == 0) top = mod;
  }
  return modules_[name];
}

// `from a.b import c as d`: each name is the module's attribute, else its submodule `a.b.c` (Python's order).
void Interp::exec_from_import(const ImportStmt& s) {
  const Value mod = import_module(s.module_path, s.span);
  std::string path;
  for (Atom part : s.module_path) path += (path.empty() ? "" : ".") + *part;
  for (auto& [member, target] : s.from_names) {
    Value v = find_attr(mod, member);
    if (v.is_undef()) {
      std::vector<Atom> sub = s.module_path;
      sub.push_back(member);
      const std::string sub_name = path + "." + *member;
      if (module_inits_.count(sub_name) || modules_.count(sub_name)) v = import_module(sub, s.span);
    }
    if (v.is_undef())   // Python's message for a module without a file
      fail("ImportError", fmt::format("cannot import name '{}' from '{}' (unknown location)", *member, path), target.span);
    bind(target, v);
  }
}

// ImportStmt: built-in module or `import "file.amps" as m` relative to the importing file.
void Interp::exec_import(const ImportStmt& s) {
  if (!s.from_names.empty()) return exec_from_import(s);
  if (s.file.empty()) {
    Value mod = import_module(s.module_path, s.span);
    if (s.bind_root) mod = modules_[*s.module_path[0]];
    bind(s.alias, mod);
    return;
  }
  std::filesystem::path p(s.file);
  if (p.is_relative()) p = std::filesystem::path(s.span.file->dir()) / p;
  std::string path = p.lexically_normal().string();
  check_import_root(path, s.span);
  bind(s.alias, load_module_file(path, s.span));
}

// `import a.b` that no registered module serves: the host loader's source, else ROOT/a/b.amps
// under the first module root that has it; undef when neither has the module.
Value Interp::load_host_module(const std::string& name, const Span& where) {
  if (cfg_.load_module) {
    if (std::optional<std::string> text = cfg_.load_module(name)) {
      auto mod = make<Module>(name);
      exec_module_source(*mod, "<" + name + ">", std::move(*text), where);
      return mod;
    }
  }
  std::string rel = name;
  std::replace(rel.begin(), rel.end(), '.', '/');
  for (const std::string& root : cfg_.module_roots) {
    auto p = (std::filesystem::path(root) / (rel + ".amps")).lexically_normal();
    if (std::filesystem::is_regular_file(p)) return load_module_file(p.string(), where);
  }
  return Value::undef();
}

// File imports of sandboxed or root-restricted interpreters must resolve (links followed) under a root.
void Interp::check_import_root(const std::string& path, const Span& where) {
  if (!cfg_.sandbox && !cfg_.imports_only_from_roots) return;
  std::error_code ec;
  auto file = std::filesystem::weakly_canonical(path, ec);
  for (const std::string& root : cfg_.module_roots) {
    auto dir = std::filesystem::weakly_canonical(root, ec);
    auto rel = file.lexically_relative(dir);
    if (!ec && !rel.empty() && *rel.begin() != "..") return;
  }
  fail("PermissionError", fmt::format("import of '{}' denied: this {}interpreter imports files only from its module roots{}",
                                      path, cfg_.sandbox ? "sandboxed " : "", cfg_.module_roots.empty() ? " (it has none)" : ""),
       where);
}

Value Interp::load_module_file(const std::string& path, const Span& where) {
  auto cached = modules_.find(path);
  if (cached != modules_.end()) return cached->second;
  if (std::find(loading_.begin(), loading_.end(), path) != loading_.end())
    fail("ImportError", fmt::format("circular import of '{}'", path), where);
  std::string text = read_file(path, where);
  auto mod = make<Module>(std::filesystem::path(path).stem().string());
  mod->attrs[intern("__name__")] = make_str(mod->name);  // as Python's module.__name__; the main script's is "__main__"
  loading_.push_back(path);
  try {
    exec_module_source(*mod, path, std::move(text), where);
  } catch (...) {
    loading_.pop_back();
    throw;
  }
  loading_.pop_back();
  modules_[path] = mod;
  return mod;
}

// Runs `text` as module `mod`: names already in mod.attrs (natives) are visible to the
// script; afterwards every top-level name of the script becomes an attribute.
void Interp::exec_module_source(Module& mod, const std::string& name, std::string text, const Span& where) {
  rt::ContextGuard runtime_guard(rt_ctx_);
  auto dir = std::filesystem::path(name).parent_path().string();
  auto src = std::make_shared<SourceFile>(name, std::move(text), dir.empty() ? "." : dir);
  std::shared_ptr<Program> prog;
  ModuleScope scope;
  for (auto& [key, v] : mod.attrs) scope.slots.emplace(key, uint32_t(scope.order.size())), scope.order.push_back(key);
  try {
    prog = std::make_shared<Program>(parse_program(src));
    resolve(*prog, scope, builtin_names_);
  } catch (AmpsError& e) {  // a syntax or name error: its spans point into src, which must outlive it
    e.unwind("<module " + std::filesystem::path(name).filename().string() + ">", where);
    e.retain(src);
    throw;
  }
  programs_.push_back(prog);
  auto env = make<Env>(Ref<Env>(), scope.order.size());
  module_envs_.push_back(env);
  for (auto& [key, v] : mod.attrs) env->slots[scope.slots[key]] = v;
  ts_->frames.push_back(Frame{env.get(), nullptr, Value()});
  try {
    exec_block(prog->body);
  } catch (AmpsError& e) {
    ts_->frames.pop_back();
    e.unwind("<module " + std::filesystem::path(name).filename().string() + ">", where);
    e.retain(src);
    throw;
  }
  ts_->frames.pop_back();
  for (size_t i = 0; i < scope.order.size(); ++i) mod.attrs[scope.order[i]] = env->slots[i];
}

bool Interp::truthy(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::None:
    case Value::Tag::Undef: return false;
    case Value::Tag::Bool:
    case Value::Tag::Int: return v.as_int() != 0;
    case Value::Tag::Float: return v.as_float() != 0.0;
    case Value::Tag::Obj: break;
  }
  switch (v.obj()->kind()) {
    case ObjKind::Str: return !v.as<Str>()->value.empty();
    case ObjKind::List: return !v.as<List>()->items.empty();
    case ObjKind::Tuple: return !v.as<Tuple>()->items.empty();
    case ObjKind::Dict: return v.as<Dict>()->size() > 0;
    case ObjKind::Range: return v.as<Range>()->size() > 0;
    case ObjKind::Instance: {
      Value m = find_attr(v, intern("__bool__"));
      if (m.is_undef()) m = find_attr(v, intern("__len__"));
      return m.is_undef() || truthy(call(m, std::vector<Value>{}));
    }
    default: return v.obj()->truthy();
  }
}

}  // namespace amps::interp
