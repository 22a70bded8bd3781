// ArgReader: Python-style argument binding for native functions (see builtins.hpp).
#include <fmt/format.h>

#include "interp/builtins.hpp"

namespace amps::interp {

ArgReader::ArgReader(CallArgs& args, std::string fn, std::vector<const char*> params)
    : fn_(std::move(fn)), params_(std::move(params)), vals_(params_.size(), Value::undef()), span_(args.span) {
  if (args.pos.size() > params_.size())
    Interp::fail("TypeError", fmt::format("{}() takes at most {} argument{} ({} given)", fn_, params_.size(),
                                          params_.size() == 1 ? "" : "s", args.pos.size()), span_);
  for (size_t i = 0; i < args.pos.size(); ++i) vals_[i] = args.pos[i];
  for (auto& [key, val] : args.kw) {
    size_t i = 0;
    while (i < params_.size() && *key != params_[i]) ++i;
    if (i == params_.size()) {
      std::string names;
      for (size_t j = 0; j < params_.size(); ++j) names += (j ? ", " : "") + std::string(params_[j]);
      Interp::fail("TypeError", fmt::format("{}() got an unexpected keyword argument '{}' (it takes: {})", fn_, *key, names), span_);
    }
    if (!vals_[i].is_undef()) Interp::fail("TypeError", fmt::format("{}() got multiple values for argument '{}'", fn_, *key), span_);
    vals_[i] = val;
  }
}

const Value& ArgReader::required(size_t i) const {
  if (vals_[i].is_undef()) Interp::fail("TypeError", fmt::format("{}() missing required argument '{}'", fn_, params_[i]), span_);
  return vals_[i];
}

void ArgReader::type_error(size_t i, const char* expected) const {
  Interp::fail("TypeError", fmt::format("{}(): argument '{}' must be {}, not {}", fn_, params_[i], expected, type_name(vals_[i])), span_);
}

int64_t ArgReader::int_or(size_t i, int64_t dflt) const {
  if (!has(i) || vals_[i].is_none()) return dflt;
  if (!vals_[i].is_int() && !vals_[i].is_bool()) type_error(i, "int");
  return vals_[i].as_int();
}

double ArgReader::float_or(size_t i, double dflt) const {
  if (!has(i) || vals_[i].is_none()) return dflt;
  if (!vals_[i].is_number()) type_error(i, "a number");
  return vals_[i].to_double();
}

bool ArgReader::bool_or(size_t i, bool dflt) const {
  if (!has(i) || vals_[i].is_none()) return dflt;
  if (!vals_[i].is_bool()) type_error(i, "bool");
  return vals_[i].as_bool();
}

std::string ArgReader::str_or(size_t i, std::string dflt) const {
  if (!has(i) || vals_[i].is_none()) return dflt;
  if (!vals_[i].is(ObjKind::Str)) type_error(i, "str");
  return vals_[i].as<Str>()->value;
}

}  // namespace amps::interp
