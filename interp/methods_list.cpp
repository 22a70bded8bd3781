// Methods of list and tuple (Python 3.11's names, defaults and errors).
#include <algorithm>

#include "interp/methods.hpp"
#include "interp/operators.hpp"

namespace amps::interp {
namespace {

std::vector<Value>& items(const Value& self) { return self.as<List>()->items; }

// The first index of x in v[start:end] (Python's clamping), or -1.
int64_t index_in(Interp& in, const std::vector<Value>& v, CallArgs& a, const char* fn) {
  ArgReader r(a, fn, {"x", "start", "end"});
  const Value& x = r.required(0);
  int64_t b = 0, e = 0;
  clamp_range(r, 1, int64_t(v.size()), b, e, false);
  for (int64_t i = b; i < e && i < int64_t(v.size()); ++i)
    if (values_equal(in, v[i], x)) return i;
  return -1;
}

Value list_pop(Interp&, const Value& s, CallArgs& a) {
  ArgReader r(a, "pop", {"index"});
  auto& v = items(s);
  if (v.empty()) Interp::fail("IndexError", "pop from empty list", a.span);
  int64_t i = r.int_or(0, -1), n = int64_t(v.size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) Interp::fail("IndexError", "pop index out of range", a.span);
  Value out = v[i];
  v.erase(v.begin() + i);
  return out;
}

// Python's sort: keyword-only key/reverse, each key computed once, stable in both directions.
Value list_sort(Interp& in, const Value& s, CallArgs& a) {
  if (!a.pos.empty()) Interp::fail("TypeError", "sort() takes no positional arguments", a.span);
  ArgReader r(a, "sort", {"key", "reverse"});
  Value key = r.has(0) ? r.get(0) : Value();
  bool rev = r.has(1) && !r.get(1).is_none() && in.truthy(r.get(1));
  auto& v = items(s);
  std::vector<std::pair<Value, Value>> keyed;
  for (auto& x : v) keyed.emplace_back(key.is_none() ? x : in.call(key, {x}), x);
  std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
    return rev ? value_less(in, y.first, x.first, a.span) : value_less(in, x.first, y.first, a.span);
  });
  for (size_t i = 0; i < v.size(); ++i) v[i] = keyed[i].second;
  return Value();
}

}  // namespace

const MethodTable& list_methods() {
  static const MethodTable t = {
      {"append", [](Interp&, const Value& s, CallArgs& a) { items(s).push_back(one_arg(a, "list.append")); return Value(); }},
      {"extend", [](Interp& in, const Value& s, CallArgs& a) {
         std::vector<Value> add;
         in.iterate(one_arg(a, "list.extend"), a.span, [&](Value v) { add.push_back(std::move(v)); return true; });
         items(s).insert(items(s).end(), add.begin(), add.end());
         return Value();
       }},
      {"pop", list_pop},
      {"insert", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "insert", {"index", "x"});
         auto& v = items(s);
         r.required(0);
         int64_t i = r.int_or(0, 0), n = int64_t(v.size());
         if (i < 0) i = std::max<int64_t>(0, i + n);
         v.insert(v.begin() + std::min(i, n), r.required(1));
         return Value();
       }},
      {"remove", [](Interp& in, const Value& s, CallArgs& a) {
         const Value& x = one_arg(a, "list.remove");
         auto& v = items(s);
         for (size_t i = 0; i < v.size(); ++i)
           if (values_equal(in, v[i], x)) { v.erase(v.begin() + i); return Value(); }
         Interp::fail("ValueError", "list.remove(x): x not in list", a.span);
       }},
      {"index", [](Interp& in, const Value& s, CallArgs& a) {
         int64_t i = index_in(in, items(s), a, "index");
         if (i < 0) Interp::fail("ValueError", in.repr(a.pos.empty() ? a.kw.front().second : a.pos[0]) + " is not in list", a.span);
         return Value(i);
       }},
      {"count", [](Interp& in, const Value& s, CallArgs& a) {
         const Value& x = one_arg(a, "list.count");
         return Value(int64_t(std::count_if(items(s).begin(), items(s).end(), [&](const Value& v) { return values_equal(in, v, x); })));
       }},
      {"sort", list_sort},
      {"reverse", [](Interp&, const Value& s, CallArgs& a) { no_args(a, "list.reverse"); std::reverse(items(s).begin(), items(s).end()); return Value(); }},
      {"copy", [](Interp&, const Value& s, CallArgs& a) { no_args(a, "list.copy"); return make_list(items(s)); }},
      {"clear", [](Interp&, const Value& s, CallArgs& a) { no_args(a, "list.clear"); items(s).clear(); return Value(); }},
  };
  return t;
}

const MethodTable& tuple_methods() {
  static const MethodTable t = {
      {"count", [](Interp& in, const Value& s, CallArgs& a) {
         const Value& x = one_arg(a, "tuple.count");
         auto& v = s.as<Tuple>()->items;
         return Value(int64_t(std::count_if(v.begin(), v.end(), [&](const Value& y) { return values_equal(in, y, x); })));
       }},
      {"index", [](Interp& in, const Value& s, CallArgs& a) {
         int64_t i = index_in(in, s.as<Tuple>()->items, a, "index");
         if (i < 0) Interp::fail("ValueError", "tuple.index(x): x not in tuple", a.span);
         return Value(i);
       }},
  };
  return t;
}

}  // namespace amps::interp
