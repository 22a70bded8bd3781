// Python's exception classes and the bridge between exception instances and AmpsError (see exceptions.hpp).
#include "interp/exceptions.hpp"

#include <fmt/format.h>

#include "interp/builtins.hpp"

namespace amps::interp {
namespace {

// Python 3.11's built-in exceptions that amps raises or scripts commonly catch, each after its base. amps' own
// kinds: BudgetError (a host's step budget ran out). UnsupportedOperation is io's (an OSError and a ValueError),
// reachable through the errors that carry it, not as a global.
struct ExcSpec {
  const char* name;
  const char* base;
  const char* also = nullptr;
  bool global = true;
};
constexpr ExcSpec kExceptions[] = {
    {"BaseException", nullptr}, {"SystemExit", "BaseException"}, {"KeyboardInterrupt", "BaseException"},
    {"GeneratorExit", "BaseException"}, {"Exception", "BaseException"},
    {"ArithmeticError", "Exception"}, {"ZeroDivisionError", "ArithmeticError"}, {"OverflowError", "ArithmeticError"},
    {"FloatingPointError", "ArithmeticError"},
    {"LookupError", "Exception"}, {"IndexError", "LookupError"}, {"KeyError", "LookupError"},
    {"ValueError", "Exception"}, {"UnicodeError", "ValueError"}, {"UnicodeDecodeError", "UnicodeError"},
    {"UnicodeEncodeError", "UnicodeError"},
    {"TypeError", "Exception"}, {"AttributeError", "Exception"}, {"NameError", "Exception"},
    {"UnboundLocalError", "NameError"},
    {"RuntimeError", "Exception"}, {"NotImplementedError", "RuntimeError"}, {"RecursionError", "RuntimeError"},
    {"AssertionError", "Exception"}, {"StopIteration", "Exception"}, {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"}, {"MemoryError", "Exception"}, {"EOFError", "Exception"},
    {"SyntaxError", "Exception"},
    {"OSError", "Exception"}, {"FileNotFoundError", "OSError"}, {"FileExistsError", "OSError"},
    {"PermissionError", "OSError"}, {"IsADirectoryError", "OSError"}, {"NotADirectoryError", "OSError"},
    {"TimeoutError", "OSError"}, {"UnsupportedOperation", "OSError", "ValueError", false},
    {"BudgetError", "Exception"},
    {"Warning", "Exception"}, {"UserWarning", "Warning"}, {"DeprecationWarning", "Warning"},
    {"PendingDeprecationWarning", "Warning"}, {"SyntaxWarning", "Warning"}, {"RuntimeWarning", "Warning"},
    {"FutureWarning", "Warning"}, {"ImportWarning", "Warning"}, {"UnicodeWarning", "Warning"},
    {"BytesWarning", "Warning"}, {"ResourceWarning", "Warning"},
};

const Value& self_arg(CallArgs& a, const char* fn) {
  if (a.pos.empty() || !as_exception(a.pos[0])) Interp::fail("TypeError", std::string(fn) + " needs an exception instance", a.span);
  return a.pos[0];
}

// The instance's args as a vector (a non-tuple `args` attribute counts as one item).
std::vector<Value> args_of(const Value& self) {
  const Value* v = self.as<Instance>()->attrs.find(intern("args"));
  if (!v) return {};
  if (v->is(ObjKind::Tuple)) return v->as<Tuple>()->items;
  return {*v};
}

bool derives_from(const Class& cls, const char* name) {
  for (const Class* c = &cls; c; c = c->base.get())
    if (*c->name == name) return true;
  return false;
}

// BaseException.__str__: "" for no args, str(arg) for one, the tuple's repr for more; KeyError shows its key's repr
// and OSError(errno, strerror[, filename]) "[Errno n] text[: 'filename']", as Python's.
std::string exception_str(Interp& in, const Value& self) {
  auto* e = as_exception(self);
  if (e->native_text) return *e->native_text;
  std::vector<Value> args = args_of(self);
  if (args.size() == 1) return derives_from(*e->cls, "KeyError") ? in.repr(args[0]) : in.str(args[0]);
  if (derives_from(*e->cls, "OSError") && (args.size() == 2 || args.size() == 3)) {
    std::string out = fmt::format("[Errno {}] {}", in.str(args[0]), in.str(args[1]));
    return args.size() == 3 ? out + ": " + in.repr(args[2]) : out;
  }
  return args.empty() ? "" : in.repr(make_tuple(std::move(args)));
}

// BaseException.__repr__: `ValueError('m')`, `ValueError()`, `ValueError(1, 2)`.
std::string exception_repr(Interp& in, const Value& self) {
  std::vector<Value> args = args_of(self);
  const std::string& name = *self.as<Instance>()->cls->name;
  if (args.size() == 1) return name + "(" + in.repr(args[0]) + ")";
  return name + (args.empty() ? "()" : in.repr(make_tuple(std::move(args))));
}

void define_methods(Class& base) {
  base.attrs[intern("init")] = make<Native>("init", [](Interp&, CallArgs& a) {
    const Value& self = self_arg(a, "BaseException.init");
    if (!a.kw.empty())
      Interp::fail("TypeError", fmt::format("{}() takes no keyword arguments", *self.as<Instance>()->cls->name), a.span);
    self.as<Instance>()->attrs[intern("args")] = make_tuple(std::vector<Value>(a.pos.begin() + 1, a.pos.end()));
    return Value();
  });
  base.attrs[intern("__str__")] = make<Native>("__str__", [](Interp& in, CallArgs& a) {
    return make_str(exception_str(in, self_arg(a, "BaseException.__str__")));
  });
  base.attrs[intern("__repr__")] = make<Native>("__repr__", [](Interp& in, CallArgs& a) {
    return make_str(exception_repr(in, self_arg(a, "BaseException.__repr__")));
  });
  base.attrs[intern("with_traceback")] = make<Native>("with_traceback", [](Interp&, CallArgs& a) {
    return self_arg(a, "BaseException.with_traceback");   // amps keeps no traceback objects: the instance itself
  });
}

// The cause `raise ... from [cause]` names: an exception instance, a class (instantiated), or none.
void set_cause(Interp& in, ExcInstance& e, const Value& cause, const Span& where) {
  Value c = cause;
  if (c.is(ObjKind::Class) && c.as<Class>()->exception) c = in.call(c, std::vector<Value>{});
  if (!c.is_none() && !as_exception(c))
    Interp::fail("TypeError", "exception causes must derive from BaseException (or be none), not " + type_name(c), where);
  e.attrs[intern("__cause__")] = c;
  e.attrs[intern("__suppress_context__")] = Value(true);
}

// The error the CLI prints as [e]'s cause: where the cause was raised, or its text alone if it never was.
std::shared_ptr<const AmpsError> cause_error(Interp& in, const ExcInstance& e) {
  const Value* c = e.attrs.find(intern("__cause__"));
  ExcInstance* cause = c ? as_exception(*c) : nullptr;
  if (!cause) return nullptr;
  auto out = std::make_shared<AmpsError>(cause->origin ? *cause->origin : AmpsError("", ""));
  out->set_text(*cause->cls->name, in.str(*c));
  if (!cause->caught_in.empty()) out->finish_stack(cause->caught_in.c_str());
  return out;
}

Class& class_of(Interp& in, const AmpsError& err) {
  if (ExcInstance* e = as_exception(err.exception())) return *e->cls;
  return exception_class(in, err.kind());
}

}  // namespace

void install_exception_classes(Interp& in) {
  for (const ExcSpec& s : kExceptions) {
    Ref<Class> base = s.base ? in.exception_classes.at(s.base) : Ref<Class>();
    auto cls = make<Class>(intern(s.name), base);
    cls->exception = true;
    if (s.also) cls->also = in.exception_classes.at(s.also);
    if (!s.base) define_methods(*cls);
    in.exception_classes[s.name] = cls;
    if (s.global) in.def_global(s.name, cls);
  }
  for (const char* alias : {"IOError", "EnvironmentError"}) {   // Python 3's other names of OSError
    in.exception_classes[alias] = in.exception_classes.at("OSError");
    in.def_global(alias, in.exception_classes.at("OSError"));
  }
}

Class& exception_class(Interp& in, std::string_view kind) {
  auto it = in.exception_classes.find(kind);
  if (it != in.exception_classes.end()) return *it->second;
  auto cls = make<Class>(intern(kind), in.exception_classes.at("Exception"));
  in.exception_classes.emplace(std::string(kind), cls);
  return *cls;
}

Ref<ExcInstance> new_exception(Class& cls, std::vector<Value> args) {
  auto e = make<ExcInstance>(Ref<Class>(&cls));
  e->attrs[intern("args")] = make_tuple(std::move(args));
  return e;
}

AmpsError raise_error(Interp& in, const Value& v, const Value& cause, const Span& where) {
  Value inst = v;
  if (v.is(ObjKind::Class) && v.as<Class>()->exception) inst = in.call(v, std::vector<Value>{});
  ExcInstance* e = as_exception(inst);
  if (!e) {
    if (v.is(ObjKind::Str)) return AmpsError("RuntimeError", v.as<Str>()->value, where);   // amps' `raise "text"`
    Interp::fail("TypeError", "exceptions must derive from BaseException: raise an exception class or instance "
                              "(e.g. ValueError(\"...\")), not " + type_name(v), where);
  }
  if (!cause.is_undef()) set_cause(in, *e, cause, where);
  std::string kind = *e->cls->name, msg = in.str(inst);
  AmpsError err = e->origin ? *e->origin : AmpsError(kind, msg, where);
  err.set_text(std::move(kind), std::move(msg));
  if (!err.has_span()) err.set_span(where);
  err.set_exception(inst);
  err.set_cause(cause_error(in, *e));
  return err;
}

Value exception_value(Interp& in, AmpsError& err) {
  Value v = err.exception();
  ExcInstance* e = as_exception(v);
  if (!e) {
    auto made = new_exception(exception_class(in, err.kind()), {make_str(err.message())});
    made->native_text = err.message();
    e = made.get();
    v = std::move(made);
    err.set_exception(v);
  }
  AmpsError origin = err;
  origin.set_exception(Value());
  e->origin = std::move(origin);
  return v;
}

void set_context(Interp& in, AmpsError& raised, AmpsError& handled) {
  Value v = exception_value(in, raised);
  auto* e = v.as<ExcInstance>();
  if (e->attrs.find(intern("__context__"))) return;
  Value ctx = exception_value(in, handled);
  if (ctx.obj() != e) e->attrs[intern("__context__")] = ctx;
}

bool error_matches(Interp& in, const AmpsError& err, const Value& cls, const Span& where) {
  if (cls.is(ObjKind::Tuple)) {
    for (auto& c : cls.as<Tuple>()->items)
      if (error_matches(in, err, c, where)) return true;
    return false;
  }
  if (!cls.is(ObjKind::Class) || !cls.as<Class>()->exception)
    Interp::fail("TypeError", "catching classes that do not inherit from BaseException is not allowed (got " +
                              in.repr(cls) + ")", where);
  return class_of(in, err).is_subclass_of(cls.as<Class>());
}

bool error_is(Interp& in, const AmpsError& err, std::string_view kind) {
  if (err.kind() == kind) return true;
  return class_of(in, err).is_subclass_of(&exception_class(in, kind));
}

bool is_system_exit(const AmpsError& err) {
  if (err.kind() == "SystemExit") return true;
  ExcInstance* e = as_exception(err.exception());
  return e && derives_from(*e->cls, "SystemExit");
}

Value exception_attr(Interp& in, const Value& self, Atom name) {
  auto* e = as_exception(self);
  const std::string_view n = *name;
  if (n == "kind") return make_str(*e->cls->name);
  if (n == "__class__") return Value(e->cls);
  if (n == "message") return make_str(in.str(self));
  if (n == "line") return Value(int64_t(e->origin ? e->origin->span().line : 0));
  if (n == "column") return Value(int64_t(e->origin ? e->origin->span().col : 0));
  if (n == "__cause__" || n == "__context__" || n == "__traceback__") return Value();
  if (n == "__suppress_context__") return Value(false);
  const bool code = n == "code" && derives_from(*e->cls, "SystemExit");
  if (code || (n == "value" && derives_from(*e->cls, "StopIteration"))) {   // args[0], none without args
    std::vector<Value> args = args_of(self);
    if (args.size() > 1 && code) return make_tuple(std::move(args));
    return args.empty() ? Value() : args[0];
  }
  return Value::undef();
}

namespace {

// contextlib.suppress(*exceptions): a manager whose __exit__ swallows an error of one of [types] (a tuple of
// exception classes) or of a subclass, as Python's.
struct Suppress : Opaque {
  explicit Suppress(Value t) : types(std::move(t)) {}
  std::string type_name() const override { return "suppress"; }
  Value get_attr(Interp&, Atom name) override {
    if (*name == "__enter__") return make<BoundMethod>(Value(this), make<Native>("__enter__", [](Interp&, CallArgs&) { return Value(); }));
    if (*name != "__exit__") return Value::undef();
    return make<BoundMethod>(Value(this), make<Native>("__exit__", [](Interp&, CallArgs& a) {
      ArgReader r(a, "__exit__", {"self", "exc_type", "exc_value", "traceback"});
      const Value& type = r.get(1);
      if (!type.is(ObjKind::Class)) return Value(false);
      for (const Value& t : static_cast<Suppress*>(r.get(0).obj())->types.as<Tuple>()->items)
        if (type.as<Class>()->is_subclass_of(t.as<Class>())) return Value(true);
      return Value(false);
    }));
  }
  Value types;
};

}  // namespace

Value b_suppress(Interp& in, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", "suppress() takes no keyword arguments", a.span);
  for (const Value& t : a.pos)
    if (!t.is(ObjKind::Class) || !t.as<Class>()->exception)
      Interp::fail("TypeError", "suppress() takes exception classes (e.g. suppress(FileNotFoundError)), not " + in.repr(t), a.span);
  return make<Suppress>(make_tuple(a.pos));
}

void raise_key_error(Interp& in, const Value& key, const Span& where) {
  throw raise_error(in, new_exception(exception_class(in, "KeyError"), {key}), Value::undef(), where);
}

}  // namespace amps::interp
