// Methods of dict (Python 3.11's names, defaults and errors). keys/values/items return lists: amps has no view
// objects, so a list snapshot is what iteration, len, `in` and list() see.
#include <fmt/format.h>

#include "interp/exceptions.hpp"
#include "interp/methods.hpp"

namespace amps::interp {
namespace {

Dict& dict(const Value& self) { return *self.as<Dict>(); }

// Adds [src] (a dict, or an iterable of key/value pairs) to [d], with Python's errors for bad pairs.
void merge_pairs(Interp& in, Dict& d, const Value& src, const Span& where) {
  if (src.is(ObjKind::Dict)) {
    for (auto& [k, v] : src.as<Dict>()->entries) d.set(k, v);
    return;
  }
  int64_t n = 0;
  in.iterate(src, where, [&](Value pair) {
    if (!pair.is(ObjKind::List) && !pair.is(ObjKind::Tuple) && !pair.is(ObjKind::Str))
      Interp::fail("TypeError", fmt::format("cannot convert dictionary update sequence element #{} to a sequence", n), where);
    std::vector<Value> kv;
    in.iterate(pair, where, [&](Value x) { kv.push_back(std::move(x)); return true; });
    if (kv.size() != 2)
      Interp::fail("ValueError", fmt::format("dictionary update sequence element #{} has length {}; 2 is required", n, kv.size()), where);
    check_hashable(kv[0]);
    d.set(kv[0], kv[1]);
    ++n;
    return true;
  });
}

std::vector<Value> column(const Value& s, CallArgs& a, const char* fn, int which) {
  no_args(a, fn);
  std::vector<Value> out;
  for (auto& [k, v] : dict(s).entries) out.push_back(which == 0 ? k : which == 1 ? v : make_tuple({k, v}));
  return out;
}

Value dict_pop(Interp& in, const Value& s, CallArgs& a) {
  ArgReader r(a, "pop", {"key", "default"});
  check_hashable(r.required(0));
  Value* v = dict(s).find(r.get(0));
  if (!v) {
    if (r.has(1)) return r.get(1);
    raise_key_error(in, r.get(0), a.span);
  }
  Value out = *v;
  dict(s).erase(r.get(0));
  return out;
}

// update(other=(), **kwargs): a dict or pairs first, then the keywords (string keys), as Python.
Value dict_update(Interp& in, const Value& s, CallArgs& a) {
  if (a.pos.size() > 1)
    Interp::fail("TypeError", fmt::format("update expected at most 1 argument, got {}", a.pos.size()), a.span);
  if (!a.pos.empty()) dict_update_from(in, dict(s), a.pos[0], a.span);
  for (auto& [k, v] : a.kw) dict(s).set(make_str(*k), v);
  return Value();
}

}  // namespace

void dict_update_from(Interp& in, Dict& d, const Value& other, const Span& where) { merge_pairs(in, d, other, where); }

Value dict_merged(Interp& in, const Value& a, const Value& b, const Span& where) {
  auto d = make<Dict>();
  dict_update_from(in, *d, a, where);
  dict_update_from(in, *d, b, where);
  return Value(d);
}

Value dict_fromkeys(Interp& in, CallArgs& a) {
  ArgReader r(a, "fromkeys", {"iterable", "value"});
  auto d = make<Dict>();
  Value v = r.has(1) ? r.get(1) : Value();
  in.iterate(r.required(0), a.span, [&](Value k) {
    check_hashable(k);
    d->set(k, v);
    return true;
  });
  return Value(d);
}

const MethodTable& dict_methods() {
  static const MethodTable t = {
      {"keys", [](Interp&, const Value& s, CallArgs& a) { return make_list(column(s, a, "dict.keys", 0)); }},
      {"values", [](Interp&, const Value& s, CallArgs& a) { return make_list(column(s, a, "dict.values", 1)); }},
      {"items", [](Interp&, const Value& s, CallArgs& a) { return make_list(column(s, a, "dict.items", 2)); }},
      {"get", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "get", {"key", "default"});
         check_hashable(r.required(0));
         Value* v = dict(s).find(r.get(0));
         return v ? *v : (r.has(1) ? r.get(1) : Value());
       }},
      {"pop", dict_pop},
      {"popitem", [](Interp&, const Value& s, CallArgs& a) {
         no_args(a, "dict.popitem");
         if (dict(s).entries.empty()) Interp::fail("KeyError", "'popitem(): dictionary is empty'", a.span);
         auto [k, v] = dict(s).entries.back();
         dict(s).erase(k);
         return make_tuple({k, v});
       }},
      {"setdefault", [](Interp&, const Value& s, CallArgs& a) {
         ArgReader r(a, "setdefault", {"key", "default"});
         check_hashable(r.required(0));
         if (Value* v = dict(s).find(r.get(0))) return *v;
         Value d = r.has(1) ? r.get(1) : Value();
         dict(s).set(r.get(0), d);
         return d;
       }},
      {"update", dict_update},
      {"fromkeys", [](Interp& in, const Value&, CallArgs& a) { return dict_fromkeys(in, a); }},
      {"copy", [](Interp&, const Value& s, CallArgs& a) {
         no_args(a, "dict.copy");
         auto d = make<Dict>();
         for (auto& [k, v] : dict(s).entries) d->set(k, v);
         return Value(d);
       }},
      {"clear", [](Interp&, const Value& s, CallArgs& a) {
         no_args(a, "dict.clear");
         dict(s).entries.clear();
         dict(s).index.clear();
         return Value();
       }},
  };
  return t;
}

}  // namespace amps::interp
