// The embedding API's script-class instances: identity, the class's home module by name, own attributes, and bare
// instances made without init, as a pickle-like serializer (the stdlib's save/load of whole models) needs them.
#include <fmt/format.h>

#include "interp/embed/handles.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;

namespace {

bool plain_instance(const Value& v) { return v.is(ObjKind::Instance) && !v.as<Instance>()->cls->exception; }

// Whether module value [m] holds the object [obj] at its top level under [name].
bool module_holds(const Value& m, Atom name, const Object* obj) {
  if (!m.is(ObjKind::Module)) return false;
  const Value* v = m.as<Module>()->attrs.find(name);
  return v && v->is_obj() && v->obj() == obj;
}

// The name a function, builtin or class is defined under (pickle's __qualname__ without nesting); null otherwise.
Atom global_name_of(const Value& v) {
  if (v.is(ObjKind::Function)) return v.as<Function>()->decl->name;
  if (v.is(ObjKind::Native)) return intern(v.as<Native>()->name);
  if (v.is(ObjKind::Class)) return v.as<Class>()->name;
  return nullptr;
}

// A file module's key is its path; registered modules are keyed by their dotted name.
bool is_path_key(const std::string& key) { return key.find('/') != std::string::npos || key.ends_with(".amps"); }

// The key of the module that holds [obj] under [name] (a class, function or builtin): the builtins first ("builtins",
// Python's name), then registered modules (the stdlib's classes keep the name scripts import them by, even where a
// script also binds them globally), then the main script, then file modules; "" when none (a local or anonymous one).
std::string home_of(Interp& in, Atom name, const Object* obj) {
  Value b = in.lookup_builtin(*name);
  if (b.is_obj() && b.obj() == obj) return "builtins";
  for (auto& [key, m] : in.loaded_modules())
    if (!is_path_key(key) && module_holds(m, name, obj)) return key;
  Value g = in.lookup_global(*name);
  if (g.is_obj() && g.obj() == obj) return "__main__";
  for (auto& [key, m] : in.loaded_modules())   // by the module's name (models for models.amps), as Python's, so the
    if (is_path_key(key) && module_holds(m, name, obj)) return m.as<Module>()->name;   // file loads from any directory
  return "";
}

// The module and top-level name under which a module holds instance [obj] (registered modules first, then file modules
// by their name; the main script's globals do not count: its instances are stored by value); empty strings when none.
std::pair<std::string, std::string> instance_home(Interp& in, const Object* obj) {
  for (int pass = 0; pass < 2; ++pass)
    for (auto& [key, m] : in.loaded_modules()) {
      if (is_path_key(key) != (pass == 1) || !m.is(ObjKind::Module)) continue;
      for (auto& [name, v] : m.as<Module>()->attrs)
        if (v.is_obj() && v.obj() == obj) return {pass == 0 ? key : m.as<Module>()->name, *name};
    }
  return {"", ""};
}

// Python's refusal of an object that no module holds by its name.
[[noreturn]] void local_object(Interp& in, const std::string& what) {
  Interp::fail("AttributeError", fmt::format("Can't pickle local object '{}': no module holds it at its top level under "
                                             "that name (define it at the top of the script or of a module)", what),
               call_site(in));
}

// Module [key] as amps_instance_class names it: a loaded one, a file module the script imported (by its name), or a
// registered one, imported now; undef when there is none.
Value module_named(Interp& in, const std::string& key) {
  auto it = in.loaded_modules().find(key);
  if (it != in.loaded_modules().end()) return it->second;
  for (auto& [path, m] : in.loaded_modules())
    if (is_path_key(path) && m.is(ObjKind::Module) && m.as<Module>()->name == key) return m;
  if (!in.has_module(key)) return Value::undef();
  std::vector<Atom> path;
  for (size_t start = 0, dot; start <= key.size(); start = dot + 1) {
    dot = key.find('.', start);
    if (dot == std::string::npos) dot = key.size();
    path.push_back(intern(key.substr(start, dot - start)));
  }
  return in.import_module(path, call_site(in));
}

// What [module] holds at its top level under [name] (see amps_find_global), or undef.
Value global_named(Interp& in, std::string_view module, const char* name) {
  if (module == "__main__") return in.lookup_global(name);
  if (module == "builtins") return in.lookup_builtin(name);
  Value m = module_named(in, std::string(module));
  return m.is(ObjKind::Module) ? in.find_attr(m, intern(name)) : Value::undef();
}

}  // namespace

extern "C" {

int amps_is_instance(const amps_value* v) { return v && plain_instance(value_of(v)); }

uint64_t amps_identity(const amps_value* v) {
  return v && value_of(v).is_obj() ? uint64_t(reinterpret_cast<uintptr_t>(value_of(v).obj())) : 0;
}

amps_status amps_instance_class(amps_vm* vm, const amps_value* obj, amps_value** module, amps_value** name) {
  return guarded(vm, [&](Interp& in) {
    if (!obj || !module || !name) return misuse(in, "amps_instance_class: obj, module or name is NULL");
    if (!plain_instance(value_of(obj))) return misuse(in, "amps_instance_class: expected a script-class instance, got " + type_name(value_of(obj)));
    const Class* cls = value_of(obj).as<Instance>()->cls.get();
    std::string home = home_of(in, cls->name, cls);
    if (home.empty()) local_object(in, *cls->name);
    *module = new_handle(make_str(home));
    *name = new_handle(make_str(*cls->name));
    return AMPS_OK;
  });
}

amps_status amps_global_name(amps_vm* vm, const amps_value* v, amps_value** module, amps_value** name) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !module || !name) return misuse(in, "amps_global_name: v, module or name is NULL");
    if (plain_instance(value_of(v))) {
      auto [home, attr] = instance_home(in, value_of(v).obj());
      if (home.empty()) local_object(in, "<" + type_name(value_of(v)) + " object>");
      *module = new_handle(make_str(home));
      *name = new_handle(make_str(attr));
      return AMPS_OK;
    }
    Atom n = global_name_of(value_of(v));
    if (!n) return misuse(in, "amps_global_name: expected a function, builtin, class or instance, got " + type_name(value_of(v)));
    std::string home = home_of(in, n, value_of(v).obj());
    if (home.empty()) local_object(in, *n);
    *module = new_handle(make_str(home));
    *name = new_handle(make_str(*n));
    return AMPS_OK;
  });
}

amps_status amps_method_parts(amps_vm* vm, const amps_value* v, amps_value** self, amps_value** fn) {
  return guarded(vm, [&](Interp& in) {
    if (!v || !self || !fn) return misuse(in, "amps_method_parts: v, self or fn is NULL");
    if (!value_of(v).is(ObjKind::BoundMethod)) return misuse(in, "amps_method_parts: expected a bound method, got " + type_name(value_of(v)));
    *self = new_handle(value_of(v).as<BoundMethod>()->self);
    *fn = new_handle(value_of(v).as<BoundMethod>()->fn);
    return AMPS_OK;
  });
}

amps_status amps_find_global(amps_vm* vm, const char* module, const char* name, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!module || !name || !out) return misuse(in, "amps_find_global: module, name or out is NULL");
    Value v = global_named(in, module, name);
    *out = v.is_undef() ? nullptr : new_handle(std::move(v));
    return AMPS_OK;
  });
}

amps_status amps_find_class(amps_vm* vm, const char* module, const char* name, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!module || !name || !out) return misuse(in, "amps_find_class: module, name or out is NULL");
    Value v = global_named(in, module, name);
    *out = v.is(ObjKind::Class) ? new_handle(std::move(v)) : nullptr;
    return AMPS_OK;
  });
}

amps_status amps_instance_attrs(amps_vm* vm, const amps_value* obj, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!obj || !out) return misuse(in, "amps_instance_attrs: obj or out is NULL");
    if (!plain_instance(value_of(obj))) return misuse(in, "amps_instance_attrs: expected a script-class instance, got " + type_name(value_of(obj)));
    auto d = make<Dict>();
    for (auto& [key, v] : value_of(obj).as<Instance>()->attrs) d->set(make_str(*key), v);
    *out = new_handle(std::move(d));
    return AMPS_OK;
  });
}

amps_status amps_instance_new(amps_vm* vm, const amps_value* cls, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    if (!cls || !out) return misuse(in, "amps_instance_new: cls or out is NULL");
    const Value& c = value_of(cls);
    if (!c.is(ObjKind::Class) || c.as<Class>()->exception)
      return misuse(in, "amps_instance_new: expected a script class (not an exception class), got " + type_name(c));
    *out = new_handle(make<Instance>(Ref<Class>(c.as<Class>())));
    return AMPS_OK;
  });
}

amps_status amps_instance_set(amps_vm* vm, const amps_value* obj, const char* name, const amps_value* v) {
  return guarded(vm, [&](Interp& in) {
    if (!obj || !name || !v) return misuse(in, "amps_instance_set: obj, name or v is NULL");
    if (!plain_instance(value_of(obj))) return misuse(in, "amps_instance_set: expected a script-class instance, got " + type_name(value_of(obj)));
    value_of(obj).as<Instance>()->attrs[intern(name)] = value_of(v);
    return AMPS_OK;
  });
}

amps_status amps_set_attr(amps_vm* vm, const amps_value* obj, const char* name, const amps_value* v) {
  return guarded(vm, [&](Interp& in) {
    if (!obj || !name || !v) return misuse(in, "amps_set_attr: obj, name or v is NULL");
    in.set_attr(value_of(obj), intern(name), value_of(v), call_site(in));
    return AMPS_OK;
  });
}

}  // extern "C"
