// The heap value classes of the language core: strings, containers, functions, classes,
// instances, modules, ranges, errors, environments and iterators.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "interp/ast.hpp"
#include "interp/diagnostics.hpp"
#include "interp/value.hpp"

namespace amps::interp {

struct Str : Object {
  explicit Str(std::string s) : Object(ObjKind::Str), value(std::move(s)) {}
  std::string type_name() const override { return "str"; }
  std::string value;
};

struct List : Object {
  List() : Object(ObjKind::List) {}
  explicit List(std::vector<Value> v) : Object(ObjKind::List), items(std::move(v)) {}
  std::string type_name() const override { return "list"; }
  std::vector<Value> items;
};

struct Tuple : Object {
  Tuple() : Object(ObjKind::Tuple) {}
  explicit Tuple(std::vector<Value> v) : Object(ObjKind::Tuple), items(std::move(v)) {}
  std::string type_name() const override { return "tuple"; }
  std::vector<Value> items;
  // The op's return names when the tuple is an op's result (`x.max(1).values`, PyTorch's torch.return_types);
  // null for plain tuples. Points into the op's parsed schema, which lives for the whole process.
  const std::vector<std::string>* field_names = nullptr;
};

// Hash and equality for dict keys, with Python's rules (1 == 1.0 == true; unhashable lists).
struct KeyHash { size_t operator()(const Value& v) const; };
struct KeyEq { bool operator()(const Value& a, const Value& b) const; };
// Throws TypeError when `v` cannot be a dict key.
void check_hashable(const Value& v);

// Insertion-ordered dictionary, like Python's dict.
struct Dict : Object {
  Dict() : Object(ObjKind::Dict) {}
  std::string type_name() const override { return "dict"; }
  Value* find(const Value& key);
  void set(const Value& key, Value value);
  bool erase(const Value& key);
  size_t size() const { return index.size(); }
  std::vector<std::pair<Value, Value>> entries;   // erased entries are compacted on erase
  std::unordered_map<Value, size_t, KeyHash, KeyEq> index;
};

// A variable scope at run time: a function call's locals, a comprehension's, or a module's.
struct Env : Object {
  Env(Ref<Env> parent, size_t n) : Object(ObjKind::Env), parent(std::move(parent)), slots(n, Value::undef()) {}
  std::string type_name() const override { return "env"; }
  Ref<Env> parent;
  std::vector<Value> slots;
};

struct Class;

// A script function or method: its declaration, defaults (evaluated at definition time like
// Python), and the environment it closes over.
struct Function : Object {
  Function(const FnDecl* d, Ref<Env> c) : Object(ObjKind::Function), decl(d), closure(std::move(c)) {}
  std::string type_name() const override { return "function"; }
  const FnDecl* decl;
  Ref<Env> closure;
  std::vector<Value> defaults;          // one per param; undef when it has none
  Class* owner = nullptr;               // class whose body defined this method (for super)
  std::shared_ptr<const Program> keep;  // the AST this function points into
};

// Arguments of a call as the callee sees them.
struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<Atom, Value>> kw;
  Span span;   // the call expression
};

// A function implemented in C++: builtins, stdlib, host-registered functions.
struct Native : Object {
  using Fn = std::function<Value(Interp&, CallArgs&)>;
  Native(std::string n, Fn f) : Object(ObjKind::Native), name(std::move(n)), fn(std::move(f)) {}
  std::string type_name() const override { return "builtin_function"; }
  std::string name;
  Fn fn;
  bool classmethod = false;   // looked up on a class, it comes back bound to that class
  bool is_type = false;       // a BuiltinType (below)
};

// A built-in type (int, str, Tensor, NoneType, ...): the value `type(x)` returns, `isinstance` tests against and
// `int`, `str`, `Tensor` name. It is a Native so that it calls exactly as the constructor it replaced (int("5"),
// str.lower, dtype=float); a type without a constructor raises Python's "cannot create 'X' instances". Made once per
// interpreter (interp/type_table.hpp); equality and hashing are by identity.
struct BuiltinType : Native {
  BuiltinType(std::string n, Fn f, std::string mod, Ref<BuiltinType> b)
      : Native(std::move(n), std::move(f)), module(std::move(mod)), base(std::move(b)) { is_type = true; }
  std::string type_name() const override { return "type"; }
  // "int", "torch.Tensor": the name repr shows (`<class 'torch.Tensor'>`).
  std::string full_name() const { return module == "builtins" ? name : module + "." + name; }
  // Whether this type is [other] or derives from it (bool from int).
  bool is_subtype_of(const Object* other) const {
    for (const BuiltinType* t = this; t; t = t->base.get())
      if (t == other) return true;
    return false;
  }
  std::string module;       // Python's __module__: "builtins", "torch", "_io", ...
  Ref<BuiltinType> base;    // int for bool; null for the rest (object, a class, is every type's base)
  bool script_class = false;   // stands for a script class of the same name until that loads (set: py_set.amps)
};

// [v] as a built-in type, or null.
inline const BuiltinType* as_builtin_type(const Value& v) {
  return v.is(ObjKind::Native) && v.as<Native>()->is_type ? v.as<BuiltinType>() : nullptr;
}

// obj.method: a callable with its receiver bound as the first argument.
struct BoundMethod : Object {
  BoundMethod(Value s, Value f) : Object(ObjKind::BoundMethod), self(std::move(s)), fn(std::move(f)) {}
  std::string type_name() const override { return "method"; }
  Value self, fn;
};

// Attribute table that keeps insertion order (parameters() and state_dict() follow the order
// attributes were set, as in PyTorch). Linear probing is fastest for the usual handful of
// names; an index is built once a table grows past a few dozen.
class AttrMap {
 public:
  Value* find(Atom key);
  const Value* find(Atom key) const { return const_cast<AttrMap*>(this)->find(key); }
  Value& operator[](Atom key);
  bool erase(Atom key);
  void clear() { items_.clear(); index_.clear(); }
  size_t size() const { return items_.size(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<std::pair<Atom, Value>> items_;
  std::unordered_map<Atom, size_t> index_;   // used once items_ is large
};

struct Class : Object {
  Class(Atom n, Ref<Class> b) : Object(ObjKind::Class), name(n), base(std::move(b)) { exception = base && base->exception; }
  std::string type_name() const override { return "class"; }
  // Looks `key` up here, then along the base chain; null when absent.
  const Value* lookup(Atom key) const;
  bool is_subclass_of(const Class* other) const;
  // True when this class or a base holds a staticmethod/classmethod/property (interp/descriptors.hpp): only then
  // do attribute reads and writes on instances look for one.
  bool any_descriptors() const {
    for (const Class* c = this; c; c = c->base.get())
      if (c->has_descriptors) return true;
    return false;
  }
  Atom name;
  Ref<Class> base;
  // A second base for is_subclass_of only, for the built-in exceptions Python derives from two (io's
  // UnsupportedOperation is an OSError and a ValueError); attribute lookup follows [base] alone.
  Ref<Class> also;
  AttrMap attrs;        // methods and class attributes
  bool has_descriptors = false;
  bool exception = false;   // BaseException or a subclass: its instances are ExcInstances (interp/exceptions.hpp)
};

struct Instance : Object {
  explicit Instance(Ref<Class> c) : Object(ObjKind::Instance), cls(std::move(c)) {}
  std::string type_name() const override { return *cls->name; }
  Ref<Class> cls;
  AttrMap attrs;
};

// A built-in module (nn, optim, ...) or an imported file; attributes are its public names.
struct Module : Object {
  explicit Module(std::string n) : Object(ObjKind::Module), name(std::move(n)) {}
  std::string type_name() const override { return "module"; }
  std::string name;
  AttrMap attrs;
};

struct Range : Object {
  Range(int64_t b, int64_t e, int64_t s) : Object(ObjKind::Range), start(b), stop(e), step(s) {}
  std::string type_name() const override { return "range"; }
  int64_t size() const;
  int64_t start, stop, step;
};

// A one-pass iterator over native data (data loaders, dict views, script __next__ objects).
struct Iterator : Object {
  Iterator() : Object(ObjKind::Iterator) {}
  std::string type_name() const override { return "iterator"; }
  // Stores the next element in `out` and returns true, or returns false when exhausted.
  virtual bool next(Interp& in, Value& out) = 0;
};

// a[lo:hi:step] parts (none where omitted), passed to __getitem__ and tensor indexing.
struct SliceObj : Object {
  SliceObj(Value l, Value h, Value s) : Object(ObjKind::Slice), lo(std::move(l)), hi(std::move(h)), step(std::move(s)) {}
  std::string type_name() const override { return "slice"; }
  Value lo, hi, step;
};

// A C++ object with its own attributes and methods (GradScaler, optimizers, loaders, ...).
struct Opaque : Object {
  explicit Opaque(ObjKind k = ObjKind::Opaque) : Object(k) {}
  // The attribute `name` (methods come back bound), or undef when there is none.
  virtual Value get_attr(Interp& in, Atom name) = 0;
  // Sets an attribute; returns false when the object has no such settable attribute.
  virtual bool set_attr(Interp&, Atom, const Value&) { return false; }
};

// True for C++-backed objects with their own attributes (Opaque and its tensor/dtype/device kinds).
inline bool is_opaque(const Value& v) {
  return v.is(ObjKind::Opaque) || v.is(ObjKind::Tensor) || v.is(ObjKind::DType) || v.is(ObjKind::Device);
}

Value make_str(std::string s);
Value make_list(std::vector<Value> items);
Value make_tuple(std::vector<Value> items);

}  // namespace amps::interp
