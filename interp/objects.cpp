// Helpers of the core heap values: dict hashing and storage, attribute tables, class lookup.
#include "interp/objects.hpp"

#include <fmt/format.h>

#include <cmath>

#include "interp/interp.hpp"

namespace amps::interp {

std::string type_name(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::Undef:
    case Value::Tag::None: return "none";
    case Value::Tag::Bool: return "bool";
    case Value::Tag::Int: return "int";
    case Value::Tag::Float: return "float";
    case Value::Tag::Obj: return v.obj()->type_name();
  }
  return "?";
}

Value make_str(std::string s) { return make<Str>(std::move(s)); }
Value make_list(std::vector<Value> items) { return make<List>(std::move(items)); }
Value make_tuple(std::vector<Value> items) { return make<Tuple>(std::move(items)); }

void check_hashable(const Value& v) {
  if (!v.is_obj()) return;
  switch (v.obj()->kind()) {
    case ObjKind::List:
    case ObjKind::Dict: throw AmpsError("TypeError", fmt::format("unhashable type: '{}'", type_name(v)));
    case ObjKind::Tuple:
      for (auto& item : v.as<Tuple>()->items) check_hashable(item);
      return;
    default: return;
  }
}

size_t KeyHash::operator()(const Value& v) const {
  switch (v.tag()) {
    case Value::Tag::Bool:
    case Value::Tag::Int: return std::hash<int64_t>()(v.as_int());
    case Value::Tag::Float: {
      double d = v.as_float();
      if (d == std::floor(d) && std::abs(d) < 9.2e18) return std::hash<int64_t>()(int64_t(d));
      return std::hash<double>()(d);
    }
    case Value::Tag::Obj:
      if (v.is(ObjKind::Str)) return std::hash<std::string>()(v.as<Str>()->value);
      if (v.is(ObjKind::Tuple)) {
        size_t h = 0x345678;
        for (auto& item : v.as<Tuple>()->items) h = h * 1000003 ^ (*this)(item);
        return h;
      }
      return v.obj()->hash();
    default: return 0;
  }
}

bool KeyEq::operator()(const Value& a, const Value& b) const {
  if (a.is_number() && b.is_number()) return a.to_double() == b.to_double() && (a.is_float() || b.is_float() || a.as_int() == b.as_int());
  if (a.tag() != b.tag()) return false;
  if (!a.is_obj()) return true;   // none == none
  if (a.obj() == b.obj()) return true;
  if (a.is(ObjKind::Str) && b.is(ObjKind::Str)) return a.as<Str>()->value == b.as<Str>()->value;
  if (a.is(ObjKind::Tuple) && b.is(ObjKind::Tuple)) {
    auto& x = a.as<Tuple>()->items;
    auto& y = b.as<Tuple>()->items;
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!(*this)(x[i], y[i])) return false;
    return true;
  }
  return a.obj()->equals(*b.obj());
}

Value* Dict::find(const Value& key) {
  auto it = index.find(key);
  return it == index.end() ? nullptr : &entries[it->second].second;
}

void Dict::set(const Value& key, Value value) {
  auto [it, fresh] = index.emplace(key, entries.size());
  if (fresh) entries.emplace_back(key, std::move(value));
  else entries[it->second].second = std::move(value);
}

bool Dict::erase(const Value& key) {
  auto it = index.find(key);
  if (it == index.end()) return false;
  size_t pos = it->second;
  index.erase(it);
  entries.erase(entries.begin() + pos);
  for (auto& [k, i] : index)
    if (i > pos) --i;
  return true;
}

static constexpr size_t kIndexThreshold = 24;

Value* AttrMap::find(Atom key) {
  if (!index_.empty()) {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].second;
  }
  for (auto& [k, v] : items_)
    if (k == key) return &v;
  return nullptr;
}

Value& AttrMap::operator[](Atom key) {
  if (Value* v = find(key)) return *v;
  items_.emplace_back(key, Value());
  if (!index_.empty() || items_.size() > kIndexThreshold) {
    if (index_.empty())
      for (size_t i = 0; i < items_.size(); ++i) index_[items_[i].first] = i;
    index_[key] = items_.size() - 1;
  }
  return items_.back().second;
}

bool AttrMap::erase(Atom key) {
  for (size_t i = 0; i < items_.size(); ++i) {
    if (items_[i].first != key) continue;
    items_.erase(items_.begin() + i);
    index_.clear();
    if (items_.size() > kIndexThreshold)
      for (size_t j = 0; j < items_.size(); ++j) index_[items_[j].first] = j;
    return true;
  }
  return false;
}

const Value* Class::lookup(Atom key) const {
  for (const Class* c = this; c; c = c->base.get())
    if (const Value* v = c->attrs.find(key)) return v;
  return nullptr;
}

bool Class::is_subclass_of(const Class* other) const {
  for (const Class* c = this; c; c = c->base.get()) {
    if (c == other) return true;
    if (c->also && c->also->is_subclass_of(other)) return true;
  }
  return false;
}

int64_t Range::size() const {
  if (step > 0) return start < stop ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / (-step) : 0;
}

}  // namespace amps::interp
