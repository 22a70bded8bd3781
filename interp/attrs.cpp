// Attribute access: instances, classes, modules, errors, opaque objects and the methods of
// built-in types (list.append, str.split, dict.items, ...).
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/descriptors.hpp"
#include "interp/exceptions.hpp"
#include "interp/interp.hpp"

namespace amps::interp {

// Instance attribute, else a class attribute (methods come back bound to the instance).
static Value instance_attr(Interp& in, const Value& self, Atom name) {
  auto* inst = self.as<Instance>();
  if (const Value* own = inst->attrs.find(name)) return *own;
  const Value* v = inst->cls->lookup(name);
  if (!v) return inst->cls->exception ? exception_attr(in, self, name) : Value::undef();
  if (v->is(ObjKind::Function) || v->is(ObjKind::Native)) return make<BoundMethod>(self, *v);
  if (Descriptor* d = as_descriptor(*v)) return descriptor_get(in, *d, self, inst->cls.get(), {});
  return *v;
}

// slice.start/.stop/.step and slice.indices(n), as Python's.
static Value slice_attr(const Value& obj, Atom name) {
  auto* s = obj.as<SliceObj>();
  if (*name == "start") return s->lo;
  if (*name == "stop") return s->hi;
  if (*name == "step") return s->step;
  if (*name != "indices") return Value::undef();
  return make<BoundMethod>(obj, make<Native>("indices", [](Interp&, CallArgs& a) {
    ArgReader r(a, "indices", {"self", "len"});
    const Value& n = r.required(1);
    if (!n.is_int()) Interp::fail("TypeError", "slice.indices() takes an integer length, not " + type_name(n), a.span);
    return slice_indices(*r.get(0).as<SliceObj>(), n.as_int(), a.span);
  }));
}

// __name__, __qualname__ and __module__ of a built-in type (int.__name__, type(t).__module__ == "torch").
static Value builtin_type_attr(const BuiltinType& t, Atom name) {
  if (*name == "__name__" || *name == "__qualname__") return make_str(t.name);
  if (*name == "__module__") return make_str(t.module);
  return Value::undef();
}

Value Interp::find_attr(const Value& obj, Atom name) {
  static const Atom k_class = intern("__class__");
  if (name == k_class) return type_of(*this, obj);   // every value's, as Python's x.__class__
  if (!obj.is_obj()) return builtin_method(*this, obj, name);
  switch (obj.obj()->kind()) {
    case ObjKind::Instance: return instance_attr(*this, obj, name);
    case ObjKind::Class: {
      if (*name == "__name__" || *name == "__qualname__") return make_str(*obj.as<Class>()->name);
      const Value* v = obj.as<Class>()->lookup(name);
      if (v && v->is(ObjKind::Native) && v->as<Native>()->classmethod) return make<BoundMethod>(obj, *v);
      if (Descriptor* d = v ? as_descriptor(*v) : nullptr) return descriptor_get(*this, *d, Value(), obj.as<Class>(), {});
      return v ? *v : Value::undef();
    }
    case ObjKind::Module: {
      const Value* v = obj.as<Module>()->attrs.find(name);
      return v ? *v : Value::undef();
    }
    case ObjKind::Tuple:
      if (const auto* t = obj.as<Tuple>(); t->field_names)
        for (size_t i = 0; i < t->field_names->size() && i < t->items.size(); ++i)
          if ((*t->field_names)[i] == *name) return t->items[i];
      return builtin_method(*this, obj, name);
    case ObjKind::Slice: return slice_attr(obj, name);
    case ObjKind::Native:
      if (const BuiltinType* t = as_builtin_type(obj))
        if (Value v = builtin_type_attr(*t, name); !v.is_undef()) return v;
      [[fallthrough]];
    case ObjKind::Function:
    case ObjKind::BoundMethod:   // f.__name__, as Python's (argparse names a `type=` converter by it)
      return *name == "__name__" ? make_str(callee_name(obj)) : builtin_method(*this, obj, name);
    case ObjKind::Opaque:
    case ObjKind::Tensor:
    case ObjKind::DType:
    case ObjKind::Device: return obj.as<Opaque>()->get_attr(*this, name);
    default: return builtin_method(*this, obj, name);
  }
}

Value Interp::get_attr(const Value& obj, Atom name, const Span& where) {
  Value v = find_attr(obj, name);
  if (!v.is_undef()) return v;
  if (obj.is(ObjKind::Module))
    fail("AttributeError", fmt::format("module '{}' has no attribute '{}'", obj.as<Module>()->name, *name), where);
  if (obj.is(ObjKind::Instance)) {
    const Value* getter = obj.as<Instance>()->cls->lookup(intern("__getattr__"));
    if (getter) return call(*getter, {obj, make_str(*name)});
  }
  fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", type_name(obj), *name), where);
}

void Interp::set_attr(const Value& obj, Atom name, Value v, const Span& where) {
  if (obj.is(ObjKind::Instance)) {
    auto* inst = obj.as<Instance>();
    if (inst->cls->any_descriptors()) {
      const Value* cv = inst->cls->lookup(name);
      if (Descriptor* d = cv ? as_descriptor(*cv) : nullptr; d && d->kind == Descriptor::Kind::Property)
        return property_set(*this, *d, obj, name, std::move(v), where);
    }
    const Value* setter = inst->cls->lookup(intern("__setattr__"));
    if (setter) { call(*setter, {obj, make_str(*name), std::move(v)}); return; }
    inst->attrs[name] = std::move(v);
    return;
  }
  if (obj.is(ObjKind::Class)) {
    if (as_descriptor(v)) obj.as<Class>()->has_descriptors = true;
    obj.as<Class>()->attrs[name] = std::move(v);
    return;
  }
  if (obj.is(ObjKind::Module)) { obj.as<Module>()->attrs[name] = std::move(v); return; }
  if (is_opaque(obj) && obj.as<Opaque>()->set_attr(*this, name, v)) return;
  fail("AttributeError", fmt::format("cannot set attribute '{}' on '{}' object", *name, type_name(obj)), where);
}

}  // namespace amps::interp
