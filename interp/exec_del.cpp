// The `del` statement (Python's): unbinds names, removes attributes, dict keys and list items, or calls the
// object's __delattr__ / __delitem__. Targets are deleted left to right, each evaluated when its turn comes.
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/interp.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {

namespace {

// del obj.name: a class's __delattr__ if it has one, else the attribute leaves the instance (or module, class).
void del_attr(Interp& in, const Value& obj, Atom name, const Span& where) {
  AttrMap* attrs = nullptr;
  if (obj.is(ObjKind::Instance)) {
    auto* inst = obj.as<Instance>();
    if (const Value* m = inst->cls->lookup(intern("__delattr__"))) { in.call(*m, {obj, make_str(*name)}); return; }
    attrs = &inst->attrs;
  } else if (obj.is(ObjKind::Class)) {
    attrs = &obj.as<Class>()->attrs;
  } else if (obj.is(ObjKind::Module)) {
    attrs = &obj.as<Module>()->attrs;
  } else {
    Interp::fail("AttributeError", fmt::format("cannot delete attribute '{}' of '{}' object", *name, type_name(obj)), where);
  }
  if (!attrs->erase(name))
    Interp::fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", type_name(obj), *name), where);
}

// del xs[i] / del xs[a:b:c] on a list, as Python's (an index out of range is an IndexError).
void del_list_item(std::vector<Value>& items, const Value& key, const Span& where) {
  const int64_t n = int64_t(items.size());
  if (key.is(ObjKind::Slice)) {
    auto b = slice_indices(*key.as<SliceObj>(), n, where).as<Tuple>()->items;
    const int64_t start = b[0].as_int(), stop = b[1].as_int(), step = b[2].as_int();
    std::vector<bool> gone(size_t(n), false);
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) gone[size_t(i)] = true;
    size_t w = 0;
    for (size_t r = 0; r < items.size(); ++r)
      if (!gone[r]) items[w++] = std::move(items[r]);
    items.resize(w);
    return;
  }
  int64_t i = 0;
  if (!index_value_of(key, i))
    Interp::fail("TypeError", fmt::format("list indices must be integers or slices, not {}", type_name(key)), where);
  const int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n) Interp::fail("IndexError", "list assignment index out of range", where);
  items.erase(items.begin() + j);
}

// del obj[key]: lists, dicts, or the object's __delitem__.
void del_item(Interp& in, const Value& obj, const Value& key, const Span& where) {
  if (obj.is(ObjKind::List)) return del_list_item(obj.as<List>()->items, key, where);
  if (obj.is(ObjKind::Dict)) {
    check_hashable(key);
    if (!obj.as<Dict>()->erase(key)) raise_key_error(in, key, where);
    return;
  }
  Value m = in.find_attr(obj, intern("__delitem__"));
  if (!m.is_undef()) { in.call(m, {key}); return; }
  if (obj.is(ObjKind::Tensor)) Interp::fail("TypeError", "Tensor does not support deleting items", where);
  Interp::fail("TypeError", fmt::format("'{}' object doesn't support item deletion", type_name(obj)), where);
}

}  // namespace

void Interp::exec_del(const Expr& target) {
  switch (target.kind) {
    case ExprKind::Name: {
      auto& n = static_cast<const NameExpr&>(target);
      if (n.ref.kind == VarRef::Kind::Builtin) fail("NameError", fmt::format("name '{}' is not defined", *n.name), n.span);
      Value& cell = slot(n.ref);
      if (cell.is_undef()) fail("NameError", fmt::format("name '{}' is used before it is assigned", *n.name), n.span);
      cell = Value::undef();
      return;
    }
    case ExprKind::Attr: {
      auto& n = static_cast<const AttrExpr&>(target);
      return del_attr(*this, eval(*n.object), n.name, n.span);
    }
    case ExprKind::Index: {
      auto& n = static_cast<const IndexExpr&>(target);
      Value obj = eval(*n.object);
      std::vector<Value> keys;
      for (auto& s : n.subs) keys.push_back(subscript_value(s));
      return del_item(*this, obj, keys.size() == 1 ? keys[0] : make_tuple(std::move(keys)), n.span);
    }
    case ExprKind::Tuple:
      for (auto& t : static_cast<const TupleLit&>(target).items) exec_del(*t);
      return;
    default:   // a list display (the builder admits nothing else)
      for (auto& t : static_cast<const ListLit&>(target).items) exec_del(*t);
  }
}

}  // namespace amps::interp
