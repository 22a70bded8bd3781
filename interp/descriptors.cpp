// staticmethod, classmethod and property (see descriptors.hpp).
#include "interp/descriptors.hpp"

#include <fmt/format.h>

#include "interp/builtins.hpp"

namespace amps::interp {

std::string Descriptor::type_name() const {
  switch (kind) {
    case Kind::Static: return "staticmethod";
    case Kind::ClassMethod: return "classmethod";
    case Kind::Property: return "property";
  }
  return "descriptor";
}

Descriptor* as_descriptor(const Value& v) {
  return v.is(ObjKind::Opaque) ? dynamic_cast<Descriptor*>(v.obj()) : nullptr;
}

namespace {

Ref<Descriptor> make_property(Value fget, Value fset, Value fdel, Value doc) {
  auto p = make<Descriptor>(Descriptor::Kind::Property);
  p->fn = std::move(fget);
  p->fset = std::move(fset);
  p->fdel = std::move(fdel);
  p->doc = std::move(doc);
  return p;
}

// prop.setter(f) / .getter(f) / .deleter(f): a copy of the property with that accessor replaced, as Python's.
Value accessor_decorator(const Ref<Descriptor>& self, const char* which) {
  return make<Native>(which, [self, which](Interp&, CallArgs& a) {
    ArgReader r(a, which, {"fn"});
    const Value& f = r.required(0);
    std::string w = which;
    return Value(make_property(w == "getter" ? f : self->fn, w == "setter" ? f : self->fset,
                               w == "deleter" ? f : self->fdel, self->doc));
  });
}

Value wrap(CallArgs& a, const char* name, Descriptor::Kind kind) {
  ArgReader r(a, name, {"function"});
  auto d = make<Descriptor>(kind);
  d->fn = r.required(0);
  return d;
}

}  // namespace

Value Descriptor::get_attr(Interp&, Atom name) {
  Ref<Descriptor> self(this);
  if (kind != Kind::Property) return *name == "__func__" ? fn : Value::undef();
  if (*name == "fget") return fn;
  if (*name == "fset") return fset;
  if (*name == "fdel") return fdel;
  if (*name == "__doc__") return doc;
  for (const char* which : {"setter", "getter", "deleter"})
    if (*name == which) return accessor_decorator(self, which);
  return Value::undef();
}

Value descriptor_get(Interp& in, Descriptor& d, const Value& self, Class* cls, const Span& where) {
  switch (d.kind) {
    case Descriptor::Kind::Static: return d.fn;
    case Descriptor::Kind::ClassMethod: return make<BoundMethod>(Value(cls), d.fn);
    case Descriptor::Kind::Property:
      if (self.is_none()) return Value(&d);   // Cls.prop is the property itself
      if (d.fn.is_none()) Interp::fail("AttributeError", "unreadable attribute (the property has no getter)", where);
      return in.call(d.fn, std::vector<Value>{self});
  }
  return Value::undef();
}

void property_set(Interp& in, Descriptor& d, const Value& self, Atom name, Value v, const Span& where) {
  if (d.fset.is_none())
    Interp::fail("AttributeError", fmt::format("property '{}' of '{}' object has no setter (add one with `@{}.setter`)",
                                               *name, type_name(self), *name), where);
  in.call(d.fset, std::vector<Value>{self, std::move(v)});
}

void set_descriptor_owner(Descriptor& d, Class* owner) {
  for (Value* f : {&d.fn, &d.fset, &d.fdel})
    if (f->is(ObjKind::Function)) f->as<Function>()->owner = owner;
}

void install_descriptor_builtins(Interp& in) {
  def_type(in, "staticmethod", [](Interp&, CallArgs& a) { return wrap(a, "staticmethod", Descriptor::Kind::Static); });
  def_type(in, "classmethod", [](Interp&, CallArgs& a) { return wrap(a, "classmethod", Descriptor::Kind::ClassMethod); });
  def_type(in, "property", [](Interp&, CallArgs& a) {
    ArgReader r(a, "property", {"fget", "fset", "fdel", "doc"});
    auto v = [&](size_t i) { return r.has(i) ? r.get(i) : Value(); };
    return Value(make_property(v(0), v(1), v(2), v(3)));
  });
}

}  // namespace amps::interp
