// The embedding API's containers and iteration: len, list/tuple items, dict entries, and pull-style
// iterators (amps_iter/amps_next) that walk any iterable the way a for loop does.
#include <fmt/format.h>

#include "interp/embed/handles.hpp"
#include "interp/exceptions.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;

namespace {

// Items of a list or tuple by index, read live (the list may grow while it is walked, like Python).
struct SeqIter : Iterator {
  explicit SeqIter(Value s) : seq(std::move(s)) {}
  bool next(Interp&, Value& out) override {
    const auto& items = seq.is(ObjKind::List) ? seq.as<List>()->items : seq.as<Tuple>()->items;
    if (i >= items.size()) return false;
    out = items[i++];
    return true;
  }
  Value seq;
  size_t i = 0;
};

// Values fixed when iteration starts (dict keys, the characters of a str).
struct SnapshotIter : Iterator {
  explicit SnapshotIter(std::vector<Value> v) : items(std::move(v)) {}
  bool next(Interp&, Value& out) override {
    if (i >= items.size()) return false;
    out = items[i++];
    return true;
  }
  std::vector<Value> items;
  size_t i = 0;
};

struct RangeIter : Iterator {
  explicit RangeIter(const Range& r) : start(r.start), step(r.step), n(r.size()) {}
  bool next(Interp&, Value& out) override {
    if (i >= n) return false;
    out = Value(start + i++ * step);
    return true;
  }
  int64_t start, step, n, i = 0;
};

// An object's __next__, until it raises StopIteration.
struct NextIter : Iterator {
  explicit NextIter(Value m) : next_m(std::move(m)) {}
  bool next(Interp& in, Value& out) override {
    try {
      out = in.call(next_m, std::vector<Value>{});
      return true;
    } catch (AmpsError& e) {
      if (error_is(in, e, "StopIteration")) return false;
      throw;
    }
  }
  Value next_m;
};

// __getitem__(0 .. __len__() - 1).
struct IndexIter : Iterator {
  IndexIter(Value g, int64_t count) : get_m(std::move(g)), n(count) {}
  bool next(Interp& in, Value& out) override {
    if (i >= n) return false;
    out = in.call(get_m, {Value(i++)});
    return true;
  }
  Value get_m;
  int64_t n, i = 0;
};

const std::vector<Value>* items_of(const Value& v) {
  if (v.is(ObjKind::List)) return &v.as<List>()->items;
  if (v.is(ObjKind::Tuple)) return &v.as<Tuple>()->items;
  return nullptr;
}

// len(v) as the builtin computes it, with the result of __len__ checked.
int64_t length(Interp& in, const Value& v, const Span& where) {
  if (v.is(ObjKind::Str)) return int64_t(v.as<Str>()->value.size());
  if (const auto* items = items_of(v)) return int64_t(items->size());
  if (v.is(ObjKind::Dict)) return int64_t(v.as<Dict>()->size());
  if (v.is(ObjKind::Range)) return v.as<Range>()->size();
  Value m = in.find_attr(v, intern("__len__"));
  if (m.is_undef()) Interp::fail("TypeError", fmt::format("object of type '{}' has no len()", type_name(v)), where);
  Value n = in.call(m, std::vector<Value>{});
  if (!n.is_int() || n.as_int() < 0) Interp::fail("TypeError", "__len__() should return a non-negative int", where);
  return n.as_int();
}

}  // namespace

namespace amps::interp::embed {

// Mirrors Interp::iterate, one item at a time.
Value iterator_of(Interp& in, const Value& it, const Span& where) {
  if (it.is(ObjKind::Iterator)) return it;
  if (it.is(ObjKind::Range)) return make<RangeIter>(*it.as<Range>());
  if (items_of(it)) return make<SeqIter>(it);
  if (it.is(ObjKind::Str)) {
    std::vector<Value> chars;
    for (char c : it.as<Str>()->value) chars.push_back(make_str(std::string(1, c)));
    return make<SnapshotIter>(std::move(chars));
  }
  if (it.is(ObjKind::Dict)) {
    std::vector<Value> keys;
    for (auto& [k, v] : it.as<Dict>()->entries) keys.push_back(k);
    return make<SnapshotIter>(std::move(keys));
  }
  if (it.is(ObjKind::Instance) || is_opaque(it)) {
    Value iter_m = in.find_attr(it, intern("__iter__"));
    if (!iter_m.is_undef()) {
      Value iter = in.call(iter_m, std::vector<Value>{});
      Value next_m = in.find_attr(iter, intern("__next__"));
      if (!next_m.is_undef()) return make<NextIter>(std::move(next_m));
      if (iter.is_obj() && iter.obj() == it.obj()) Interp::fail("TypeError", "__iter__ returned an object without __next__", where);
      return iterator_of(in, iter, where);
    }
    Value len_m = in.find_attr(it, intern("__len__"));
    Value get_m = in.find_attr(it, intern("__getitem__"));
    if (!len_m.is_undef() && !get_m.is_undef()) return make<IndexIter>(get_m, in.call(len_m, std::vector<Value>{}).as_int());
  }
  Interp::fail("TypeError", fmt::format("'{}' object is not iterable", type_name(it)), where);
}

}  // namespace amps::interp::embed

extern "C" {

amps_status amps_len(amps_vm* vm, const amps_value* v, int64_t* out) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !out) return misuse(in, "amps_len: value or out is NULL");
    *out = length(in, value_of(v), call_site(in));
    return AMPS_OK;
  });
}

amps_status amps_item(amps_vm* vm, const amps_value* seq, int64_t index, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!seq || !out) return misuse(in, "amps_item: sequence or out is NULL");
    const auto* items = items_of(value_of(seq));
    if (!items) return misuse(in, fmt::format("amps_item: expected a list or tuple, got {}", type_name(value_of(seq))));
    int64_t n = int64_t(items->size()), i = index < 0 ? index + n : index;
    if (i < 0 || i >= n) Interp::fail("IndexError", fmt::format("{} index {} out of range", type_name(value_of(seq)), index), call_site(in));
    *out = new_handle((*items)[size_t(i)]);
    return AMPS_OK;
  });
}

amps_status amps_dict_get(amps_vm* vm, const amps_value* dict, const amps_value* key, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!dict || !key || !out) return misuse(in, "amps_dict_get: dict, key or out is NULL");
    *out = nullptr;
    if (!value_of(dict).is(ObjKind::Dict)) return misuse(in, fmt::format("amps_dict_get: expected a dict, got {}", type_name(value_of(dict))));
    check_hashable(value_of(key));
    Value* v = value_of(dict).as<Dict>()->find(value_of(key));
    *out = v ? new_handle(*v) : nullptr;
    return AMPS_OK;
  });
}

amps_status amps_dict_set(amps_vm* vm, const amps_value* dict, const amps_value* key, const amps_value* value) {
  return guarded(vm, [&](Interp& in) {
    if (!dict || !key || !value) return misuse(in, "amps_dict_set: dict, key or value is NULL");
    if (!value_of(dict).is(ObjKind::Dict)) return misuse(in, fmt::format("amps_dict_set: expected a dict, got {}", type_name(value_of(dict))));
    check_hashable(value_of(key));
    value_of(dict).as<Dict>()->set(value_of(key), value_of(value));
    return AMPS_OK;
  });
}

amps_status amps_dict_entry(amps_vm* vm, const amps_value* dict, size_t index, amps_value** key, amps_value** value) {
  return guarded(vm, [&](Interp& in) {
    if (!dict) return misuse(in, "amps_dict_entry: dict is NULL");
    if (!value_of(dict).is(ObjKind::Dict)) return misuse(in, fmt::format("amps_dict_entry: expected a dict, got {}", type_name(value_of(dict))));
    auto& entries = value_of(dict).as<Dict>()->entries;
    if (index >= entries.size()) return misuse(in, fmt::format("amps_dict_entry: index {} is out of range for {} entries", index, entries.size()));
    if (key) *key = new_handle(entries[index].first);
    if (value) *value = new_handle(entries[index].second);
    return AMPS_OK;
  });
}

amps_status amps_iter(amps_vm* vm, const amps_value* iterable, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!iterable || !out) return misuse(in, "amps_iter: iterable or out is NULL");
    *out = new_handle(iterator_of(in, value_of(iterable), call_site(in)));
    return AMPS_OK;
  });
}

amps_status amps_next(amps_vm* vm, const amps_value* iterator, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!iterator || !out) return misuse(in, "amps_next: iterator or out is NULL");
    *out = nullptr;
    const Value& it = value_of(iterator);
    if (!it.is(ObjKind::Iterator)) return misuse(in, fmt::format("amps_next: expected an iterator (from amps_iter), got {}", type_name(it)));
    Value item;
    *out = it.as<Iterator>()->next(in, item) ? new_handle(std::move(item)) : nullptr;
    return AMPS_OK;
  });
}

}  // extern "C"
