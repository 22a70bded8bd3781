// Script values: a small tagged Value (none, bool, int, float inline; everything else a
// refcounted Object). Object kinds are declared here; their classes live in objects.hpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "interp/atom.hpp"

namespace amps::interp {

enum class ObjKind : uint8_t {
  Str, List, Tuple, Dict, Function, Native, BoundMethod, Class, Instance, Module, Range,
  Env, Iterator, Slice, Cell, Tensor, DType, Device, Opaque,
};

class Interp;
class Value;

// Base of every heap value. Reference counts are atomic because DataParallel-style threads
// share values; cycles (closures capturing their own scope) are broken when an interpreter ends.
class Object {
 public:
  explicit Object(ObjKind k) : kind_(k) {}
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  ObjKind kind() const { return kind_; }
  void retain() { rc_.fetch_add(1, std::memory_order_relaxed); }
  // The first reference of a new object, before any other thread can see it: a plain store, where
  // retain() would pay a locked instruction.
  void adopt_first() { rc_.store(1, std::memory_order_relaxed); }
  void release() {
    if (rc_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  // The name `type(x)` reports and error messages use ("list", "Net", "Tensor", ...).
  virtual std::string type_name() const = 0;
  // How print/repr show objects the core formatter does not know (tensors, dtypes, ...).
  virtual std::string repr() const { return "<" + type_name() + " object>"; }
  // Truth value for objects the core does not know; may throw AmpsError (ambiguous tensors).
  virtual bool truthy() const { return true; }
  // Equality and hash for value-like objects (dtypes, devices); identity by default.
  virtual bool equals(const Object& other) const { return this == &other; }
  virtual size_t hash() const { return std::hash<const void*>()(this); }

 private:
  std::atomic<uint32_t> rc_{0};
  ObjKind kind_;
};

// Intrusive owning pointer to an Object subclass.
template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(T* p) : p_(p) { if (p_) p_->retain(); }  // NOLINT: implicit by design
  struct Adopt {};
  Ref(T* p, Adopt) : p_(p) {}  // takes over a reference [p] already holds (make())
  Ref(const Ref& o) : Ref(o.p_) {}
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
  Ref(const Ref<U>& o) : Ref(static_cast<T*>(o.get())) {}  // NOLINT: upcast
  ~Ref() { if (p_) p_->release(); }
  Ref& operator=(Ref o) noexcept { std::swap(p_, o.p_); return *this; }
  T* get() const { return p_; }
  // Gives up ownership without releasing: the caller now holds this reference.
  T* leak() { return std::exchange(p_, nullptr); }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  T* p_ = nullptr;
};

template <class T, class... A>
Ref<T> make(A&&... args) {
  T* p = new T(std::forward<A>(args)...);
  p->adopt_first();
  return Ref<T>(p, typename Ref<T>::Adopt{});
}

class Value {
 public:
  // Undef marks a declared variable that has not been assigned yet; scripts never see it.
  enum class Tag : uint8_t { Undef, None, Bool, Int, Float, Obj };

  Value() : tag_(Tag::None), i_(0) {}
  static Value undef() { Value v; v.tag_ = Tag::Undef; return v; }
  Value(bool b) : tag_(Tag::Bool), i_(b) {}           // NOLINT: implicit by design
  Value(int v) : tag_(Tag::Int), i_(v) {}             // NOLINT
  Value(int64_t v) : tag_(Tag::Int), i_(v) {}         // NOLINT
  Value(double v) : tag_(Tag::Float), f_(v) {}        // NOLINT
  Value(Object* o) : tag_(Tag::Obj), o_(o) { o_->retain(); }     // NOLINT
  template <class T>
  Value(const Ref<T>& r) : Value(static_cast<Object*>(r.get())) {}  // NOLINT
  template <class T>
  Value(Ref<T>&& r) : tag_(Tag::Obj), o_(r.leak()) {  // NOLINT: takes the reference over, no count change
    if (!o_) tag_ = Tag::None;
  }
  Value(const Value& v) : tag_(v.tag_), i_(v.i_) { if (is_obj()) o_->retain(); }
  Value(Value&& v) noexcept : tag_(v.tag_), i_(v.i_) { v.tag_ = Tag::None; }
  ~Value() { if (is_obj()) o_->release(); }
  Value& operator=(Value v) noexcept {
    std::swap(tag_, v.tag_);
    std::swap(i_, v.i_);
    return *this;
  }

  Tag tag() const { return tag_; }
  bool is_undef() const { return tag_ == Tag::Undef; }
  bool is_none() const { return tag_ == Tag::None; }
  bool is_bool() const { return tag_ == Tag::Bool; }
  bool is_int() const { return tag_ == Tag::Int; }
  bool is_float() const { return tag_ == Tag::Float; }
  bool is_number() const { return tag_ == Tag::Int || tag_ == Tag::Float || tag_ == Tag::Bool; }
  bool is_obj() const { return tag_ == Tag::Obj; }
  bool is(ObjKind k) const { return is_obj() && o_->kind() == k; }

  bool as_bool() const { return i_ != 0; }
  int64_t as_int() const { return i_; }
  double as_float() const { return f_; }
  // int, bool or float as a double (callers check is_number first).
  double to_double() const { return tag_ == Tag::Float ? f_ : double(i_); }
  Object* obj() const { return o_; }
  template <class T>
  T* as() const { return static_cast<T*>(o_); }

 private:
  Tag tag_;
  union {
    int64_t i_;
    double f_;
    Object* o_;
  };
};

// The name `type(v)` reports: "none", "bool", "int", "float", or the object's type name.
std::string type_name(const Value& v);

// The name error messages and wrappers give the callable [v]: a function's, native's, bound method's or
// class's own name, else its type name (interp/call.cpp).
std::string callee_name(const Value& v);

}  // namespace amps::interp
