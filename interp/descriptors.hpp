// Python's method descriptors for script classes: staticmethod, classmethod and property.
// A class attribute holding one of them changes what `obj.name` / `Cls.name` give and what `obj.name = v` does
// (interp/attrs.cpp asks here); everything else in a class stays a plain function or value.
#pragma once

#include "interp/interp.hpp"

namespace amps::interp {

struct Descriptor : Opaque {
  enum class Kind : uint8_t { Static, ClassMethod, Property };
  explicit Descriptor(Kind k) : kind(k) {}
  std::string type_name() const override;
  Value get_attr(Interp& in, Atom name) override;
  Kind kind;
  Value fn;             // the wrapped function (staticmethod/classmethod) or the getter (property; none: write-only)
  Value fset, fdel;     // property only; none when absent
  Value doc;
};

// The descriptor [v] holds, or null.
Descriptor* as_descriptor(const Value& v);

// `self.name` for an instance whose class attribute [d] is a descriptor (self none: looked up on class [cls]).
Value descriptor_get(Interp& in, Descriptor& d, const Value& self, Class* cls, const Span& where);

// `self.name = v` when the class attribute is a property: calls its setter, or raises Python's AttributeError.
void property_set(Interp& in, Descriptor& d, const Value& self, Atom name, Value v, const Span& where);

// The functions a descriptor wraps: for `super` to find the class its method was defined in.
void set_descriptor_owner(Descriptor& d, Class* owner);

// Registers the builtins staticmethod, classmethod and property.
void install_descriptor_builtins(Interp& in);

}  // namespace amps::interp
