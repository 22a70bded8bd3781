// Calls: argument collection, binding to parameters, and calling every kind of callable.
#include <fmt/format.h>

#include "interp/exceptions.hpp"
#include "interp/interp.hpp"
#include "runtime/error.hpp"

namespace amps::interp {

std::string callee_name(const Value& v) {
  if (v.is(ObjKind::Function)) return *v.as<Function>()->decl->name;
  if (v.is(ObjKind::Native)) return v.as<Native>()->name;
  if (v.is(ObjKind::BoundMethod)) return callee_name(v.as<BoundMethod>()->fn);
  if (v.is(ObjKind::Class)) return *v.as<Class>()->name;
  return type_name(v);
}

// Positional, keyword, *splat and **splat arguments, evaluated left to right.
void Interp::collect_args(const CallExpr& e, CallArgs& args) {
  args.span = e.span;
  args.pos.reserve(e.args.size());
  for (auto& a : e.args) {
    switch (a.kind) {
      case Arg::Kind::Positional: args.pos.push_back(eval(*a.value)); break;
      case Arg::Kind::Keyword: args.kw.emplace_back(a.name, eval(*a.value)); break;
      case Arg::Kind::Splat:
        iterate(eval(*a.value), a.value->span, [&](Value v) { args.pos.push_back(std::move(v)); return true; });
        break;
      case Arg::Kind::KwSplat: {
        Value d = eval(*a.value);
        if (!d.is(ObjKind::Dict)) fail("TypeError", "argument after ** must be a dict, not " + type_name(d), a.value->span);
        for (auto& [k, v] : d.as<Dict>()->entries) {
          if (!k.is(ObjKind::Str)) fail("TypeError", "keywords must be strings", a.value->span);
          args.kw.emplace_back(intern(k.as<Str>()->value), v);
        }
        break;
      }
    }
  }
}

// CallExpr: f(args). Errors raised inside the callee get this call site as a stack frame.
Value Interp::eval_call(const CallExpr& e) {
  Value callee = eval(*e.callee);
  CallArgs args;
  collect_args(e, args);
  try {
    return call(callee, args);
  } catch (AmpsError& err) {
    if (!err.has_span()) err.set_span(e.span);
    throw;
  }
}

Value Interp::call(const Value& callee, std::vector<Value> pos) {
  CallArgs args;
  args.pos = std::move(pos);
  if (!ts_->frames.empty() && ts_->last_stmt) args.span = ts_->last_stmt->span;
  return call(callee, args);
}

Value Interp::call(const Value& callee, CallArgs& args) {
  if (!callee.is_obj()) fail("TypeError", fmt::format("'{}' object is not callable", type_name(callee)), args.span);
  switch (callee.obj()->kind()) {
    case ObjKind::Function: return call_function(*callee.as<Function>(), args);
    case ObjKind::Native: return call_native(*callee.as<Native>(), args);
    case ObjKind::BoundMethod: {
      auto* m = callee.as<BoundMethod>();
      args.pos.insert(args.pos.begin(), m->self);
      return call(m->fn, args);
    }
    case ObjKind::Class: return call_class(*callee.as<Class>(), args);
    case ObjKind::Instance: return call_instance(callee, args);
    default: {   // a native object with a `__call__` method (no_grad() as a decorator)
      Value m = is_opaque(callee) ? find_attr(callee, intern("__call__")) : Value::undef();
      if (m.is_undef()) fail("TypeError", fmt::format("'{}' object is not callable", type_name(callee)), args.span);
      return call(m, args);
    }
  }
}

// Native call; runtime errors become amps errors at the call site.
Value Interp::call_native(const Native& fn, CallArgs& args) {
  try {
    return fn.fn(*this, args);
  } catch (const rt::Error& e) {
    throw AmpsError(e.kind(), e.message(), args.span);
  } catch (const std::bad_alloc&) {
    throw AmpsError("MemoryError", "out of memory in " + fn.name + "()", args.span);
  }
}

// Script function call: a fresh Env for the locals, depth-limited, with a stack frame
// added to any error that escapes.
Value Interp::call_function(const Function& fn, CallArgs& args) {
  if (ts_->depth >= cfg_.max_call_depth)
    fail("RecursionError", fmt::format("maximum recursion depth exceeded ({} nested calls); check for a "
                                       "recursive function that never reaches its base case", cfg_.max_call_depth),
         args.span);
  check_interrupt(args.span);
  auto env = make<Env>(fn.closure, fn.decl->num_slots);
  bind_params(fn, *env, args);
  ts_->frames.push_back(Frame{env.get(), &fn, Value()});
  ++ts_->depth;
  try {
    exec_block(fn.decl->body);
  } catch (AmpsError& err) {
    --ts_->depth;
    ts_->frames.pop_back();
    if (!err.has_span()) err.set_span(args.span);
    err.unwind(*fn.decl->name, args.span);
    throw;
  }
  --ts_->depth;
  Value ret = std::move(ts_->frames.back().ret);
  ts_->frames.pop_back();
  return ret;
}

// Binds arguments to parameter slots with Python's rules (defaults, keywords, *rest, **kw).
void Interp::bind_params(const Function& fn, Env& env, CallArgs& args) {
  const auto& params = fn.decl->params;
  const std::string& name = *fn.decl->name;
  size_t npos = 0;
  int rest = -1, kwrest = -1, star = -1;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind == Param::Kind::Rest) rest = int(i);
    else if (params[i].kind == Param::Kind::KwRest) kwrest = int(i);
    else if (params[i].kind == Param::Kind::Star) star = int(i);
    else if (rest < 0 && star < 0) ++npos;
  }
  if (args.pos.size() > npos && rest < 0) too_many_positional(fn, npos, star, args);
  size_t pi = 0;
  for (size_t i = 0; i < params.size() && pi < args.pos.size(); ++i) {
    if (params[i].kind != Param::Kind::Plain) break;
    env.slots[i] = std::move(args.pos[pi++]);
  }
  if (rest >= 0) {
    std::vector<Value> extra(std::make_move_iterator(args.pos.begin() + pi), std::make_move_iterator(args.pos.end()));
    env.slots[rest] = make_tuple(std::move(extra));
  }
  Ref<Dict> kwdict = kwrest >= 0 ? make<Dict>() : Ref<Dict>();
  for (auto& [key, val] : args.kw) {
    size_t i = 0;
    while (i < params.size() && !(params[i].kind == Param::Kind::Plain && params[i].name == key)) ++i;
    if (i == params.size()) {
      if (kwdict) { kwdict->set(make_str(*key), std::move(val)); continue; }
      fail("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", name, *key), args.span);
    }
    if (!env.slots[i].is_undef())
      fail("TypeError", fmt::format("{}() got multiple values for argument '{}'", name, *key), args.span);
    env.slots[i] = std::move(val);
  }
  if (kwdict) env.slots[kwrest] = kwdict;
  int first_kw_only = std::max(rest, star);
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind != Param::Kind::Plain || !env.slots[i].is_undef()) continue;
    if (!fn.defaults[i].is_undef()) { env.slots[i] = fn.defaults[i]; continue; }
    if (first_kw_only >= 0 && int(i) > first_kw_only) missing_kw_only(fn, env, first_kw_only, args.span);
    fail("TypeError", fmt::format("{}() missing required argument '{}'", name, *params[i].name), args.span);
  }
}

// Python's "f() takes 1 positional argument but 2 were given", naming the keyword-only arguments given too.
void Interp::too_many_positional(const Function& fn, size_t npos, int star, const CallArgs& args) {
  const auto& params = fn.decl->params;
  size_t kw_only = 0;
  for (auto& [key, val] : args.kw)
    for (size_t i = size_t(std::max(star, 0)) + 1; star >= 0 && i < params.size(); ++i)
      kw_only += params[i].kind == Param::Kind::Plain && params[i].name == key;
  std::string given = std::to_string(args.pos.size());
  if (kw_only)
    given += fmt::format(" positional argument{} (and {} keyword-only argument{})", args.pos.size() == 1 ? "" : "s",
                         kw_only, kw_only == 1 ? "" : "s");
  fail("TypeError", fmt::format("{}() takes {} positional argument{} but {} were given", *fn.decl->name, npos,
                                npos == 1 ? "" : "s", given), args.span);
}

// Python's "f() missing 2 required keyword-only arguments: 'a' and 'b'" for the unbound parameters after `*`.
void Interp::missing_kw_only(const Function& fn, Env& env, int star, const Span& where) {
  const auto& params = fn.decl->params;
  std::vector<std::string> names;
  for (size_t i = size_t(star) + 1; i < params.size(); ++i)
    if (params[i].kind == Param::Kind::Plain && env.slots[i].is_undef() && fn.defaults[i].is_undef())
      names.push_back("'" + *params[i].name + "'");
  std::string list = names.back();
  if (names.size() == 2) list = names[0] + " and " + names[1];
  if (names.size() > 2) {
    list.clear();
    for (size_t i = 0; i + 1 < names.size(); ++i) list += names[i] + ", ";
    list += "and " + names.back();
  }
  fail("TypeError", fmt::format("{}() missing {} required keyword-only argument{}: {}", *fn.decl->name, names.size(),
                                names.size() == 1 ? "" : "s", list), where);
}

// Calling a class makes an instance and runs its `init` (from the class or a base).
Value Interp::call_class(Class& cls, CallArgs& args) {
  const Value* ctor = cls.lookup(intern("__new__"));
  if (ctor) return call(*ctor, args);   // natively backed classes build their own instance
  // An exception's args are its constructor's arguments until an init says otherwise (BaseException.__new__).
  Ref<Instance> inst = cls.exception ? Ref<Instance>(new_exception(cls, args.pos)) : make<Instance>(Ref<Class>(&cls));
  const Value* init = cls.lookup(intern("init"));
  if (init) {
    args.pos.insert(args.pos.begin(), Value(inst));
    call(*init, args);
  } else if (!args.pos.empty() || !args.kw.empty()) {
    fail("TypeError", fmt::format("{}() takes no arguments (define `fn init(self, ...)`)", *cls.name), args.span);
  }
  return inst;
}

// model(x): an instance is callable through `__call__`, else `forward` (like nn.Module).
Value Interp::call_instance(const Value& self, CallArgs& args) {
  auto* inst = self.as<Instance>();
  const Value* m = inst->cls->lookup(intern("__call__"));
  if (!m) m = inst->cls->lookup(intern("forward"));
  if (!m) fail("TypeError", fmt::format("'{}' object is not callable (define `forward` or `__call__`)", *inst->cls->name), args.span);
  args.pos.insert(args.pos.begin(), self);
  return call(*m, args);
}

std::string callee_display_name(const Value& v) { return callee_name(v); }

}  // namespace amps::interp
