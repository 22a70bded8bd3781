// Python's iterator builtins: iter, next, map, filter, and the slice constructor.
// iter() returns a pull-based Iterator (the `for` loop's callback walk in sequence.cpp cannot be paused), so a
// script can take items one at a time: `let it = iter(loader); let first = next(it)`.
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

// A list read live by index (an append during iteration is seen, as Python's list iterator does).
struct ListIter : Iterator {
  explicit ListIter(Value l) : list(std::move(l)) {}
  std::string type_name() const override { return "list_iterator"; }
  bool next(Interp&, Value& out) override {
    auto& items = list.as<List>()->items;
    if (i >= items.size()) return false;
    out = items[i++];
    return true;
  }
  Value list;
  size_t i = 0;
};

// A range walked without materialising it (iter(range(10**9)) costs nothing up front).
struct RangeIter : Iterator {
  explicit RangeIter(const Range& r) : start(r.start), step(r.step), n(r.size()) {}
  std::string type_name() const override { return "range_iterator"; }
  bool next(Interp&, Value& out) override {
    if (i >= n) return false;
    out = Value(start + i++ * step);
    return true;
  }
  int64_t start, step, n, i = 0;
};

// Everything else the `for` loop can walk (tuples, strings, dict keys, tensors' rows, __len__/__getitem__
// objects), taken as it stands when iter() is called.
struct SnapshotIter : Iterator {
  SnapshotIter(std::vector<Value> v, std::string name) : items(std::move(v)), name(std::move(name)) {}
  std::string type_name() const override { return name; }
  bool next(Interp&, Value& out) override {
    if (i >= items.size()) return false;
    out = items[i++];
    return true;
  }
  std::vector<Value> items;
  std::string name;
  size_t i = 0;
};

}  // namespace

static bool has_next_method(Interp& in, const Value& v) {
  return v.is_obj() && !in.find_attr(v, intern("__next__")).is_undef();
}

// Python's iter(x): an Iterator or an object with __next__ comes back as it is; __iter__'s result must be one.
Value make_iter(Interp& in, const Value& v, const Span& where) {
  if (v.is(ObjKind::Iterator)) return v;
  if (v.is(ObjKind::List)) return make<ListIter>(v);
  if (v.is(ObjKind::Range)) return make<RangeIter>(*v.as<Range>());
  if (v.is(ObjKind::Instance) || is_opaque(v)) {
    Value iter_m = in.find_attr(v, intern("__iter__"));
    if (!iter_m.is_undef()) {
      Value it = in.call(iter_m, std::vector<Value>{});
      if (it.is(ObjKind::Iterator) || has_next_method(in, it)) return it;
      if (!(it.is_obj() && it.obj() == v.obj()))
        return make_iter(in, it, where);   // a built-in iterable returned by __iter__ (a list, a range)
      Interp::fail("TypeError", fmt::format("iter() returned non-iterator of type '{}'", type_name(it)), where);
    }
  }
  std::vector<Value> items;
  in.iterate(v, where, [&](Value x) { items.push_back(std::move(x)); return true; });
  std::string name = v.is(ObjKind::Str) ? "str_ascii_iterator" : v.is(ObjKind::Dict) ? "dict_keyiterator"
                   : v.is(ObjKind::Tuple) ? "tuple_iterator" : "iterator";
  return make<SnapshotIter>(std::move(items), std::move(name));
}

// The next item of an iterator [it]: false when it is exhausted (its StopIteration swallowed).
bool pull(Interp& in, const Value& it, Value& out, const Span& where) {
  if (it.is(ObjKind::Iterator)) return it.as<Iterator>()->next(in, out);
  Value next_m = in.find_attr(it, intern("__next__"));
  if (next_m.is_undef() || !it.is_obj())
    Interp::fail("TypeError", fmt::format("'{}' object is not an iterator; call iter() on it first", type_name(it)), where);
  try {
    out = in.call(next_m, std::vector<Value>{});
  } catch (AmpsError& e) {
    if (error_is(in, e, "StopIteration")) return false;
    throw;
  }
  return true;
}

namespace {

// map(func, *iterables): lazy, stops with the shortest iterable, as Python 3's.
struct MapIter : Iterator {
  std::string type_name() const override { return "map"; }
  bool next(Interp& in, Value& out) override {
    std::vector<Value> args(sources.size());
    for (size_t k = 0; k < sources.size(); ++k)
      if (!pull(in, sources[k], args[k], span)) return false;
    out = in.call(func, std::move(args));
    return true;
  }
  Value func;
  std::vector<Value> sources;
  Span span;
};

// filter(func, iterable): the items for which func is truthy (the items themselves when func is none).
struct FilterIter : Iterator {
  std::string type_name() const override { return "filter"; }
  bool next(Interp& in, Value& out) override {
    Value item;
    while (pull(in, source, item, span)) {
      bool keep = func.is_none() ? in.truthy(item) : in.truthy(in.call(func, {item}));
      if (keep) {
        out = std::move(item);
        return true;
      }
    }
    return false;
  }
  Value func, source;
  Span span;
};

Value b_iter(Interp& in, CallArgs& a) {
  ArgReader r(a, "iter", {"object"});
  return make_iter(in, r.required(0), a.span);
}

Value b_next(Interp& in, CallArgs& a) {
  ArgReader r(a, "next", {"iterator", "default"});
  Value out;
  if (pull(in, r.required(0), out, a.span)) return out;
  if (r.has(1)) return r.get(1);
  Interp::fail("StopIteration", "", a.span);
}

Value b_map(Interp& in, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", "map() takes no keyword arguments", a.span);
  if (a.pos.size() < 2) Interp::fail("TypeError", "map() must have at least two arguments: map(func, iterable, ...)", a.span);
  auto m = make<MapIter>();
  m->func = a.pos[0];
  m->span = a.span;
  for (size_t i = 1; i < a.pos.size(); ++i) m->sources.push_back(make_iter(in, a.pos[i], a.span));
  return m;
}

Value b_filter(Interp& in, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", "filter() takes no keyword arguments", a.span);
  if (a.pos.size() != 2) Interp::fail("TypeError", fmt::format("filter expected 2 arguments, got {}", a.pos.size()), a.span);
  auto f = make<FilterIter>();
  f->func = a.pos[0];
  f->source = make_iter(in, a.pos[1], a.span);
  f->span = a.span;
  return f;
}

// enumerate(iterable, start=0): lazy, as Python 3's, so `for (i, (x, y)) in enumerate(loader)` loads one batch at a
// time (a list of the whole epoch would be built first otherwise).
struct EnumerateIter : Iterator {
  std::string type_name() const override { return "enumerate"; }
  bool next(Interp& in, Value& out) override {
    Value item;
    if (!pull(in, source, item, span)) return false;
    out = make_tuple({Value(index++), std::move(item)});
    return true;
  }
  Value source;
  int64_t index = 0;
  Span span;
};

// zip(*iterables, strict=false): lazy tuples until the shortest input ends; strict=true makes unequal lengths
// Python's ValueError.
struct ZipIter : Iterator {
  std::string type_name() const override { return "zip"; }
  bool next(Interp& in, Value& out) override {
    if (sources.empty() || done) return false;
    std::vector<Value> row(sources.size());
    for (size_t k = 0; k < sources.size(); ++k) {
      if (pull(in, sources[k], row[k], span)) continue;
      done = true;
      if (strict) check_all_ended(in, k);
      return false;
    }
    out = make_tuple(std::move(row));
    return true;
  }
  // Input [k] ended: under strict every other input must end at the same item.
  void check_all_ended(Interp& in, size_t k) {
    if (k > 0)
      Interp::fail("ValueError", fmt::format("zip() argument {} is shorter than argument{} {}", k + 1,
                                             k == 1 ? "" : "s", k == 1 ? "1" : fmt::format("1-{}", k)), span);
    for (size_t j = 1; j < sources.size(); ++j) {
      Value extra;
      if (pull(in, sources[j], extra, span))
        Interp::fail("ValueError", fmt::format("zip() argument {} is longer than argument{} {}", j + 1,
                                               j == 1 ? "" : "s", j == 1 ? "1" : fmt::format("1-{}", j)), span);
    }
  }
  std::vector<Value> sources;
  bool strict = false, done = false;
  Span span;
};

Value b_enumerate(Interp& in, CallArgs& a) {
  ArgReader r(a, "enumerate", {"iterable", "start"});
  auto e = make<EnumerateIter>();
  e->index = r.int_or(1, 0);
  e->source = make_iter(in, r.required(0), a.span);
  e->span = a.span;
  return e;
}

Value b_zip(Interp& in, CallArgs& a) {
  auto z = make<ZipIter>();
  for (auto& [k, v] : a.kw) {
    if (*k != "strict") Interp::fail("TypeError", fmt::format("zip() got an unexpected keyword argument '{}'", *k), a.span);
    z->strict = in.truthy(v);
  }
  for (auto& v : a.pos) z->sources.push_back(make_iter(in, v, a.span));
  z->span = a.span;
  return z;
}

// slice(stop) / slice(start, stop[, step]): the object `x[a:b:c]` passes to __getitem__.
Value b_slice(Interp&, CallArgs& a) {
  if (!a.kw.empty()) Interp::fail("TypeError", "slice() takes no keyword arguments", a.span);
  switch (a.pos.size()) {
    case 1: return make<SliceObj>(Value(), a.pos[0], Value());
    case 2: return make<SliceObj>(a.pos[0], a.pos[1], Value());
    case 3: return make<SliceObj>(a.pos[0], a.pos[1], a.pos[2]);
    default:
      Interp::fail("TypeError", fmt::format("slice expected 1 to 3 arguments, got {}", a.pos.size()), a.span);
  }
}

}  // namespace

void install_iter_builtins(Interp& in) {
  in.def_native("iter", b_iter);
  in.def_native("next", b_next);
  def_type(in, "map", b_map);
  def_type(in, "filter", b_filter);
  def_type(in, "slice", b_slice);
  def_type(in, "enumerate", b_enumerate);
  def_type(in, "zip", b_zip);
}

}  // namespace amps::interp
