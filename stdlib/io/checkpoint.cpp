// The global save(obj, path) / load(path): script values (tensors, state dicts, nested checkpoints)
// to and from safetensors files. Tensor leaves get dotted keys ("model.fc.weight"); the structure
// and every non-tensor value are kept as JSON in __metadata__["amps.structure"].
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "stdlib/io/safetensors.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib {
namespace {

using json = nlohmann::json;
using namespace amps::interp;
constexpr const char* kStructureKey = "amps.structure";

// Flattens a script value into tensors (with unique dotted keys) and a JSON description in which
// every node is tagged, so lists, tuples, dicts with any keys, floats and tensors come back as-is.
class Flattener {
 public:
  explicit Flattener(Interp& in) : in_(in) {}
  io::SafetensorsFile file;

  json node(const Value& v, const std::string& key) {
    if (v.is_none()) return nullptr;
    if (v.is_bool()) return v.as_bool();
    if (v.is_int()) return v.as_int();
    if (v.is_float()) return float_node(v.as_float());
    if (v.is(ObjKind::Str)) return v.as<Str>()->value;
    if (const rt::Tensor* t = tensor_of(v)) return json{{"__tensor__", add_tensor(*t, key)}};
    if (v.is(ObjKind::List)) return json{{"__list__", seq(v.as<List>()->items, key)}};
    if (v.is(ObjKind::Tuple)) return json{{"__tuple__", seq(v.as<Tuple>()->items, key)}};
    if (v.is(ObjKind::Dict)) return dict(*v.as<Dict>(), key);
    if (v.is(ObjKind::DType)) return json{{"__dtype__", in_.str(v)}};
    if (v.is(ObjKind::Device)) return json{{"__device__", in_.str(v)}};
    throw rt::Error("TypeError", fmt::format("save(): cannot store a value of type '{}' (at '{}'); checkpoints hold "
                                             "tensors, numbers, strings, none, lists, tuples and dicts", type_name(v), key));
  }

 private:
  static json float_node(double d) {
    if (std::isfinite(d)) return d;   // JSON has no nan/inf
    return json{{"__float__", std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf"}};
  }
  static std::string join(const std::string& key, const std::string& part) { return key.empty() ? part : key + "." + part; }

  json seq(const std::vector<Value>& items, const std::string& key) {
    json out = json::array();
    for (size_t i = 0; i < items.size(); ++i) out.push_back(node(items[i], join(key, std::to_string(i))));
    return out;
  }
  json dict(const Dict& d, const std::string& key) {
    json pairs = json::array();
    for (auto& [k, v] : d.entries) {
      std::string part = k.is(ObjKind::Str) ? k.as<Str>()->value : in_.repr(k);
      pairs.push_back(json::array({node(k, join(key, "key")), node(v, join(key, part))}));
    }
    return json{{"__dict__", pairs}};
  }
  // Keys are unique even when a structure makes the same dotted path twice ({"a.b": x, "a": {"b": y}}).
  std::string add_tensor(const rt::Tensor& t, std::string key) {
    if (key.empty()) key = "tensor";
    std::string unique = key;
    for (int n = 1; used_.count(unique); ++n) unique = key + "#" + std::to_string(n);
    used_.insert(unique);
    file.tensors.emplace_back(unique, t);
    return unique;
  }

  Interp& in_;
  std::set<std::string> used_;
};

// Rebuilds script values from the JSON description and the loaded tensors.
class Rebuilder {
 public:
  Rebuilder(const std::map<std::string, rt::Tensor>& t, const std::string& path) : tensors_(t), path_(path) {}

  Value value(const json& j) {
    if (j.is_null()) return Value();
    if (j.is_boolean()) return Value(j.get<bool>());
    if (j.is_number_integer()) return Value(j.get<int64_t>());
    if (j.is_number_float()) return Value(j.get<double>());
    if (j.is_string()) return make_str(j.get<std::string>());
    if (j.is_object() && j.size() == 1) return tagged(j.begin().key(), j.begin().value());
    bad("an unknown node");
  }

 private:
  [[noreturn]] void bad(const std::string& what) const {
    throw rt::Error("ValueError", fmt::format("'{}' has a corrupt amps.structure: {}", path_, what));
  }
  std::vector<Value> items(const json& j) {
    if (!j.is_array()) bad("a sequence that is not a list");
    std::vector<Value> out;
    for (auto& e : j) out.push_back(value(e));
    return out;
  }
  Value tagged(const std::string& tag, const json& j) {
    if (tag == "__tensor__") return tensor(j);
    if (tag == "__list__") return make_list(items(j));
    if (tag == "__tuple__") return make_tuple(items(j));
    if (tag == "__dict__") return dict(j);
    if (tag == "__float__" && j.is_string()) return special_float(j.get<std::string>());
    if (tag == "__dtype__" && j.is_string()) return dtype(j.get<std::string>());
    if (tag == "__device__" && j.is_string()) return wrap_device(rt::device_from_string(j.get<std::string>()));
    bad("an unknown tag '" + tag + "'");
  }
  Value tensor(const json& j) {
    auto it = j.is_string() ? tensors_.find(j.get<std::string>()) : tensors_.end();
    if (it == tensors_.end()) bad("a reference to a tensor the file does not hold");
    return wrap(it->second);
  }
  Value dict(const json& j) {
    auto d = make<Dict>();
    for (auto& pair : j) {
      if (!pair.is_array() || pair.size() != 2) bad("a dict entry that is not a pair");
      Value k = value(pair[0]);
      check_hashable(k);
      d->set(k, value(pair[1]));
    }
    return d;
  }
  Value special_float(const std::string& s) {
    if (s == "nan") return Value(std::nan(""));
    if (s == "inf" || s == "-inf") return Value(s == "inf" ? HUGE_VAL : -HUGE_VAL);
    bad("an unknown float '" + s + "'");
  }
  Value dtype(const std::string& name) {
    auto dt = rt::dtype_from_name(name);
    if (!dt) bad("an unknown dtype '" + name + "'");
    return wrap_dtype(*dt);
  }

  const std::map<std::string, rt::Tensor>& tensors_;
  std::string path_;
};

// A file written elsewhere (no amps structure): a dict name -> tensor in file order.
Value plain_state_dict(const io::SafetensorsFile& f) {
  auto d = make<Dict>();
  for (auto& [name, t] : f.tensors) d->set(make_str(name), wrap(t));
  return d;
}

Value b_save(Interp& in, CallArgs& a) {
  ArgReader r(a, "save", {"obj", "path", "metadata"});
  std::string path = checked_path(in, r, 1, "save");
  Flattener fl(in);
  json structure = fl.node(r.required(0), "");
  if (r.has(2) && !r.get(2).is_none()) fl.file.metadata = string_map(in, r.get(2), "save(): metadata");
  fl.file.metadata[kStructureKey] = structure.dump();
  fl.file.metadata["format"] = "pt";   // what torch-based loaders (transformers) expect
  io::write_safetensors(path, fl.file);
  return Value();
}

Value b_load(Interp& in, CallArgs& a) {
  ArgReader r(a, "load", {"path"});
  std::string path = checked_path(in, r, 0, "load");
  io::SafetensorsFile f = io::read_safetensors(path);
  auto s = f.metadata.find(kStructureKey);
  if (s == f.metadata.end()) return plain_state_dict(f);
  std::map<std::string, rt::Tensor> by_name(f.tensors.begin(), f.tensors.end());
  json structure = json::parse(s->second, nullptr, false);
  if (structure.is_discarded()) throw rt::Error("ValueError", fmt::format("'{}' has a corrupt amps.structure: not JSON", path));
  return Rebuilder(by_name, path).value(structure);
}

Value b_load_metadata(Interp& in, CallArgs& a) {
  ArgReader r(a, "load_metadata", {"path"});
  auto d = make<Dict>();
  for (auto& [k, v] : io::read_safetensors(checked_path(in, r, 0, "load_metadata")).metadata) d->set(make_str(k), make_str(v));
  return d;
}

}  // namespace

void install_io(Interp& in) {
  in.def_native("save", b_save);
  in.def_native("load", b_load);
  in.def_native("load_metadata", b_load_metadata);
}

}  // namespace amps::stdlib
