// Core builtins: print, len, range, conversions, containers, introspection, error values.
#include "interp/builtins.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "interp/operators.hpp"
#include "interp/type_table.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

// print(*values, sep=" ", end="\n", file=none, flush=false): `file` is anything with write(s) (sys.stderr, a file
// from open()); none writes to the interpreter's output.
Value b_print(Interp& in, CallArgs& a) {
  std::string sep = " ", end = "\n";
  Value file;
  bool flush = false;
  for (auto& [k, v] : a.kw) {
    if (*k == "sep") sep = v.is_none() ? " " : in.str(v);
    else if (*k == "end") end = v.is_none() ? "\n" : in.str(v);
    else if (*k == "file") file = v;
    else if (*k == "flush") flush = in.truthy(v);
    else Interp::fail("TypeError", fmt::format("print() got an unexpected keyword argument '{}' (it takes: sep, end, file, flush)", *k), a.span);
  }
  std::string out;
  for (size_t i = 0; i < a.pos.size(); ++i) out += (i ? sep : "") + in.str(a.pos[i]);
  if (file.is_none()) {
    in.write_out(out + end);
    if (flush) std::fflush(stdout);
    return Value();
  }
  Value write = in.find_attr(file, intern("write"));
  if (write.is_undef()) Interp::fail("AttributeError", fmt::format("'{}' object has no attribute 'write'", type_name(file)), a.span);
  in.call(write, {make_str(out + end)});
  if (flush) {
    Value f = in.find_attr(file, intern("flush"));
    if (!f.is_undef()) in.call(f, std::vector<Value>{});
  }
  return Value();
}

Value b_len(Interp& in, CallArgs& a) {
  ArgReader r(a, "len", {"obj"});
  const Value& v = r.required(0);
  if (v.is(ObjKind::Str)) return Value(utf8_length(v.as<Str>()->value));
  if (v.is(ObjKind::List)) return Value(int64_t(v.as<List>()->items.size()));
  if (v.is(ObjKind::Tuple)) return Value(int64_t(v.as<Tuple>()->items.size()));
  if (v.is(ObjKind::Dict)) return Value(int64_t(v.as<Dict>()->size()));
  if (v.is(ObjKind::Range)) return Value(v.as<Range>()->size());
  Value m = in.find_attr(v, intern("__len__"));
  if (m.is_undef()) Interp::fail("TypeError", fmt::format("object of type '{}' has no len()", type_name(v)), a.span);
  return in.call(m, std::vector<Value>{});
}

Value b_range(Interp&, CallArgs& a) {
  ArgReader r(a, "range", {"start", "stop", "step"});
  for (size_t i = 0; i < r.size(); ++i)
    if (r.has(i) && !r.get(i).is_int() && !r.get(i).is_bool()) r.type_error(i, "int");
  int64_t start = 0, stop = r.int_or(0, 0), step = r.int_or(2, 1);
  if (r.has(1)) start = r.int_or(0, 0), stop = r.int_or(1, 0);
  if (step == 0) Interp::fail("ValueError", "range() step must not be zero", a.span);
  return make<Range>(start, stop, step);
}

Value b_str(Interp& in, CallArgs& a) {
  ArgReader r(a, "str", {"obj"});
  return make_str(r.has(0) ? in.str(r.get(0)) : "");
}

Value b_repr(Interp& in, CallArgs& a) {
  ArgReader r(a, "repr", {"obj"});
  return make_str(in.repr(r.required(0)));
}

Value parse_number(const std::string& text, bool want_int, const Span& where) {
  std::string s = text;
  s.erase(0, s.find_first_not_of(" \t\n"));
  s.erase(s.find_last_not_of(" \t\n") + 1);
  char* end = nullptr;
  errno = 0;
  if (want_int) {
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && *end == '\0' && errno == 0) return Value(int64_t(v));
    Interp::fail("ValueError", fmt::format("invalid literal for int(): '{}'", text), where);
  }
  double d = std::strtod(s.c_str(), &end);
  if (!s.empty() && *end == '\0') return Value(d);
  Interp::fail("ValueError", fmt::format("could not convert string to float: '{}'", text), where);
}

}  // namespace

Value int_of_integral_double(double d, const Span& where) {
  if (std::isnan(d)) Interp::fail("ValueError", "cannot convert float NaN to integer", where);
  if (std::isinf(d)) Interp::fail("OverflowError", "cannot convert float infinity to integer", where);
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    Interp::fail("OverflowError", "integer result does not fit in 64 bits", where);
  return Value(int64_t(d));
}

namespace {

Value b_int(Interp& in, CallArgs& a) {
  ArgReader r(a, "int", {"x"});
  if (!r.has(0)) return Value(int64_t(0));
  const Value& v = r.get(0);
  if (v.is_int() || v.is_bool()) return Value(v.as_int());
  if (v.is_float()) {
    return int_of_integral_double(std::trunc(v.as_float()), a.span);  // Python's errors for NaN and infinities
  }
  if (v.is(ObjKind::Str)) return parse_number(v.as<Str>()->value, true, a.span);
  Value m = in.find_attr(v, intern("item"));
  if (!m.is_undef()) {
    CallArgs inner;
    inner.pos.push_back(in.call(m, std::vector<Value>{}));
    inner.span = a.span;
    return b_int(in, inner);
  }
  r.type_error(0, "a number or string");
}

Value b_float(Interp& in, CallArgs& a) {
  ArgReader r(a, "float", {"x"});
  if (!r.has(0)) return Value(0.0);
  const Value& v = r.get(0);
  if (v.is_number()) return Value(v.to_double());
  if (v.is(ObjKind::Str)) return parse_number(v.as<Str>()->value, false, a.span);
  Value m = in.find_attr(v, intern("item"));
  if (!m.is_undef()) return Value(in.call(m, std::vector<Value>{}).to_double());
  r.type_error(0, "a number or string");
}

Value b_bool(Interp& in, CallArgs& a) {
  ArgReader r(a, "bool", {"x"});
  return Value(r.has(0) && in.truthy(r.get(0)));
}

std::vector<Value> to_vector(Interp& in, const Value& v, const Span& where) {
  std::vector<Value> out;
  in.iterate(v, where, [&](Value x) { out.push_back(std::move(x)); return true; });
  return out;
}

Value b_list(Interp& in, CallArgs& a) {
  ArgReader r(a, "list", {"iterable"});
  return make_list(r.has(0) ? to_vector(in, r.get(0), a.span) : std::vector<Value>{});
}

Value b_tuple(Interp& in, CallArgs& a) {
  ArgReader r(a, "tuple", {"iterable"});
  return make_tuple(r.has(0) ? to_vector(in, r.get(0), a.span) : std::vector<Value>{});
}

// An instance's bound keys() when it also has __getitem__ (a mapping to Python's dict(), e.g. collections.OrderedDict),
// else undef.
static Value mapping_keys(Interp& in, const Value& v) {
  if (!v.is(ObjKind::Instance) || in.find_attr(v, intern("__getitem__")).is_undef()) return Value::undef();
  return in.find_attr(v, intern("keys"));
}

Value b_dict(Interp& in, CallArgs& a) {
  auto d = make<Dict>();
  if (a.pos.size() > 1) Interp::fail("TypeError", "dict() takes at most 1 positional argument", a.span);
  if (a.pos.size() == 1) {
    if (a.pos[0].is(ObjKind::Dict)) {
      for (auto& [k, v] : a.pos[0].as<Dict>()->entries) d->set(k, v);
    } else if (Value keys = mapping_keys(in, a.pos[0]); !keys.is_undef()) {  // Python's dict(mapping)
      Value getitem = in.find_attr(a.pos[0], intern("__getitem__"));
      for (auto& k : to_vector(in, in.call(keys, std::vector<Value>{}), a.span)) {
        check_hashable(k);
        d->set(k, in.call(getitem, std::vector<Value>{k}));
      }
    } else {
      for (auto& pair : to_vector(in, a.pos[0], a.span)) {
        auto kv = to_vector(in, pair, a.span);
        if (kv.size() != 2) Interp::fail("ValueError", "dict() needs (key, value) pairs", a.span);
        check_hashable(kv[0]);
        d->set(kv[0], kv[1]);
      }
    }
  }
  for (auto& [k, v] : a.kw) d->set(make_str(*k), v);
  return d;
}

// type(x): x's type object, the value its type's name denotes (type(5) is int, type(t) is Tensor, type(Net()) is Net).
Value b_type(Interp& in, CallArgs& a) {
  if (a.pos.size() == 3)
    Interp::fail("TypeError", "type(name, bases, dict) is not supported: amps makes classes with a class statement only "
                              "(write `class Name(Base) { ... }`)", a.span);
  if (a.pos.size() == 1 && a.kw.empty()) return type_of(in, a.pos[0]);   // the usual call, without ArgReader's allocations
  ArgReader r(a, "type", {"object"});
  return type_of(in, r.required(0));
}

// isinstance(x, C): classes compare along the base chain, built-in types by x's type (bool is an int); other
// natives (a host's object constructors) by name.
bool is_instance(Interp& in, const Value& v, const Value& cls, const Span& where) {
  if (cls.is(ObjKind::Tuple)) {
    for (auto& c : cls.as<Tuple>()->items)
      if (is_instance(in, v, c, where)) return true;
    return false;
  }
  if (cls.is(ObjKind::Class) && *cls.as<Class>()->name == "object" && !cls.as<Class>()->base) return true;  // Python's root
  if (cls.is(ObjKind::Class)) return v.is(ObjKind::Instance) && v.as<Instance>()->cls->is_subclass_of(cls.as<Class>());
  if (const BuiltinType* t = as_builtin_type(cls)) return is_builtin_instance(in, v, *t);
  if (cls.is(ObjKind::Native)) {
    const std::string& name = cls.as<Native>()->name;
    return type_name(v) == name || (name == "int" && v.is_bool());   // bool is an int, as in Python
  }
  Interp::fail("TypeError", "isinstance() arg 2 must be a class, a type or a tuple of them", where);
}

Value b_isinstance(Interp& in, CallArgs& a) {
  if (a.pos.size() == 2 && a.kw.empty()) return Value(is_instance(in, a.pos[0], a.pos[1], a.span));   // no allocation
  ArgReader r(a, "isinstance", {"obj", "classinfo"});
  return Value(is_instance(in, r.required(0), r.required(1), a.span));
}

Value b_abs(Interp& in, CallArgs& a) {
  ArgReader r(a, "abs", {"x"});
  const Value& v = r.required(0);
  if (v.is_float()) return Value(std::fabs(v.as_float()));
  if (v.is_int() || v.is_bool()) {
    if (v.as_int() == INT64_MIN) Interp::fail("OverflowError", "integer result does not fit in 64 bits", a.span);
    return Value(v.as_int() < 0 ? -v.as_int() : v.as_int());
  }
  Value m = in.find_attr(v, intern("abs"));
  if (!m.is_undef()) return in.call(m, std::vector<Value>{});
  r.type_error(0, "a number");
}

// min/max over one iterable or several arguments, with key=.
Value extremum(Interp& in, CallArgs& a, bool want_max) {
  const char* name = want_max ? "max" : "min";
  Value key, dflt = Value::undef();
  for (auto& [k, v] : a.kw) {
    if (*k == "key") key = v;
    else if (*k == "default") dflt = v;
    else Interp::fail("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", name, *k), a.span);
  }
  std::vector<Value> items = a.pos.size() == 1 ? to_vector(in, a.pos[0], a.span) : a.pos;
  if (items.empty()) {
    if (!dflt.is_undef()) return dflt;
    Interp::fail("ValueError", fmt::format("{}() arg is an empty sequence", name), a.span);
  }
  Value best = items[0], best_key = key.is_none() ? items[0] : in.call(key, {items[0]});
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key.is_none() ? items[i] : in.call(key, {items[i]});
    bool better = want_max ? value_less(in, best_key, k, a.span) : value_less(in, k, best_key, a.span);
    if (better) best = items[i], best_key = k;
  }
  return best;
}

Value b_sum(Interp& in, CallArgs& a) {
  ArgReader r(a, "sum", {"iterable", "start"});
  Value total = r.has(1) ? r.get(1) : Value(int64_t(0));
  in.iterate(r.required(0), a.span, [&](Value v) {
    total = binary_op(in, BinaryOp::Add, total, v, a.span);
    return true;
  });
  return total;
}

Value b_round(Interp& in, CallArgs& a) {
  ArgReader r(a, "round", {"number", "ndigits"});
  const Value& v = r.required(0);
  if (!v.is_number()) {
    Value m = in.find_attr(v, intern("item"));
    if (m.is_undef()) r.type_error(0, "a number");
  }
  double d = v.is_number() ? v.to_double() : in.call(in.find_attr(v, intern("item")), std::vector<Value>{}).to_double();
  if (!r.has(1) || r.get(1).is_none()) {
    double f = std::nearbyint(d);   // round half to even, like Python
    if (!std::isfinite(f)) Interp::fail("ValueError", "cannot round " + format_float(d) + " to an int", a.span);
    return int_of_integral_double(f, a.span);
  }
  if (v.is_int()) return v;
  int64_t nd = r.int_or(1, 0);
  // Correctly rounded like Python: decimal rounding of the exact binary value (2.675 -> 2.67).
  if (nd >= 0 && nd <= 300 && std::isfinite(d)) return Value(std::strtod(fmt::format("{:.{}f}", d, nd).c_str(), nullptr));
  double scale = std::pow(10.0, double(nd));
  return Value(std::nearbyint(d * scale) / scale);
}

Value b_sorted(Interp& in, CallArgs& a) {
  ArgReader r(a, "sorted", {"iterable", "key", "reverse"});
  auto items = to_vector(in, r.required(0), a.span);
  Value key = r.has(1) ? r.get(1) : Value();
  std::vector<std::pair<Value, Value>> keyed;
  for (auto& v : items) keyed.emplace_back(key.is_none() ? v : in.call(key, {v}), v);
  // Stable in both directions, as Python's: reverse=true orders by the reversed comparison, equal items keep their order.
  const bool reverse = r.bool_or(2, false);
  std::stable_sort(keyed.begin(), keyed.end(), [&](auto& x, auto& y) {
    return reverse ? value_less(in, y.first, x.first, a.span) : value_less(in, x.first, y.first, a.span);
  });
  std::vector<Value> out;
  for (auto& [k, v] : keyed) out.push_back(v);
  return make_list(std::move(out));
}

Value b_reversed(Interp& in, CallArgs& a) {
  ArgReader r(a, "reversed", {"seq"});
  auto items = to_vector(in, r.required(0), a.span);
  std::reverse(items.begin(), items.end());
  return make_list(std::move(items));
}

Value attr_name(const ArgReader& r, size_t i) {
  if (!r.required(i).is(ObjKind::Str)) r.type_error(i, "str");
  return r.get(i);
}

Value b_hasattr(Interp& in, CallArgs& a) {
  ArgReader r(a, "hasattr", {"obj", "name"});
  return Value(!in.find_attr(r.required(0), intern(attr_name(r, 1).as<Str>()->value)).is_undef());
}

Value b_getattr(Interp& in, CallArgs& a) {
  ArgReader r(a, "getattr", {"obj", "name", "default"});
  Atom name = intern(attr_name(r, 1).as<Str>()->value);
  Value v = in.find_attr(r.required(0), name);
  if (!v.is_undef()) return v;
  if (r.has(2)) return r.get(2);
  return in.get_attr(r.get(0), name, a.span);
}

Value b_setattr(Interp& in, CallArgs& a) {
  ArgReader r(a, "setattr", {"obj", "name", "value"});
  in.set_attr(r.required(0), intern(attr_name(r, 1).as<Str>()->value), r.required(2), a.span);
  return Value();
}

// vars(obj): an instance's (or module's) attributes as a new dict, in the order they were set.
Value b_vars(Interp&, CallArgs& a) {
  ArgReader r(a, "vars", {"obj"});
  const Value& v = r.required(0);
  const AttrMap* attrs = v.is(ObjKind::Instance) ? &v.as<Instance>()->attrs
                       : v.is(ObjKind::Module) ? &v.as<Module>()->attrs
                       : v.is(ObjKind::Class) ? &v.as<Class>()->attrs : nullptr;
  if (!attrs) r.type_error(0, "an instance, class or module");
  auto d = make<Dict>();
  for (auto& [k, x] : *attrs) d->set(make_str(*k), x);
  return d;
}

Value b_any_all(Interp& in, CallArgs& a, bool any) {
  ArgReader r(a, any ? "any" : "all", {"iterable"});
  bool result = !any;
  in.iterate(r.required(0), a.span, [&](Value v) {
    if (in.truthy(v) == any) { result = any; return false; }
    return true;
  });
  return Value(result);
}

}  // namespace

void install_math_module(Interp& in);
void install_time_module(Interp& in);
void install_backends_module(Interp& in);
void install_torch_module(Interp& in);   // module_torch.cpp
void install_future_module(Interp& in);  // module_future.cpp
void install_iter_builtins(Interp& in);
void install_python_builtins(Interp& in);
void install_set_builtin(Interp& in);
void install_descriptor_builtins(Interp& in);
void install_sys_module(Interp& in);
void install_warnings_module(Interp& in);   // warnings.cpp
void install_gc_module(Interp& in);         // module_gc.cpp
void install_tensor_type(Interp& in);
void install_exception_classes(Interp& in);

void install_core_builtins(Interp& in) {
  in.def_native("print", b_print);
  in.def_native("len", b_len);
  def_type(in, "range", b_range);
  def_type(in, "str", b_str);
  in.def_native("repr", b_repr);
  def_type(in, "int", b_int);
  def_type(in, "float", b_float);
  def_type(in, "bool", b_bool, "int");
  def_type(in, "list", b_list);
  def_type(in, "tuple", b_tuple);
  def_type(in, "dict", b_dict);
  def_type(in, "type", b_type);
  in.def_native("isinstance", b_isinstance);
  in.def_native("abs", b_abs);
  in.def_native("min", [](Interp& i, CallArgs& a) { return extremum(i, a, false); });
  in.def_native("max", [](Interp& i, CallArgs& a) { return extremum(i, a, true); });
  in.def_native("sum", b_sum);
  in.def_native("round", b_round);
  in.def_native("sorted", b_sorted);
  in.def_native("reversed", b_reversed);
  in.def_native("hasattr", b_hasattr);
  in.def_native("getattr", b_getattr);
  in.def_native("setattr", b_setattr);
  in.def_native("vars", b_vars);
  in.def_native("any", [](Interp& i, CallArgs& a) { return b_any_all(i, a, true); });
  in.def_native("all", [](Interp& i, CallArgs& a) { return b_any_all(i, a, false); });
  install_exception_classes(in);
  std::vector<Value> args;
  for (auto& s : in.config().script_args) args.push_back(make_str(s));
  in.def_global("args", make_list(std::move(args)));
  // Python's __name__ of the running script, for `if __name__ == "__main__" { main() }`; a module imported from a
  // file gets its own (the file's stem) as a module-level name (Interp::load_module_file).
  in.def_global("__name__", make_str("__main__"));
  install_iter_builtins(in);
  install_python_builtins(in);
  install_set_builtin(in);
  install_descriptor_builtins(in);
  install_sys_module(in);
  install_warnings_module(in);
  install_gc_module(in);
  install_tensor_type(in);
  install_math_module(in);
  install_time_module(in);
  install_backends_module(in);
  install_torch_module(in);
  install_future_module(in);
}

}  // namespace amps::interp
