// Iteration and indexing of built-in sequences (list, tuple, str, range, dict) and of
// objects with __iter__/__next__/__getitem__/__len__.
#include <fmt/format.h>

#include "interp/exceptions.hpp"
#include "interp/interp.hpp"
#include "interp/methods.hpp"
#include "interp/tensor_value.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {

static void iterate_values(const std::vector<Value>& items, const std::function<bool(Value)>& body) {
  // Index-based: the body may append to the list it walks, like Python.
  for (size_t i = 0; i < items.size(); ++i)
    if (!body(items[i])) return;
}

// Python's Tensor.__iter__: unbind(0) once, then its slices, so unpacking `q, k, v = qkv` records one UnbindBackward
// (a stack) as in PyTorch, not one select (a full-size zeros and a copy) per slice.
static void iterate_tensor(const rt::Tensor& t, const Span& where, const std::function<bool(Value)>& body) {
  if (t.dim() == 0) Interp::fail("TypeError", "iteration over a 0-d tensor", where);
  for (rt::Tensor& part : unbind_slices(t, 0))
    if (!body(wrap(std::move(part)))) return;
}

void Interp::iterate(const Value& it, const Span& where, const std::function<bool(Value)>& body) {
  if (const rt::Tensor* t = tensor_of(it)) return iterate_tensor(*t, where, body);
  if (it.is(ObjKind::Range)) {
    auto* r = it.as<Range>();
    for (int64_t i = 0, n = r->size(); i < n; ++i)
      if (!body(Value(r->start + i * r->step))) return;
    return;
  }
  if (it.is(ObjKind::List)) return iterate_values(it.as<List>()->items, body);
  if (it.is(ObjKind::Tuple)) return iterate_values(it.as<Tuple>()->items, body);
  if (it.is(ObjKind::Str)) {
    const std::string s = it.as<Str>()->value;  // a copy: the body may rebind the name holding it
    for (std::string_view c : utf8_chars(s))
      if (!body(make_str(std::string(c)))) return;
    return;
  }
  if (it.is(ObjKind::Dict)) {
    std::vector<Value> keys;
    for (auto& [k, v] : it.as<Dict>()->entries) keys.push_back(k);
    return iterate_values(keys, body);
  }
  if (it.is(ObjKind::Iterator)) {
    Value item;
    while (it.as<Iterator>()->next(*this, item))
      if (!body(std::move(item))) return;
    return;
  }
  if (it.is(ObjKind::Instance) || is_opaque(it)) {
    Value iter_m = find_attr(it, intern("__iter__"));
    if (!iter_m.is_undef()) {
      Value iter = call(iter_m, std::vector<Value>{});
      Value next_m = find_attr(iter, intern("__next__"));
      if (next_m.is_undef()) {
        if (iter.is_obj() && iter.obj() == it.obj()) fail("TypeError", "__iter__ returned an object without __next__", where);
        return iterate(iter, where, body);
      }
      for (;;) {
        Value item;
        try {
          item = call(next_m, std::vector<Value>{});
        } catch (AmpsError& e) {
          if (error_is(*this, e, "StopIteration")) return;
          throw;
        }
        if (!body(std::move(item))) return;
      }
    }
    Value len_m = find_attr(it, intern("__len__"));
    Value get_m = find_attr(it, intern("__getitem__"));
    if (!len_m.is_undef() && !get_m.is_undef()) {
      int64_t n = call(len_m, std::vector<Value>{}).as_int();
      for (int64_t i = 0; i < n; ++i)
        if (!body(call(get_m, {Value(i)}))) return;
      return;
    }
  }
  fail("TypeError", fmt::format("'{}' object is not iterable", type_name(it)), where);
}

Value Interp::subscript_value(const Subscript& s) {
  switch (s.kind) {
    case Subscript::Kind::Expr: return eval(*s.value);
    case Subscript::Kind::Ellipsis: return make_str("...");
    case Subscript::Kind::Slice: {
      auto opt = [&](const ExprPtr& e) { return e ? eval(*e) : Value(); };
      return make<SliceObj>(opt(s.lo), opt(s.hi), opt(s.step));
    }
  }
  return Value();
}

// Python slice bounds for a sequence of length n: (start, stop, step, count).
struct SliceBounds { int64_t start, stop, step, count; };

static SliceBounds slice_bounds(const SliceObj& s, int64_t n, const Span& where) {
  auto num = [&](const Value& v, int64_t dflt) {
    if (v.is_none()) return dflt;
    int64_t i = 0;
    if (!index_value_of(v, i)) Interp::fail("TypeError", bad_slice_bound(v), where);
    return i;
  };
  int64_t step = num(s.step, 1);
  if (step == 0) Interp::fail("ValueError", "slice step cannot be zero", where);
  auto clamp = [&](int64_t i, int64_t lo, int64_t hi) {
    if (i < 0) i += n;
    return std::max(lo, std::min(hi, i));
  };
  int64_t start = s.lo.is_none() ? (step > 0 ? 0 : n - 1) : clamp(num(s.lo, 0), step > 0 ? 0 : -1, step > 0 ? n : n - 1);
  int64_t stop = s.hi.is_none() ? (step > 0 ? n : -1) : clamp(num(s.hi, 0), step > 0 ? 0 : -1, step > 0 ? n : n - 1);
  int64_t count = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                           : std::max<int64_t>(0, (start - stop - step - 1) / (-step));
  return {start, stop, step, count};
}

Value slice_indices(const SliceObj& s, int64_t n, const Span& where) {
  if (n < 0) Interp::fail("ValueError", "length should not be negative", where);
  auto b = slice_bounds(s, n, where);
  return make_tuple({Value(b.start), Value(b.stop), Value(b.step)});
}

template <class Seq>
static Value index_seq(const Seq& items, const Value& key, const Span& where, const char* what,
                       const std::function<Value(std::vector<Value>)>& make_seq) {
  if (key.is(ObjKind::Slice)) {
    auto b = slice_bounds(*key.as<SliceObj>(), int64_t(items.size()), where);
    std::vector<Value> out;
    for (int64_t i = 0; i < b.count; ++i) out.push_back(items[b.start + i * b.step]);
    return make_seq(std::move(out));
  }
  int64_t i = 0, n = int64_t(items.size());
  if (!index_value_of(key, i))
    Interp::fail("TypeError", key.is(ObjKind::Tensor) ? std::string("only integer tensors of a single element can be converted to an index")
                                                      : fmt::format("{} indices must be integers or slices, not {}", what, type_name(key)), where);
  int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n) Interp::fail("IndexError", fmt::format("{} index {} is out of range for length {}", what, i, n), where);
  return items[j];
}

// The byte offset where each character of [s] starts, then s.size(); empty for an all-ASCII string (byte offsets
// are character indices there), which is the common case and needs no table.
static std::vector<size_t> char_starts(const std::string& s) {
  std::vector<size_t> starts;
  if (utf8_is_ascii(s)) return starts;
  for (size_t i = 0; i < s.size(); i += utf8_char_size(s, i)) starts.push_back(i);
  starts.push_back(s.size());
  return starts;
}

// s[i] and s[a:b:c] by character, without making a value per character (a 100,000-character string used to cost
// 25 ms per subscript).
static Value index_str(const std::string& s, const Value& key, const Span& where) {
  const std::vector<size_t> starts = char_starts(s);
  const int64_t n = starts.empty() ? int64_t(s.size()) : int64_t(starts.size()) - 1;
  auto at = [&](int64_t k) { return starts.empty() ? size_t(k) : starts[size_t(k)]; };
  auto chars = [&](int64_t k, int64_t count) { return s.substr(at(k), at(k + count) - at(k)); };
  if (key.is(ObjKind::Slice)) {
    const SliceBounds b = slice_bounds(*key.as<SliceObj>(), n, where);
    if (b.step == 1) return make_str(b.count > 0 ? chars(b.start, b.count) : std::string());
    std::string out;
    for (int64_t i = 0; i < b.count; ++i) out += chars(b.start + i * b.step, 1);
    return make_str(out);
  }
  int64_t i = 0;
  if (!index_value_of(key, i))
    Interp::fail("TypeError", key.is(ObjKind::Tensor) ? std::string("only integer tensors of a single element can be converted to an index")
                                                      : fmt::format("string indices must be integers or slices, not {}", type_name(key)), where);
  const int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n) Interp::fail("IndexError", fmt::format("string index {} is out of range for length {}", i, n), where);
  return make_str(chars(j, 1));
}

Value Interp::index_value(const Value& obj, const std::vector<Subscript>& subs, const Span& where) {
  std::vector<Value> keys;
  for (auto& s : subs) keys.push_back(subscript_value(s));
  return index_key(*this, obj, keys.size() == 1 ? keys[0] : make_tuple(keys), where);
}

Value index_key(Interp& in, const Value& obj, const Value& key, const Span& where) {
  if (obj.is(ObjKind::List)) return index_seq(obj.as<List>()->items, key, where, "list", make_list);
  if (obj.is(ObjKind::Tuple)) return index_seq(obj.as<Tuple>()->items, key, where, "tuple", make_tuple);
  if (obj.is(ObjKind::Str)) return index_str(obj.as<Str>()->value, key, where);
  if (obj.is(ObjKind::Range)) {
    auto* r = obj.as<Range>();
    std::vector<Value> items;
    for (int64_t i = 0; i < r->size(); ++i) items.push_back(Value(r->start + i * r->step));
    return index_seq(items, key, where, "range", make_list);
  }
  if (obj.is(ObjKind::Dict)) {
    check_hashable(key);
    Value* v = obj.as<Dict>()->find(key);
    if (!v) raise_key_error(in, key, where);
    return *v;
  }
  Value m = in.find_attr(obj, intern("__getitem__"));
  if (m.is_undef()) Interp::fail("TypeError", fmt::format("'{}' object is not subscriptable", type_name(obj)), where);
  return in.call(m, {key});
}

// IndexExpr: obj[subscripts]
Value Interp::eval_index(const IndexExpr& e) {
  Value obj = eval(*e.object);
  try {
    return index_value(obj, e.subs, e.span);
  } catch (AmpsError& err) {
    if (!err.has_span()) err.set_span(e.span);
    throw;
  }
}

}  // namespace amps::interp
