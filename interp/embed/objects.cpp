// The embedding API's host objects: instances of an amps_class wrapping host data, with bound
// methods from a {name, fn} table, an attribute hook, or (iterator classes) a next hook.
#include <fmt/format.h>

#include "interp/embed/handles.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;

namespace {

// Owns one handle a host hook returned, so an error leaves nothing behind.
struct Returned {
  amps_value* v = nullptr;
  ~Returned() { amps_release(v); }
  Value take() { return adopt(std::exchange(v, nullptr)); }
};

// The class's bound-method functions, made on first use in each vm (in table order).
const std::vector<Value>& methods_of(Interp& in, const amps_class* cls) {
  std::vector<Value>& fns = state(in).methods[cls];
  if (fns.empty())
    for (const amps_reg* r = cls->methods; r && r->name; ++r) fns.push_back(make<Native>(r->name, bind_row(*r)));
  return fns;
}

struct HostObject : Opaque {
  HostObject(const amps_class* c, void* d) : cls(c), data(d) {}
  ~HostObject() override {
    if (cls->drop) cls->drop(data);
  }
  std::string type_name() const override { return cls->name; }

  // A method of the table (bound to this object), else what the attribute hook returns.
  Value get_attr(Interp& in, Atom name) override {
    size_t i = 0;
    for (const amps_reg* r = cls->methods; r && r->name; ++r, ++i)
      if (*name == r->name) return make<BoundMethod>(Value(this), methods_of(in, cls)[i]);
    if (!cls->attr) return Value::undef();
    Returned out;
    run_host(in, nullptr, [&] { return fmt::format("{}.{}", cls->name, *name); }, Span{},
             [&](amps_vm* vm) { return cls->attr(vm, data, name->c_str(), &out.v); });
    return out.take();
  }

  const amps_class* cls;
  void* data;
};

struct HostIterator : Iterator {
  HostIterator(const amps_class* c, void* d) : cls(c), data(d) {}
  ~HostIterator() override {
    if (cls->drop) cls->drop(data);
  }
  std::string type_name() const override { return cls->name; }

  bool next(Interp& in, Value& item) override {
    Returned out;
    run_host(in, nullptr, [&] { return fmt::format("{}.next()", cls->name); }, Span{},
             [&](amps_vm* vm) { return cls->next(vm, data, &out.v); });
    if (!out.v) return false;
    item = out.take();
    return true;
  }

  const amps_class* cls;
  void* data;
};

// The class and data of a host object (nulls for any other value).
std::pair<const amps_class*, void*> host_parts(const amps_value* v) {
  if (!v) return {nullptr, nullptr};
  const Value& x = value_of(v);
  if (x.is(ObjKind::Opaque))
    if (auto* h = dynamic_cast<HostObject*>(x.obj())) return {h->cls, h->data};
  if (x.is(ObjKind::Iterator))
    if (auto* h = dynamic_cast<HostIterator*>(x.obj())) return {h->cls, h->data};
  return {nullptr, nullptr};
}

std::string check_class(const amps_class* cls) {
  if (!cls) return "cls is NULL";
  if (!cls->name || !*cls->name) return "the class has no name";
  if (cls->next && (cls->methods || cls->attr)) return fmt::format("class '{}' has a next hook and methods or attr: iterator classes have neither", cls->name);
  for (const amps_reg* r = cls->methods; r && r->name; ++r)
    if (!r->fn) return fmt::format("method '{}' of class '{}' has no function", r->name, cls->name);
  return "";
}

}  // namespace

extern "C" {

amps_status amps_object_new(amps_vm* vm, const amps_class* cls, void* data, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    std::string why = out ? check_class(cls) : "out is NULL";
    if (!why.empty()) return misuse(in, "amps_object_new: " + why);
    if (cls->next) *out = new_handle(make<HostIterator>(cls, data));
    else *out = new_handle(make<HostObject>(cls, data));
    return AMPS_OK;
  });
}

void* amps_object_data(const amps_value* v, const amps_class* cls) {
  auto [c, data] = host_parts(v);
  return c && (!cls || c == cls) ? data : nullptr;
}

const amps_class* amps_object_class(const amps_value* v) { return host_parts(v).first; }

}  // extern "C"
