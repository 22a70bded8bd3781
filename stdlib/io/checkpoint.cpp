// The global save(obj, path) / load(path): script values (tensors, state dicts, nested checkpoints, whole models and
// other script-class instances) to and from safetensors files. Tensor leaves get dotted keys ("model.fc.weight"); the
// structure and every non-tensor value are kept as JSON in __metadata__["amps.structure"]. Instances are stored as
// pickle stores them: the class by module and name, the own attributes; load finds the class by that name and
// rebuilds the instance without calling init. A tensor or instance reachable twice is stored once and comes back
// shared (tied weights stay tied; an optimizer saved with its model keeps pointing at the model's parameters).
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>

#include "stdlib/io/safetensors.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {
namespace {

using json = nlohmann::json;
constexpr const char* kStructureKey = "amps.structure";

// Flattens a script value into tensors (with unique dotted keys) and a JSON description in which
// every node is tagged, so lists, tuples, dicts with any keys, floats and tensors come back as-is.
class Flattener {
 public:
  explicit Flattener(Vm& vm) : vm_(vm) {}
  io::SafetensorsFile file;

  json node(const Value& v, const std::string& key) {
    Nesting nest(depth_, key);
    switch (v.type()) {
      case AMPS_TYPE_NONE: return nullptr;
      case AMPS_TYPE_BOOL: return *vm_.to_int(v) != 0;
      case AMPS_TYPE_INT: return *vm_.to_int(v);
      case AMPS_TYPE_FLOAT: return float_node(*vm_.to_float(v));
      case AMPS_TYPE_STR: return *vm_.to_str(v);
      case AMPS_TYPE_TENSOR: return tensor(v, key);
      case AMPS_TYPE_LIST: return json{{"__list__", seq(v, key)}};
      case AMPS_TYPE_TUPLE: return json{{"__tuple__", seq(v, key)}};
      case AMPS_TYPE_DICT: return dict(v, key);
      case AMPS_TYPE_DTYPE: return json{{"__dtype__", vm_.str(v)}};
      case AMPS_TYPE_DEVICE: return json{{"__device__", vm_.str(v)}};
      case AMPS_TYPE_CALLABLE: return global(v, key);
      default: break;
    }
    if (vm_.is_instance(v)) return instance(v, key);
    fail("TypeError", fmt::format("save(): cannot store a value of type '{}' {}; checkpoints hold tensors, numbers, "
                                  "strings, none, dtypes, devices, lists, tuples, dicts, instances of script classes and "
                                  "top-level functions and classes (for a built-in object, save its state_dict())",
                                  v.type_name(), where(key)));
  }

 private:
  // The containers being written nest at most kMaxDepth deep (as pickle's recursion limit): a list or dict that
  // contains itself is refused instead of growing without end.
  static constexpr int kMaxDepth = 1000;
  struct Nesting {
    Nesting(int& d, const std::string& key) : depth(d) {
      if (++depth > kMaxDepth)
        fail("ValueError", fmt::format("save(): the value nests more than {} levels deep (at '{}'); a list or dict "
                                       "that contains itself cannot be saved", kMaxDepth, key.substr(0, 200)));
    }
    ~Nesting() { --depth; }
    int& depth;
  };

  static json float_node(double d) {
    if (std::isfinite(d)) return d;   // JSON has no nan/inf
    return json{{"__float__", std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf"}};
  }
  static std::string join(const std::string& key, const std::string& part) { return key.empty() ? part : key + "." + part; }

  json seq(const Value& v, const std::string& key) {
    json out = json::array();
    for (int64_t i = 0, n = vm_.len(v); i < n; ++i) out.push_back(node(vm_.item(v, i), join(key, std::to_string(i))));
    return out;
  }
  json dict(const Value& d, const std::string& key) {
    json pairs = json::array();
    for (size_t i = 0, n = size_t(vm_.len(d)); i < n; ++i) {
      auto [k, v] = vm_.dict_entry(d, i);
      std::string part = k.is(AMPS_TYPE_STR) ? *vm_.to_str(k) : repr_of(vm_, k);
      pairs.push_back(json::array({node(k, join(key, "key")), node(v, join(key, part))}));
    }
    return json{{"__dict__", pairs}};
  }
  // Functions, builtins and classes are stored by reference as pickle stores them (module and name: an LSTM's cell
  // op, a layer's activation function); code itself is not stored, so a lambda or a function made inside a function
  // is refused, as pickle refuses them. A bound method is its receiver and the method's name (pickle's
  // getattr(obj, name)); a receiver a module holds (nn.functional's object, for F.relu) is stored by reference.
  json global(const Value& v, const std::string& key) {
    if (std::string(v.type_name()) == "method") return method(v, key);
    try {
      auto [module, name] = vm_.global_name(v);
      return json{{"__global__", json::array({module, name})}};
    } catch (const Failed&) {
      code(v, key, "it is not defined at the top level of the script or of a module under its name");
    }
  }
  json method(const Value& m, const std::string& key) {
    auto [self, fn] = vm_.method_parts(m);
    Value name = vm_.find_attr(fn, "__name__");
    if (!name || !name.is(AMPS_TYPE_STR)) code(m, key, "its function has no name");
    json receiver;
    try {
      auto [module, attr] = vm_.global_name(self);
      receiver = json{{"__global__", json::array({module, attr})}};
    } catch (const Failed&) {
      receiver = node(self, join(key, "__self__"));
    }
    return json{{"__method__", json::array({receiver, *vm_.to_str(name)})}};
  }
  [[noreturn]] void code(const Value& v, const std::string& key, const char* why) {
    fail("TypeError", fmt::format("save(): cannot store {} {}: {} (functions are saved by name, as pickle does; a "
                                  "checkpoint holds data, not code): define it at the top level or save the objects' "
                                  "state instead", vm_.str(v), where(key), why));
  }
  static std::string where(const std::string& key) { return key.empty() ? "(at the top level)" : "(at '" + key + "')"; }
  // A tensor is stored once; a second path to it refers to the first key. A tensor that requires grad (a parameter)
  // keeps that and its parameter mark.
  json tensor(const Value& t, const std::string& key) {
    uint64_t id = vm_.identity(t);
    auto seen = tensor_keys_.find(id);
    std::string stored = seen != tensor_keys_.end() ? seen->second : tensor_keys_[id] = add_tensor(t, key);
    Value param = vm_.find_attr(t, "_is_param");
    bool requires_grad = *vm_.to_int(vm_.attr(t, "requires_grad").get()) != 0;
    bool is_param = param && !param.is_none() && *vm_.to_int(param) != 0;
    if (!requires_grad && !is_param) return json{{"__tensor__", stored}};
    return json{{"__grad_tensor__", {{"key", stored}, {"requires_grad", requires_grad}, {"param", is_param}}}};
  }
  // An instance: its class by (module, name) and its own attributes, or a reference to where it was stored first.
  json instance(const Value& obj, const std::string& key) {
    uint64_t id = vm_.identity(obj);
    if (auto seen = object_ids_.find(id); seen != object_ids_.end()) return json{{"__ref__", seen->second}};
    int64_t n = int64_t(object_ids_.size());
    object_ids_[id] = n;
    auto [module, name] = vm_.instance_class(obj);
    Value attrs = vm_.instance_attrs(obj);
    json fields = json::array();
    for (size_t i = 0, count = size_t(vm_.len(attrs)); i < count; ++i) {
      auto [k, v] = vm_.dict_entry(attrs, i);
      std::string attr = *vm_.to_str(k);
      fields.push_back(json::array({attr, node(v, join(key, attr))}));
    }
    return json{{"__object__", {{"id", n}, {"module", module}, {"class", name}, {"attrs", fields}}}};
  }
  // Keys are unique even when a structure makes the same dotted path twice ({"a.b": x, "a": {"b": y}}).
  std::string add_tensor(const Value& t, std::string key) {
    if (key.empty()) key = "tensor";
    std::string unique = key;
    for (int n = 1; used_.count(unique); ++n) unique = key + "#" + std::to_string(n);
    used_.insert(unique);
    file.tensors.emplace_back(unique, t);
    return unique;
  }

  Vm& vm_;
  std::set<std::string> used_;
  std::map<uint64_t, std::string> tensor_keys_;   // tensor identity -> its key in the file
  std::map<uint64_t, int64_t> object_ids_;        // instance identity -> its id in the structure
  int depth_ = 0;
};

// Rebuilds script values from the JSON description and the loaded tensors.
class Rebuilder {
 public:
  Rebuilder(Vm& vm, const std::map<std::string, Value>& t, const std::string& path) : vm_(vm), tensors_(t), path_(path) {}

  Value value(const json& j) {
    if (j.is_null()) return Value::none();
    if (j.is_boolean()) return Value::of(j.get<bool>());
    if (j.is_number_integer()) return Value::of(j.get<int64_t>());
    if (j.is_number_float()) return Value::of(j.get<double>());
    if (j.is_string()) return Value::of(std::string_view(j.get_ref<const std::string&>()));
    if (j.is_object() && j.size() == 1) return tagged(j.begin().key(), j.begin().value());
    bad("an unknown node");
  }

 private:
  [[noreturn]] void bad(const std::string& what) const {
    fail("ValueError", fmt::format("'{}' has a corrupt amps.structure: {}", path_, what));
  }
  std::vector<Value> items(const json& j) {
    if (!j.is_array()) bad("a sequence that is not a list");
    std::vector<Value> out;
    for (auto& e : j) out.push_back(value(e));
    return out;
  }
  Value tagged(const std::string& tag, const json& j) {
    if (tag == "__tensor__") return tensor(j);
    if (tag == "__list__") return Value::list(items(j));
    if (tag == "__tuple__") return Value::tuple(items(j));
    if (tag == "__dict__") return dict(j);
    if (tag == "__float__" && j.is_string()) return special_float(j.get<std::string>());
    if (tag == "__dtype__" && j.is_string()) return dtype(j.get<std::string>());
    if (tag == "__device__" && j.is_string()) return vm_.device(j.get<std::string>().c_str());
    if (tag == "__grad_tensor__" && j.is_object()) return grad_tensor(j);
    if (tag == "__object__" && j.is_object()) return instance(j);
    if (tag == "__ref__" && j.is_number_integer()) return reference(j.get<int64_t>());
    if (tag == "__method__" && j.is_array() && j.size() == 2 && j[1].is_string())
      return vm_.attr(value(j[0]), j[1].get_ref<const std::string&>().c_str()).get();
    if (tag == "__global__" && j.is_array() && j.size() == 2 && j[0].is_string() && j[1].is_string())
      return global(j[0].get<std::string>(), j[1].get<std::string>());
    bad("an unknown tag '" + tag + "'");
  }
  // A tensor that required grad: the same tensor object for every reference to its key (requires_grad set once).
  Value grad_tensor(const json& j) {
    if (!j.contains("key") || !j.value("requires_grad", json()).is_boolean() || !j.value("param", json()).is_boolean())
      bad("a tensor node without key, requires_grad or param");
    Value t = tensor(j["key"]);
    if (j["requires_grad"].get<bool>()) vm_.call_method(t, "requires_grad_", {Value::of(true)}).get();
    if (j["param"].get<bool>()) vm_.set_attr(t, "_is_param", Value::of(true));
    return t;
  }
  // An instance of the class the loading script holds under the saved module and name, made without init; it is
  // registered before its attributes are rebuilt, so attributes that refer back to it (cycles) find it.
  Value instance(const json& j) {
    const json &id = j.value("id", json()), &module = j.value("module", json()), &name = j.value("class", json());
    if (!id.is_number_integer() || !module.is_string() || !name.is_string() || !j.value("attrs", json()).is_array())
      bad("an object node without id, module, class or attrs");
    Value cls = vm_.find_class(module.get<std::string>(), name.get<std::string>());
    if (!cls) missing(module.get<std::string>(), name.get<std::string>(), "an instance of class");
    Value obj = vm_.instance_new(cls);
    objects_[id.get<int64_t>()] = obj;
    for (auto& field : j["attrs"]) {
      if (!field.is_array() || field.size() != 2 || !field[0].is_string()) bad("an object attribute that is not a (name, value) pair");
      vm_.instance_set(obj, field[0].get_ref<const std::string&>().c_str(), value(field[1]));
    }
    return obj;
  }
  // A function, builtin or class stored by reference.
  Value global(const std::string& module, const std::string& name) {
    Value v = vm_.find_global(module, name);
    if (!v) missing(module, name, "a reference to");
    return v;
  }
  // Python's pickle error for a name the loading program does not define, and what to do about it.
  [[noreturn]] void missing(const std::string& module, const std::string& name, const char* what) const {
    std::string where = module == "__main__" ? "the loading script" : fmt::format("module '{}'", module);
    fail("AttributeError", fmt::format("Can't get attribute '{}' on <module '{}'>: '{}' holds {} {}; define (or import) "
                                       "{} in {} before load()", name, module, path_, what, name, name, where));
  }
  Value reference(int64_t id) {
    auto it = objects_.find(id);
    if (it == objects_.end()) bad("a reference to an object stored nowhere before it");
    return it->second;
  }
  Value tensor(const json& j) {
    auto it = j.is_string() ? tensors_.find(j.get<std::string>()) : tensors_.end();
    if (it == tensors_.end()) bad("a reference to a tensor the file does not hold");
    return it->second;
  }
  Value dict(const json& j) {
    Value d = Value::dict();
    for (auto& pair : j) {
      if (!pair.is_array() || pair.size() != 2) bad("a dict entry that is not a pair");
      Value k = value(pair[0]);
      vm_.dict_set(d, k, value(pair[1]));
    }
    return d;
  }
  Value special_float(const std::string& s) {
    if (s == "nan") return Value::of(std::nan(""));
    if (s == "inf" || s == "-inf") return Value::of(s == "inf" ? HUGE_VAL : -HUGE_VAL);
    bad("an unknown float '" + s + "'");
  }
  Value dtype(const std::string& name) {
    for (int d = AMPS_FLOAT64; d <= AMPS_INT16; ++d)
      if (name == amps_dtype_name(amps_dtype(d))) return Value::dtype(amps_dtype(d));
    bad("an unknown dtype '" + name + "'");
  }

  Vm& vm_;
  const std::map<std::string, Value>& tensors_;
  std::map<int64_t, Value> objects_;   // the instances rebuilt so far, by their id in the structure
  std::string path_;
};

// A file written elsewhere (no amps structure): a dict name -> tensor in file order.
Value plain_state_dict(Vm& vm, const io::SafetensorsFile& f) {
  Value d = Value::dict();
  for (auto& [name, t] : f.tensors) vm.dict_set(d, Value::of(std::string_view(name)), t);
  return d;
}

Value b_save(Vm& vm, Call& call) {
  Args r(vm, call, "save", {"obj", "path", "metadata"});
  std::string path = checked_path(vm, r, 1, "save");
  Flattener fl(vm);
  json structure = fl.node(r.required(0), "");
  if (r.has(2) && !r.get(2).is_none()) fl.file.metadata = string_map(vm, r.get(2), "save(): metadata");
  fl.file.metadata[kStructureKey] = structure.dump();
  fl.file.metadata["format"] = "pt";   // what torch-based loaders (transformers) expect
  io::write_safetensors(vm, path, fl.file);
  return Value::none();
}

Value loaded_value(Vm& vm, const std::string& path) {
  io::SafetensorsFile f = io::read_safetensors(vm, path);
  auto s = f.metadata.find(kStructureKey);
  if (s == f.metadata.end()) return plain_state_dict(vm, f);
  std::map<std::string, Value> by_name(f.tensors.begin(), f.tensors.end());
  json structure = json::parse(s->second, nullptr, false);
  if (structure.is_discarded()) fail("ValueError", fmt::format("'{}' has a corrupt amps.structure: not JSON", path));
  return Rebuilder(vm, by_name, path).value(structure);
}

// load(path); the vm is told what it loaded, so a GradScaler that ignores saved scaler state warns.
Value b_load(Vm& vm, Call& call) {
  Args r(vm, call, "load", {"path"});
  std::string path = checked_path(vm, r, 0, "load");
  Value loaded = loaded_value(vm, path);
  vm.checkpoint_loaded(path, loaded);
  return loaded;
}

Value b_load_metadata(Vm& vm, Call& call) {
  Args r(vm, call, "load_metadata", {"path"});
  Value d = Value::dict();
  for (auto& [k, v] : io::read_safetensors(vm, checked_path(vm, r, 0, "load_metadata")).metadata)
    vm.dict_set(d, Value::of(std::string_view(k)), Value::of(std::string_view(v)));
  return d;
}

const amps_reg kIoNatives[] = {
    {"save", native<b_save>, AMPS_CAST_NONE, nullptr},
    {"load", native<b_load>, AMPS_CAST_NONE, nullptr},
    {"load_metadata", native<b_load_metadata>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace

void install_io(Vm& vm) { register_globals(vm, kIoNatives); }

}  // namespace amps::stdlib
