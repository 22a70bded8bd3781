// The interpreter context: owns builtins, modules, sources and per-interpreter state, and
// runs programs with the tree-walking evaluator. Several may live in one process.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/objects.hpp"
#include "interp/resolver.hpp"
#include "runtime/context.hpp"

namespace amps::interp {

// How control leaves a statement.
enum class Flow : uint8_t { Normal, Break, Continue, Return };

// Where output goes; the CLI writes to stdout/stderr, hosts pass their own sinks.
struct OutputSinks {
  std::function<void(std::string_view)> out;
  std::function<void(std::string_view)> err;
};

// Installs a built-in module's contents on first import (`import nn`).
using ModuleInit = std::function<void(Interp&, Module&)>;

// Behaviour of `autocast` and grad-mode (`no_grad`, `enable_grad`, `set_grad_enabled`) blocks, installed by
// the AMP and autograd bindings.
// Each returns a guard whose destruction restores the previous state.
struct BlockHooks {
  std::function<std::shared_ptr<void>(Interp&, const Value& device, CallArgs& args)> autocast_enter;
  std::function<std::shared_ptr<void>(Interp&, bool enabled)> grad_mode_enter;
  // autocast_enter in two steps, for `autocast(...)` objects (`with autocast("cpu") { }`): validates the arguments
  // now (torch.autocast's constructor: its errors and warnings) and returns what enters the region, once per call.
  std::function<std::function<std::shared_ptr<void>()>(Interp&, const Value& device, CallArgs& args)> autocast_prepare;
};

struct InterpConfig {
  OutputSinks sinks;
  std::vector<std::string> script_args;   // `args` inside the script
  std::string script_name;                // sys.argv[0]: the script's path as given, "-c" for code, "" for stdin
  size_t max_call_depth = 1000;
  bool sandbox = false;                   // no file or process access
  // ---- limits and module lookup (hosts set these through interp/include/amps/amps.h)
  uint64_t step_budget = 0;                 // loop iterations + calls per run or host call; 0: unlimited
  std::chrono::nanoseconds time_budget{0};  // wall time per run or host call; 0: unlimited
  std::vector<std::string> module_roots;    // `import a.b` finds ROOT/a/b.amps (first root that has it)
  bool imports_only_from_roots = false;     // file imports must lie under a module root (implied by sandbox)
  // Host loader for `import name` (tried before the roots): the module's source, or nullopt.
  std::function<std::optional<std::string>(const std::string& name)> load_module;
  bool trace_casts = false;               // print every autocast decision to the err sink (--trace-casts)
};

struct EmbedState;   // the embedding API's per-interpreter state (interp/embed/handles.hpp)
class TypeTable;     // the type objects type(x) returns (interp/type_table.hpp)

class Interp {
  struct ThreadState;

 public:
  explicit Interp(InterpConfig cfg = {});
  ~Interp();
  Interp(const Interp&) = delete;
  Interp& operator=(const Interp&) = delete;

  // Parses, resolves and runs `src` in the main module. In `interactive` mode the value of
  // a trailing expression statement is returned (undef otherwise). Throws AmpsError.
  Value run(SourceRef src, bool interactive = false);
  // Runs a file as the main script.
  Value run_file(const std::string& path);
  // run() in two steps: compile parses and resolves (AmpsError: the code does not compile);
  // execute runs the result in the main module (AmpsError: it failed while running).
  std::shared_ptr<Program> compile(SourceRef src);
  Value execute(const std::shared_ptr<Program>& prog, SourceRef src, bool interactive = false);

  // ---- calls and attributes (used by builtins, stdlib and the embedding API)
  Value call(const Value& callee, CallArgs& args);
  Value call(const Value& callee, std::vector<Value> pos);
  Value get_attr(const Value& obj, Atom name, const Span& where);
  // The attribute, or undef when absent (no error).
  Value find_attr(const Value& obj, Atom name);
  void set_attr(const Value& obj, Atom name, Value v, const Span& where);

  // ---- conversions with Python's rules
  bool truthy(const Value& v);
  std::string repr(const Value& v);
  std::string str(const Value& v);
  // Iterates any iterable, calling `body` per element until it returns false.
  void iterate(const Value& iterable, const Span& where, const std::function<bool(Value)>& body);
  // One item of generator expression [e] whose scope is [env] (inside function [fn]): steps the iterators of the
  // clauses entered ([sources], innermost last) until an item passes every condition, stores the element in
  // [out]; false once the first clause's iterator is exhausted (eval_display.cpp).
  bool generator_step(const ListComp& e, Env* env, const Function* fn, std::vector<Value>& sources, Value& out);

  // ---- registration
  void def_global(std::string_view name, Value v);
  void def_native(std::string_view name, Native::Fn fn);
  void def_module(std::string name, ModuleInit init);
  // Whether `import name` can succeed without a file (a built-in or registered script module).
  bool has_module(const std::string& name) const { return module_inits_.count(name) || modules_.count(name); }
  Value import_module(const std::vector<Atom>& path, const Span& where);
  // The modules imported so far, keyed by name (registered modules) or path (file modules): where the embedding
  // API looks for the module that holds a class (amps_instance_class, amps_find_class).
  const std::map<std::string, Value>& loaded_modules() const { return modules_; }
  // Runs `text` as the body of module `mod` (see interp.cpp); throws AmpsError.
  void exec_module_source(Module& mod, const std::string& name, std::string text, const Span& where = {});
  const BuiltinNames& builtin_names() const { return builtin_names_; }
  // Current value of a builtin or a main-module global, or undef.
  Value lookup_global(std::string_view name);
  // Current value of a builtin, ignoring main-module globals that shadow it, or undef.
  Value lookup_builtin(std::string_view name);
  // Assigns a main-module global the scripts declared, else defines a builtin (seen by later runs).
  void set_global(std::string_view name, Value v);
  // Names visible at top level (main-module globals and builtins), for REPL completion.
  std::vector<std::string> global_names() const;

  // ---- output
  void write_out(std::string_view s) { cfg_.sinks.out(s); }
  void write_err(std::string_view s) { cfg_.sinks.err(s); }

  // ---- interruption: set from any thread; the script sees a KeyboardInterrupt error
  void request_interrupt() { interrupt_.store(true, std::memory_order_relaxed); }
  // Raises the requested KeyboardInterrupt (and enforces the step/time budgets) at [where]; natives that wait call it.
  void check_interrupt(const Span& where);
  // Restarts the step count and clock of the config's budgets; run() does, hosts calling in do too.
  void start_budget();
  // Owned by the embedding API (last error, host callbacks); null for interpreters it never saw.
  std::shared_ptr<EmbedState> embed_state;

  const InterpConfig& config() const { return cfg_; }
  // This interpreter's type objects: type(x), x.__class__, isinstance (interp/type_table.hpp).
  TypeTable& types() { return *types_; }
  // The statement the calling thread is executing (null outside run); its span names source positions.
  const Stmt* current_stmt() const { return ts_->last_stmt; }

  // ---- threads (DataParallel): script evaluation is serialised by the interpreter lock;
  // tensor ops release it (AllowThreads), so the kernels of several threads overlap.
  // Calls each (callee, args) on its own thread, with a Context forked from this one
  // (grad mode and autocast state inherited); returns the results in order, or rethrows the
  // first error.
  std::vector<Value> parallel_call(const std::vector<std::pair<Value, std::vector<Value>>>& calls, const Span& where);
  class AllowThreads {
   public:
    explicit AllowThreads(Interp& in);
    ~AllowThreads();
   private:
    Interp& in_;
    ThreadState* saved_ = nullptr;
    bool active_;
  };

  BlockHooks hooks;

  // Exception classes by error kind (interp/exceptions.cpp): the built-in ones, and those made for other kinds.
  std::map<std::string, Ref<Class>, std::less<>> exception_classes;
  // The warnings module's filters and the warnings already shown (interp/warnings.cpp); made on first use.
  std::shared_ptr<struct WarningState> warning_state;

  // Print every autocast decision to the err sink; starts as InterpConfig::trace_casts and the
  // REPL's `:trace on|off` switches it.
  bool trace_casts = false;

  // This interpreter's runtime state (dispatch layers, grad mode, RNG); current while it runs.
  rt::Context& runtime() { return rt_ctx_; }

  // The GradScaler that `scale(x)` uses: the most recently created enabled one (none if none).
  Value active_scaler;
  // Told about every checkpoint the script loads (amps_checkpoint_loaded: the stdlib's load()); the
  // AMP bindings note GradScaler state in it, so a GradScaler that then starts fresh warns.
  std::function<void(Interp&, const std::string& path, const Value& loaded)> checkpoint_loaded;

  // ---- evaluator (eval.cpp, exec.cpp, call.cpp, ops.cpp)
  Value eval(const Expr& e);
  Flow exec_block(const StmtList& body);

  // Throws an AmpsError of `kind` at `where`.
  [[noreturn]] static void fail(const char* kind, std::string msg, const Span& where);

 private:
  friend class Evaluator;
  struct Frame {
    Env* env;
    const Function* fn;
    Value ret;
  };
  // What one thread is evaluating: its call stack. Worker threads (DataParallel) have their
  // own; `ts_` points at the state of the thread that holds the interpreter lock.
  struct ThreadState {
    std::vector<Interp::Frame> frames;
    size_t depth = 0;
    const Stmt* last_stmt = nullptr;
    std::vector<AmpsError> handling;   // errors whose catch blocks are running (bare `raise`)
  };

  Flow exec(const Stmt& s);
  Flow exec_stmt(const Stmt& s);
  Flow exec_simple(const Stmt& s);
  Flow exec_control(const Stmt& s);
  Flow exec_for(const ForStmt& s);
  Flow exec_try(const TryStmt& s);   // exec_try.cpp
  Flow exec_try_body(const TryStmt& s, size_t depth, size_t frames);
  const TryHandler* matching_handler(const TryStmt& s, const AmpsError& err);
  Flow run_handler(const TryHandler& h, AmpsError& err);
  Flow exec_autocast(const AutocastStmt& s);
  Flow exec_grad_mode(const GradModeStmt& s);
  Flow exec_with(const WithStmt& s, size_t item);   // exec_with.cpp
  Value exit_with_error(const Value& exit, AmpsError& err, const Span& where);
  void set_item(const Value& obj, const std::vector<Subscript>& subs, Value v, const Span& where);
  Value index_value(const Value& obj, const std::vector<Subscript>& subs, const Span& where);
  [[noreturn]] void too_many_positional(const Function& fn, size_t npos, int star, const CallArgs& args);
  [[noreturn]] void missing_kw_only(const Function& fn, Env& env, int star, const Span& where);
  Value eval_set(const SetLit& e);
  bool comp_conds_pass(const CompClause& c);
  void comp_loop(const ListComp& e, size_t k, const Value& iterable, const std::function<void()>& emit);
  void eval_starred_display(const std::vector<ExprPtr>& items, const Span& where, std::vector<Value>& out);
  void assign_starred(const std::vector<ExprPtr>& targets, Value v, const Span& where);
  void bind_starred(const Pattern& p, std::vector<Value> items);
  void exec_let(const LetStmt& s);
  void exec_assign(const Expr& target, Value v);
  void exec_aug_assign(const AugAssignStmt& s);
  void exec_del(const Expr& target);          // exec_del.cpp
  void exec_import(const ImportStmt& s);
  void exec_from_import(const ImportStmt& s);
  // A closure for [d] with its decorators applied; [cls] is the class whose body declares it (methods).
  Value make_function(const FnDecl& d, const Class* cls = nullptr);
  Value eval_method_decorator(const Expr& e, const Class& cls);
  Value make_class(const ClassDecl& d);
  void bind(const Pattern& p, Value v);
  Value& slot(const VarRef& ref);
  Value load(const VarRef& ref, Atom name, const Span& where);
  const Value* borrow_operand(const Expr& e);
  static bool reads_only(const Expr& e);

  Value eval_compound(const Expr& e);
  Value eval_collection(const Expr& e);
  Value eval_call(const CallExpr& e);
  Value eval_index(const IndexExpr& e);
  Value eval_compare(const CompareExpr& e);
  Value eval_fstring(const FStr& e);
  Value eval_list_comp(const ListComp& e);
  Value eval_super(const SuperExpr& e);
  Value eval_scale(const ScaleExpr& e);
  void collect_args(const CallExpr& e, CallArgs& args);
  Value subscript_value(const Subscript& s);

  Value call_function(const Function& fn, CallArgs& args);
  Value call_native(const Native& fn, CallArgs& args);
  void bind_params(const Function& fn, Env& env, CallArgs& args);
  Value call_class(Class& cls, CallArgs& args);
  Value call_instance(const Value& self, CallArgs& args);
  Value load_module_file(const std::string& path, const Span& where);

  void check_budget(const Span& where);
  Value load_host_module(const std::string& name, const Span& where);
  void check_import_root(const std::string& path, const Span& where);

  InterpConfig cfg_;
  rt::Context rt_ctx_;
  BuiltinNames builtin_names_;
  std::vector<Value> builtins_;
  std::unique_ptr<TypeTable> types_;
  ModuleScope main_scope_;
  Ref<Env> main_env_;
  ThreadState main_ts_;
  ThreadState* ts_ = &main_ts_;
  std::mutex gil_;                          // held by the evaluating thread while workers exist
  std::atomic<bool> parallel_{false};
  std::vector<std::shared_ptr<Program>> programs_;      // every AST run so far stays alive
  std::map<std::string, ModuleInit> module_inits_;
  std::map<std::string, Value> modules_;                 // loaded modules by name or path
  std::vector<Ref<Env>> module_envs_;                    // cleared on destruction (cycles)
  std::vector<std::string> loading_;                     // file imports in progress (cycles)
  std::atomic<bool> interrupt_{false};
  std::atomic<uint64_t> steps_{0};                       // budget: steps since start_budget()
  std::chrono::steady_clock::time_point deadline_;       // budget: when the time budget runs out
};

}  // namespace amps::interp
