// CSV metrics logging (see csv_log.hpp).
#include "stdlib/progress/csv_log.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib::progress {

namespace {

[[noreturn]] void io_error(const char* what, const std::string& path) {
  fail(errno == EACCES ? "PermissionError" : "OSError", fmt::format("cannot {} '{}': {}", what, path, std::strerror(errno)));
}

// The header of an existing non-empty file, or nothing.
std::vector<std::string> existing_header(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line.empty() ? std::vector<std::string>{} : csv_split(line);
}

std::string join_fields(const std::vector<std::string>& f) {
  std::string s;
  for (size_t i = 0; i < f.size(); ++i) s += (i ? "," : "") + csv_escape(f[i]);
  return s;
}

}  // namespace

std::string csv_escape(const std::string& s) {
  bool quote = s.find_first_of(",\"\n\r") != std::string::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

CsvFile::CsvFile(std::string path, std::vector<std::string> fields) : path_(std::move(path)), fields_(std::move(fields)) {
  std::vector<std::string> old = existing_header(path_);
  if (!old.empty() && !fields_.empty() && old != fields_)
    fail("ValueError", fmt::format("'{}' already has the columns {}; cannot append rows with the columns {}", path_,
                                   join_fields(old), join_fields(fields_)));
  if (fields_.empty()) fields_ = old;
  if (fields_.empty()) fail("ValueError", fmt::format("'{}': a CSV log needs at least one column", path_));
  f_ = std::fopen(path_.c_str(), "a");
  if (!f_) io_error("open", path_);
  if (old.empty() && std::fprintf(f_, "%s\n", join_fields(fields_).c_str()) < 0) io_error("write", path_);
  std::fflush(f_);
}

CsvFile::~CsvFile() { close(); }

void CsvFile::close() {
  if (f_) std::fclose(std::exchange(f_, nullptr));
}

void CsvFile::append(const std::map<std::string, std::string>& row) {
  for (auto& [k, v] : row)
    if (std::find(fields_.begin(), fields_.end(), k) == fields_.end())
      fail("ValueError", fmt::format("'{}' has no column '{}' (columns: {})", path_, k, join_fields(fields_)));
  if (!f_) fail("ValueError", fmt::format("the CSV log '{}' is closed", path_));
  std::string line;
  for (size_t i = 0; i < fields_.size(); ++i) {
    auto it = row.find(fields_[i]);
    line += (i ? "," : "") + (it == row.end() ? std::string() : csv_escape(it->second));
  }
  if (std::fprintf(f_, "%s\n", line.c_str()) < 0 || std::fflush(f_) != 0) io_error("write", path_);
}

namespace {

// A cell: numbers as Python prints them, one-element tensors by value, none as an empty cell.
std::string cell(Vm& vm, const Value& v) {
  if (v.is_none()) return "";
  if (v.is(AMPS_TYPE_TENSOR)) {
    amps_tensor_info t = vm.tensor_info(v);
    check_value(t.numel == 1, "CSV cells take numbers or one-element tensors, not a tensor of shape [{}]", fmt::join(shape_of(t), ", "));
    double d = *vm.to_float(v);
    return is_floating(t.dtype) ? vm.str(Value::of(d)) : std::to_string(int64_t(d));
  }
  return vm.str(v);
}

// The cells of a dict row (may be empty or none) and of the keyword arguments of [call] (may be null).
std::map<std::string, std::string> row_of(Vm& vm, const Value& d, Call* call) {
  std::map<std::string, std::string> row;
  if (d && !d.is_none()) {
    if (!d.is(AMPS_TYPE_DICT)) fail("TypeError", std::string("a CSV row must be a dict, not ") + d.type_name());
    for (size_t i = 0, n = size_t(vm.len(d)); i < n; ++i) {
      auto [k, v] = vm.dict_entry(d, i);
      row[vm.str(k)] = cell(vm, v);
    }
  }
  for (size_t i = 0; call && i < call->kw_size(); ++i) {
    auto [k, v] = call->kw(i);
    row[k] = cell(vm, v);
  }
  return row;
}

std::vector<std::string> field_names(Vm& vm, const Value& v) {
  std::vector<std::string> out;
  if (!v || v.is_none()) return out;
  if (!v.is(AMPS_TYPE_LIST) && !v.is(AMPS_TYPE_TUPLE)) fail("TypeError", std::string("CSVLogger(): fields must be a list of str, not ") + v.type_name());
  for (int64_t i = 0, n = vm.len(v); i < n; ++i) out.push_back(vm.str(vm.item(v, i)));
  return out;
}

struct CsvLogger : Object {
  CsvLogger(std::unique_ptr<CsvFile> f, std::string p) : file(std::move(f)), path(std::move(p)) {}
  // log(row=none, **cells)
  Value log(Vm& vm, Call& call) {
    file->append(row_of(vm, call.size() > 1 ? call.arg(1) : Value(), &call));
    return Value::none();
  }
  Value close(Vm&, Call&) {
    file->close();
    return Value::none();
  }
  Value attr(Vm&, const char* name) override {
    std::string_view n(name);
    if (n == "path") return Value::of(std::string_view(path));
    if (n == "fields") {
      std::vector<Value> fs;
      for (auto& f : file->fields()) fs.push_back(Value::of(std::string_view(f)));
      return Value::list(fs);
    }
    return Value();
  }
  std::unique_ptr<CsvFile> file;
  std::string path;
};

const amps_reg kCsvLoggerMethods[] = {
    {"log", method<&CsvLogger::log>, AMPS_CAST_NONE, nullptr},
    {"close", method<&CsvLogger::close>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};
const amps_class kCsvLoggerClass = object_class("CSVLogger", kCsvLoggerMethods);

}  // namespace

Value b_csv_logger(Vm& vm, Call& call) {
  Args r(vm, call, "CSVLogger", {"path", "fields"});
  std::string path = checked_path(vm, r, 0, "CSVLogger");
  return vm.new_object(kCsvLoggerClass, std::make_unique<CsvLogger>(std::make_unique<CsvFile>(path, field_names(vm, r.get(1))), path));
}

Value b_log_csv(Vm& vm, Call& call) {
  Args r(vm, call, "log_csv", {"path", "row"});
  std::string path = checked_path(vm, r, 0, "log_csv");
  if (!r.required(1).is(AMPS_TYPE_DICT)) r.type_error(1, "a dict");
  std::vector<std::string> keys;
  for (size_t i = 0, n = size_t(vm.len(r.get(1))); i < n; ++i) keys.push_back(vm.str(vm.dict_entry(r.get(1), i).first));
  std::vector<std::string> header = existing_header(path);
  CsvFile f(path, header.empty() ? keys : header);
  f.append(row_of(vm, r.get(1), nullptr));
  return Value::none();
}

}  // namespace amps::stdlib::progress
