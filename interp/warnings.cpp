// Python's warnings module and the single path of every warning amps prints (see warnings.hpp).
#include "interp/warnings.hpp"

#include <fmt/format.h>

#include <regex>

#include "interp/builtins.hpp"
#include "interp/diagnostics.hpp"
#include "interp/exceptions.hpp"

namespace amps::interp {
namespace {

bool is_warning_class(Interp& in, const Value& v) {
  return v.is(ObjKind::Class) && v.as<Class>()->is_subclass_of(&exception_class(in, "Warning"));
}

// Python's default filters for a script (no -W): pending deprecations, import and resource warnings are ignored.
WarningState& state(Interp& in) {
  if (!in.warning_state) {
    in.warning_state = std::make_shared<WarningState>();
    for (const char* c : {"ResourceWarning", "ImportWarning", "PendingDeprecationWarning"})
      in.warning_state->filters.push_back({"ignore", "", Value(&exception_class(in, c)), 0});
  }
  return *in.warning_state;
}

bool matches(const WarningFilter& f, const Value& category, const std::string& text, const Span& where) {
  if (!category.as<Class>()->is_subclass_of(f.category.as<Class>())) return false;
  if (f.lineno != 0 && f.lineno != where.line) return false;
  if (f.message.empty()) return true;
  const std::regex re(f.message, std::regex::ECMAScript | std::regex::icase);
  return std::regex_search(text, re, std::regex_constants::match_continuous);
}

void emit(Interp& in, const Value& category, const std::string& text, const Span& where) {
  WarningState& st = state(in);
  std::string action = "default";
  for (const WarningFilter& f : st.filters)
    if (matches(f, category, text, where)) { action = f.action; break; }
  if (action == "ignore") return;
  Class& cls = *category.as<Class>();
  if (action == "error") throw raise_error(in, Value(new_exception(cls, {make_str(text)})), Value::undef(), where);
  const std::string pos = format_position(where);
  if (action != "always") {   // default: once per place, module: once per file, once: once
    std::string key = *cls.name + '\n' + text;
    if (action == "default") key += '\n' + pos;
    if (action == "module") key += '\n' + (where.file ? where.file->name() : std::string());
    if (!st.shown.insert(key).second) return;
  }
  in.write_err(fmt::format("{}: {}: {}\n", pos, *cls.name, text));
}

const char* const kActions[] = {"error", "ignore", "always", "default", "module", "once"};

std::string checked_action(const Value& v, const Span& where) {
  if (v.is(ObjKind::Str))
    for (const char* a : kActions)
      if (v.as<Str>()->value == a) return a;
  Interp::fail("AssertionError", fmt::format("invalid action: {} (one of 'error', 'ignore', 'always', 'default', "
                                             "'module', 'once')", v.is(ObjKind::Str) ? "'" + v.as<Str>()->value + "'"
                                                                                        : type_name(v)), where);
}

// Inserts [f] first (last with append), dropping an equal filter, as Python's _add_filter.
void add_filter(Interp& in, WarningFilter f, bool append) {
  auto& fs = state(in).filters;
  std::erase_if(fs, [&](const WarningFilter& g) {
    return g.action == f.action && g.message == f.message && g.category.obj() == f.category.obj() && g.lineno == f.lineno;
  });
  if (append) fs.push_back(std::move(f));
  else fs.insert(fs.begin(), std::move(f));
}

Value category_arg(Interp& in, const ArgReader& r, size_t i, const char* dflt) {
  if (!r.has(i)) return Value(&exception_class(in, dflt));
  if (!is_warning_class(in, r.get(i)))
    Interp::fail("TypeError", fmt::format("category must be a Warning subclass, not '{}'", type_name(r.get(i))), r.span());
  return r.get(i);
}

int64_t lineno_arg(const ArgReader& r, size_t i) {
  if (!r.has(i)) return 0;
  if (!r.get(i).is_int() || r.get(i).as_int() < 0) Interp::fail("AssertionError", "lineno must be an int >= 0", r.span());
  return r.get(i).as_int();
}

// warn(message, category=UserWarning, stacklevel=1, source=none): shown at the warn() call (amps keeps no caller
// positions, so stacklevel is checked but does not move the position).
Value b_warn(Interp& in, CallArgs& a) {
  ArgReader r(a, "warn", {"message", "category", "stacklevel", "source"});
  const Value& m = r.required(0);
  if (r.has(2) && !r.get(2).is_int()) Interp::fail("TypeError", "stacklevel must be an int", a.span);
  if (ExcInstance* e = as_exception(m); e && is_warning_class(in, Value(e->cls))) {
    emit(in, Value(e->cls), in.str(m), a.span);
    return Value();
  }
  Value category = r.has(1) && r.get(1).is_none() ? Value(&exception_class(in, "UserWarning")) : category_arg(in, r, 1, "UserWarning");
  emit(in, category, in.str(m), a.span);
  return Value();
}

Value b_filterwarnings(Interp& in, CallArgs& a) {
  ArgReader r(a, "filterwarnings", {"action", "message", "category", "module", "lineno", "append"});
  WarningFilter f{checked_action(r.required(0), a.span), "", category_arg(in, r, 2, "Warning"), lineno_arg(r, 4)};
  if (r.has(1)) {
    if (!r.get(1).is(ObjKind::Str)) Interp::fail("AssertionError", "message must be a string", a.span);
    f.message = r.get(1).as<Str>()->value;
    try { std::regex(f.message, std::regex::ECMAScript); }
    catch (const std::regex_error&) { Interp::fail("ValueError", fmt::format("bad message pattern: '{}'", f.message), a.span); }
  }
  if (r.has(3) && !r.get(3).is(ObjKind::Str)) Interp::fail("AssertionError", "module must be a string", a.span);
  add_filter(in, std::move(f), r.has(5) && in.truthy(r.get(5)));
  return Value();
}

Value b_simplefilter(Interp& in, CallArgs& a) {
  ArgReader r(a, "simplefilter", {"action", "category", "lineno", "append"});
  add_filter(in, {checked_action(r.required(0), a.span), "", category_arg(in, r, 1, "Warning"), lineno_arg(r, 2)},
             r.has(3) && in.truthy(r.get(3)));
  return Value();
}

// catch_warnings(): a context manager that restores the filters (and what was shown) on exit.
struct CatchWarnings : Opaque {
  std::string type_name() const override { return "catch_warnings"; }
  Value get_attr(Interp&, Atom name) override {
    if (*name == "__enter__")
      return make<BoundMethod>(Value(this), make<Native>("__enter__", [](Interp& in, CallArgs& a) {
        static_cast<CatchWarnings*>(a.pos.at(0).obj())->saved = state(in);
        return Value();
      }));
    if (*name == "__exit__")
      return make<BoundMethod>(Value(this), make<Native>("__exit__", [](Interp& in, CallArgs& a) {
        state(in) = static_cast<CatchWarnings*>(a.pos.at(0).obj())->saved;
        return Value(false);
      }));
    return Value::undef();
  }
  WarningState saved;
};

Value b_catch_warnings(Interp&, CallArgs& a) {
  ArgReader r(a, "catch_warnings", {"record", "module"});
  if (r.has(0) && r.get(0).is_bool() && r.get(0).as_bool())
    Interp::fail("TypeError", "catch_warnings(record=true) is not supported in amps: to check that code warns, use "
                              "simplefilter(\"error\") inside catch_warnings() and `except UserWarning`", a.span);
  return make<CatchWarnings>();
}

}  // namespace

void emit_warning(Interp& in, std::string_view category, const std::string& text, const Span& where) {
  emit(in, Value(&exception_class(in, category)), text, where);
}

void install_warnings_module(Interp& in) {
  in.def_module("warnings", [](Interp&, Module& m) {
    m.attrs[intern("warn")] = make<Native>("warn", b_warn);
    m.attrs[intern("filterwarnings")] = make<Native>("filterwarnings", b_filterwarnings);
    m.attrs[intern("simplefilter")] = make<Native>("simplefilter", b_simplefilter);
    m.attrs[intern("resetwarnings")] = make<Native>("resetwarnings", [](Interp& in, CallArgs& a) {
      ArgReader r(a, "resetwarnings", {});
      state(in).filters.clear();
      return Value();
    });
    m.attrs[intern("catch_warnings")] = make<Native>("catch_warnings", b_catch_warnings);
  });
}

}  // namespace amps::interp
