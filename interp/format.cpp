// Text forms of values: repr and str with Python's conventions (amps spells none/true/false),
// float formatting and f-string evaluation (format specs: format_spec.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "interp/builtins.hpp"
#include "interp/interp.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {

// Python's float repr: shortest round-trip digits, always with a '.' or exponent.
std::string format_float(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

static std::string quote_str(const std::string& s) {
  char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c == q) out += '\\';
        out += c;
    }
  }
  return out + q;
}

static std::string join_repr(Interp& in, const std::vector<Value>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + in.repr(items[i]);
  return out;
}

// Calls a script instance's __repr__/__str__ when it has one.
static bool instance_text(Interp& in, const Value& v, const char* method, std::string& out) {
  Value m = in.find_attr(v, intern(method));
  if (m.is_undef()) return false;
  Value r = in.call(m, std::vector<Value>{});
  out = r.is(ObjKind::Str) ? r.as<Str>()->value : in.repr(r);
  return true;
}

namespace {
// The lists and dicts being written by repr on this thread: one met again inside itself prints as [...] or {...},
// as in Python (a list that contains itself would recurse forever).
thread_local std::vector<const void*> g_repr_open;

struct ReprGuard {
  explicit ReprGuard(const void* o) { g_repr_open.push_back(o); }
  ~ReprGuard() { g_repr_open.pop_back(); }
  static bool open(const void* o) { return std::find(g_repr_open.begin(), g_repr_open.end(), o) != g_repr_open.end(); }
};
}  // namespace

std::string Interp::repr(const Value& v) {
  if ((v.is(ObjKind::List) || v.is(ObjKind::Dict)) && ReprGuard::open(v.obj())) return v.is(ObjKind::List) ? "[...]" : "{...}";
  std::optional<ReprGuard> guard;
  if (v.is(ObjKind::List) || v.is(ObjKind::Dict)) guard.emplace(v.obj());
  switch (v.tag()) {
    case Value::Tag::Undef:
    case Value::Tag::None: return "none";
    case Value::Tag::Bool: return v.as_bool() ? "true" : "false";
    case Value::Tag::Int: return std::to_string(v.as_int());
    case Value::Tag::Float: return format_float(v.as_float());
    case Value::Tag::Obj: break;
  }
  switch (v.obj()->kind()) {
    case ObjKind::Str: return quote_str(v.as<Str>()->value);
    case ObjKind::List: return "[" + join_repr(*this, v.as<List>()->items) + "]";
    case ObjKind::Tuple: {
      auto& items = v.as<Tuple>()->items;
      return "(" + join_repr(*this, items) + (items.size() == 1 ? ",)" : ")");
    }
    case ObjKind::Dict: {
      std::string out = "{";
      bool first = true;
      for (auto& [k, val] : v.as<Dict>()->entries) {
        out += (first ? "" : ", ") + repr(k) + ": " + repr(val);
        first = false;
      }
      return out + "}";
    }
    case ObjKind::Function: return "<function " + *v.as<Function>()->decl->name + ">";
    case ObjKind::Native:
      if (const BuiltinType* t = as_builtin_type(v)) return "<class '" + t->full_name() + "'>";
      return "<built-in function " + v.as<Native>()->name + ">";
    case ObjKind::BoundMethod: return "<bound method of " + type_name(v.as<BoundMethod>()->self) + ">";
    case ObjKind::Class: return "<class '" + *v.as<Class>()->name + "'>";
    case ObjKind::Module: return "<module '" + v.as<Module>()->name + "'>";
    case ObjKind::Range: {
      auto* r = v.as<Range>();
      return r->step == 1 ? fmt::format("range({}, {})", r->start, r->stop) : fmt::format("range({}, {}, {})", r->start, r->stop, r->step);
    }
    case ObjKind::Slice: {
      auto* s = v.as<SliceObj>();
      return "slice(" + repr(s->lo) + ", " + repr(s->hi) + ", " + repr(s->step) + ")";
    }
    case ObjKind::Instance: {
      std::string out;
      if (instance_text(*this, v, "__repr__", out)) return out;
      return "<" + type_name(v) + " object>";
    }
    default: return v.obj()->repr();
  }
}

std::string Interp::str(const Value& v) {
  if (v.is(ObjKind::Str)) return v.as<Str>()->value;
  std::string out;
  if (v.is(ObjKind::Instance) && instance_text(*this, v, "__str__", out)) return out;
  return repr(v);
}

// A 0-dim tensor formats as its number, as PyTorch's Tensor.__format__ does: f"{loss}" is "0.25", f"{x[0]}" of a
// uint8 tensor "7" (not "tensor(0.2500)"), and a spec applies to the number (f"{loss:.3f}").
Value formatted_value(const Value& v) {
  const rt::Tensor* t = tensor_of(v);
  if (!t || t->dim() != 0) return v;
  const rt::Scalar s = t->item();
  return s.is_bool() ? Value(s.to_bool()) : s.is_integral() ? Value(s.to_int()) : Value(s.to_double());
}

// FStr: literal pieces and formatted expressions, concatenated.
Value Interp::eval_fstring(const FStr& e) {
  std::string out;
  for (auto& part : e.parts) {
    if (!part.expr) { out += part.text; continue; }
    Value v = eval(*part.expr);
    if (part.conversion) {   // `{x!r:>8}`: the converted text, then the spec (a string's)
      std::string text = part.conversion == 'r' ? repr(v) : str(v);
      out += part.spec.empty() ? text : format_with_spec(*this, make_str(text), part.spec, part.expr->span);
    } else if (part.spec.empty()) {
      out += part.repr ? repr(v) : str(formatted_value(v));   // `{x=}` shows repr, as Python's
    } else {
      out += format_with_spec(*this, formatted_value(v), part.spec, part.expr->span);
    }
  }
  return make_str(std::move(out));
}

}  // namespace amps::interp
