// Methods of built-in types: list, dict, str, tuple (Python's names and behaviour).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/operators.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

// A method body: `self` is the receiver; `a` holds the remaining arguments.
using MethodFn = Value (*)(Interp&, const Value& self, CallArgs& a);
using MethodTable = std::unordered_map<std::string, MethodFn>;

std::vector<Value>& items(const Value& self) { return self.as<List>()->items; }
const std::string& text(const Value& self) { return self.as<Str>()->value; }

// ---- list
const MethodTable& list_methods() {
  static const MethodTable t = {
      {"append", [](Interp&, const Value& s, CallArgs& a) { ArgReader r(a, "append", {"x"}); items(s).push_back(r.required(0)); return Value(); }},
      {"extend", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "extend", {"iterable"});
         std::vector<Value> add;
         in.iterate(r.required(0), a.span, [&](Value v) { add.push_back(std::move(v)); return true; });
         items(s).insert(items(s).end(), add.begin(), add.end());
         return Value();
       }},
      {"pop", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "pop", {"index"});
         auto& v = items(s);
         if (v.empty()) Interp::fail("IndexError", "pop from empty list", a.span);
         int64_t i = r.int_or(0, -1), n = int64_t(v.size());
         if (i < 0) i += n;
         if (i < 0 || i >= n) Interp::fail("IndexError", "pop index out of range", a.span);
         Value out = v[i];
         v.erase(v.begin() + i);
         return out;
       }},
      {"insert", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "insert", {"index", "x"});
         auto& v = items(s);
         int64_t i = r.int_or(0, 0), n = int64_t(v.size());
         if (i < 0) i = std::max<int64_t>(0, i + n);
         v.insert(v.begin() + std::min(i, n), r.required(1));
         return Value();
       }},
      {"remove", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "remove", {"x"});
         auto& v = items(s);
         for (size_t i = 0; i < v.size(); ++i)
           if (values_equal(in, v[i], r.required(0))) { v.erase(v.begin() + i); return Value(); }
         Interp::fail("ValueError", "list.remove(x): x not in list", a.span);
       }},
      {"index", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "index", {"x"});
         auto& v = items(s);
         for (size_t i = 0; i < v.size(); ++i)
           if (values_equal(in, v[i], r.required(0))) return Value(int64_t(i));
         Interp::fail("ValueError", in.repr(r.get(0)) + " is not in list", a.span);
       }},
      {"count", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "count", {"x"});
         return Value(int64_t(std::count_if(items(s).begin(), items(s).end(), [&](const Value& v) { return values_equal(in, v, r.required(0)); })));
       }},
      {"sort", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "sort", {"key", "reverse"});
         Value key = r.has(0) ? r.get(0) : Value();
         auto less = [&](const Value& x, const Value& y) {
           return key.is_none() ? value_less(in, x, y, a.span) : value_less(in, in.call(key, {x}), in.call(key, {y}), a.span);
         };
         std::stable_sort(items(s).begin(), items(s).end(), less);
         if (r.bool_or(1, false)) std::reverse(items(s).begin(), items(s).end());
         return Value();
       }},
      {"reverse", [](Interp&, const Value& s, CallArgs&) { std::reverse(items(s).begin(), items(s).end()); return Value(); }},
      {"copy", [](Interp&, const Value& s, CallArgs&) { return make_list(items(s)); }},
      {"clear", [](Interp&, const Value& s, CallArgs&) { items(s).clear(); return Value(); }},
  };
  return t;
}

// ---- dict
const MethodTable& dict_methods() {
  static const MethodTable t = {
      {"keys", [](Interp&, const Value& s, CallArgs&) {
         std::vector<Value> out;
         for (auto& [k, v] : s.as<Dict>()->entries) out.push_back(k);
         return make_list(std::move(out));
       }},
      {"values", [](Interp&, const Value& s, CallArgs&) {
         std::vector<Value> out;
         for (auto& [k, v] : s.as<Dict>()->entries) out.push_back(v);
         return make_list(std::move(out));
       }},
      {"items", [](Interp&, const Value& s, CallArgs&) {
         std::vector<Value> out;
         for (auto& [k, v] : s.as<Dict>()->entries) out.push_back(make_tuple({k, v}));
         return make_list(std::move(out));
       }},
      {"get", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "get", {"key", "default"});
         check_hashable(r.required(0));
         Value* v = s.as<Dict>()->find(r.get(0));
         return v ? *v : (r.has(1) ? r.get(1) : Value());
       }},
      {"pop", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "pop", {"key", "default"});
         check_hashable(r.required(0));
         Value* v = s.as<Dict>()->find(r.get(0));
         if (!v) {
           if (r.has(1)) return r.get(1);
           Interp::fail("KeyError", in.repr(r.get(0)), a.span);
         }
         Value out = *v;
         s.as<Dict>()->erase(r.get(0));
         return out;
       }},
      {"setdefault", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "setdefault", {"key", "default"});
         check_hashable(r.required(0));
         if (Value* v = s.as<Dict>()->find(r.get(0))) return *v;
         Value d = r.has(1) ? r.get(1) : Value();
         s.as<Dict>()->set(r.get(0), d);
         return d;
       }},
      {"update", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "update", {"other"});
         if (r.has(0)) {
           if (!r.get(0).is(ObjKind::Dict)) r.type_error(0, "dict");
           for (auto& [k, v] : r.get(0).as<Dict>()->entries) s.as<Dict>()->set(k, v);
         }
         return Value();
       }},
      {"copy", [](Interp&, const Value& s, CallArgs&) {
         auto d = make<Dict>();
         for (auto& [k, v] : s.as<Dict>()->entries) d->set(k, v);
         return Value(d);
       }},
      {"clear", [](Interp&, const Value& s, CallArgs&) {
         s.as<Dict>()->entries.clear();
         s.as<Dict>()->index.clear();
         return Value();
       }},
  };
  return t;
}

std::string strip_chars(const std::string& s, const std::string& chars, bool left, bool right) {
  size_t b = left ? s.find_first_not_of(chars) : 0;
  if (b == std::string::npos) return "";
  size_t e = right ? s.find_last_not_of(chars) : s.size() - 1;
  return s.substr(b, e - b + 1);
}

Value split(Interp&, const Value& s, CallArgs& a) {
  ArgReader r(a, "split", {"sep"});
  std::vector<Value> out;
  const std::string& t = text(s);
  if (!r.has(0) || r.get(0).is_none()) {
    size_t i = 0;
    while ((i = t.find_first_not_of(" \t\n\r", i)) != std::string::npos) {
      size_t j = t.find_first_of(" \t\n\r", i);
      out.push_back(make_str(t.substr(i, j - i)));
      i = j;
    }
    return make_list(std::move(out));
  }
  std::string sep = r.str_or(0, " ");
  if (sep.empty()) Interp::fail("ValueError", "empty separator", a.span);
  size_t i = 0, j;
  while ((j = t.find(sep, i)) != std::string::npos) out.push_back(make_str(t.substr(i, j - i))), i = j + sep.size();
  out.push_back(make_str(t.substr(i)));
  return make_list(std::move(out));
}

Value join(Interp& in, const Value& s, CallArgs& a) {
  ArgReader r(a, "join", {"iterable"});
  std::string out;
  bool first = true;
  in.iterate(r.required(0), a.span, [&](Value v) {
    if (!v.is(ObjKind::Str)) Interp::fail("TypeError", "join() expects strings, found " + type_name(v), a.span);
    out += (first ? "" : text(s)) + v.as<Str>()->value;
    first = false;
    return true;
  });
  return make_str(std::move(out));
}

// ---- str
const MethodTable& str_methods() {
  static const MethodTable t = {
      {"split", split},
      {"join", join},
      {"strip", [](Interp&, const Value& s, CallArgs& a) { ArgReader r(a, "strip", {"chars"}); return make_str(strip_chars(text(s), r.str_or(0, " \t\n\r"), true, true)); }},
      {"lstrip", [](Interp&, const Value& s, CallArgs& a) { ArgReader r(a, "lstrip", {"chars"}); return make_str(strip_chars(text(s), r.str_or(0, " \t\n\r"), true, false)); }},
      {"rstrip", [](Interp&, const Value& s, CallArgs& a) { ArgReader r(a, "rstrip", {"chars"}); return make_str(strip_chars(text(s), r.str_or(0, " \t\n\r"), false, true)); }},
      {"startswith", [](Interp&, const Value& s, CallArgs& a) { ArgReader r(a, "startswith", {"prefix"}); return Value(text(s).starts_with(r.str_or(0, ""))); }},
      {"endswith", [](Interp&, const Value& s, CallArgs& a) { ArgReader r(a, "endswith", {"suffix"}); return Value(text(s).ends_with(r.str_or(0, ""))); }},
      {"upper", [](Interp&, const Value& s, CallArgs&) { std::string o = text(s); for (auto& c : o) c = char(toupper(c)); return make_str(o); }},
      {"lower", [](Interp&, const Value& s, CallArgs&) { std::string o = text(s); for (auto& c : o) c = char(tolower(c)); return make_str(o); }},
      {"find", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "find", {"sub"});
         size_t p = text(s).find(r.str_or(0, ""));
         return Value(p == std::string::npos ? int64_t(-1) : utf8_index_of_byte(text(s), p));
       }},
      {"replace", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "replace", {"old", "new"});
         std::string o = text(s), from = r.str_or(0, ""), to = r.str_or(1, "");
         if (from.empty()) return make_str(o);
         for (size_t p = 0; (p = o.find(from, p)) != std::string::npos; p += to.size()) o.replace(p, from.size(), to);
         return make_str(o);
       }},
      {"isdigit", [](Interp&, const Value& s, CallArgs&) {
         return Value(!text(s).empty() && std::all_of(text(s).begin(), text(s).end(), [](char c) { return isdigit(c); }));
       }},
  };
  return t;
}

// ---- tuple
const MethodTable& tuple_methods() {
  static const MethodTable t = {
      {"count", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "count", {"x"});
         auto& v = s.as<Tuple>()->items;
         return Value(int64_t(std::count_if(v.begin(), v.end(), [&](const Value& x) { return values_equal(in, x, r.required(0)); })));
       }},
      {"index", [](Interp& in, const Value& s, CallArgs& a) {
         ArgReader r(a, "index", {"x"});
         auto& v = s.as<Tuple>()->items;
         for (size_t i = 0; i < v.size(); ++i)
           if (values_equal(in, v[i], r.required(0))) return Value(int64_t(i));
         Interp::fail("ValueError", "tuple.index(x): x not in tuple", a.span);
       }},
  };
  return t;
}

const MethodTable* table_for(const Value& v) {
  if (v.is(ObjKind::List)) return &list_methods();
  if (v.is(ObjKind::Dict)) return &dict_methods();
  if (v.is(ObjKind::Str)) return &str_methods();
  if (v.is(ObjKind::Tuple)) return &tuple_methods();
  return nullptr;
}

}  // namespace

Value builtin_method(Interp&, const Value& self, Atom name) {
  const MethodTable* t = table_for(self);
  if (!t) return Value::undef();
  auto it = t->find(*name);
  if (it == t->end()) return Value::undef();
  MethodFn fn = it->second;
  return make<BoundMethod>(self, make<Native>(*name, [fn](Interp& in, CallArgs& a) {
    Value self = a.pos.front();
    a.pos.erase(a.pos.begin());
    return fn(in, self, a);
  }));
}

}  // namespace amps::interp
