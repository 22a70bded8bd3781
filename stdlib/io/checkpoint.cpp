// The global save(obj, path) / load(path): script values (tensors, state dicts, nested checkpoints)
// to and from safetensors files. Tensor leaves get dotted keys ("model.fc.weight"); the structure
// and every non-tensor value are kept as JSON in __metadata__["amps.structure"].
#include <nlohmann/json.hpp>

#include <cmath>
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
      case AMPS_TYPE_TENSOR: return json{{"__tensor__", add_tensor(v, key)}};
      case AMPS_TYPE_LIST: return json{{"__list__", seq(v, key)}};
      case AMPS_TYPE_TUPLE: return json{{"__tuple__", seq(v, key)}};
      case AMPS_TYPE_DICT: return dict(v, key);
      case AMPS_TYPE_DTYPE: return json{{"__dtype__", vm_.str(v)}};
      case AMPS_TYPE_DEVICE: return json{{"__device__", vm_.str(v)}};
      default: break;
    }
    fail("TypeError", fmt::format("save(): cannot store a value of type '{}' (at '{}'); checkpoints hold "
                                  "tensors, numbers, strings, none, lists, tuples and dicts", v.type_name(), key));
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
    bad("an unknown tag '" + tag + "'");
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
