// CSV metrics logging (see csv_log.hpp).
#include "stdlib/progress/csv_log.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "interp/tensor_value.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::progress {

using namespace amps::interp;

namespace {

[[noreturn]] void io_error(const char* what, const std::string& path) {
  throw rt::Error(errno == EACCES ? "PermissionError" : "IOError", fmt::format("cannot {} '{}': {}", what, path, std::strerror(errno)));
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
    throw rt::Error("ValueError", fmt::format("'{}' already has the columns {}; cannot append rows with the columns {}", path_,
                                              join_fields(old), join_fields(fields_)));
  if (fields_.empty()) fields_ = old;
  if (fields_.empty()) throw rt::Error("ValueError", fmt::format("'{}': a CSV log needs at least one column", path_));
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
      throw rt::Error("ValueError", fmt::format("'{}' has no column '{}' (columns: {})", path_, k, join_fields(fields_)));
  if (!f_) throw rt::Error("ValueError", fmt::format("the CSV log '{}' is closed", path_));
  std::string line;
  for (size_t i = 0; i < fields_.size(); ++i) {
    auto it = row.find(fields_[i]);
    line += (i ? "," : "") + (it == row.end() ? std::string() : csv_escape(it->second));
  }
  if (std::fprintf(f_, "%s\n", line.c_str()) < 0 || std::fflush(f_) != 0) io_error("write", path_);
}

namespace {

// A cell: numbers as Python prints them, one-element tensors by value, none as an empty cell.
std::string cell(Interp& in, const Value& v) {
  if (v.is_none()) return "";
  if (const rt::Tensor* t = tensor_of(v)) {
    AMPS_CHECK_VALUE(t->numel() == 1, "CSV cells take numbers or one-element tensors, not a tensor of shape [{}]", fmt::join(t->sizes(), ", "));
    double d = t->to_doubles().at(0);
    return t->is_floating_point() ? format_float(d) : std::to_string(int64_t(d));
  }
  return in.str(v);
}

std::map<std::string, std::string> row_of(Interp& in, const Value& d, const std::vector<std::pair<Atom, Value>>& kw) {
  std::map<std::string, std::string> row;
  if (!d.is_undef() && !d.is_none()) {
    if (!d.is(ObjKind::Dict)) throw rt::Error("TypeError", "a CSV row must be a dict, not " + type_name(d));
    for (auto& [k, v] : d.as<Dict>()->entries) row[in.str(k)] = cell(in, v);
  }
  for (auto& [k, v] : kw) row[*k] = cell(in, v);
  return row;
}

std::vector<std::string> field_names(Interp& in, const Value& v) {
  std::vector<std::string> out;
  if (v.is_undef() || v.is_none()) return out;
  if (!v.is(ObjKind::List) && !v.is(ObjKind::Tuple)) throw rt::Error("TypeError", "CSVLogger(): fields must be a list of str, not " + type_name(v));
  in.iterate(v, Span{}, [&](Value f) { out.push_back(in.str(f)); return true; });
  return out;
}

struct CsvLoggerObj : Opaque {
  explicit CsvLoggerObj(std::unique_ptr<CsvFile> f, std::string p) : file(std::move(f)), path(std::move(p)) {}
  std::string type_name() const override { return "CSVLogger"; }
  Value get_attr(Interp&, Atom name) override {
    if (*name == "log")
      return bound(this, "log", [this](Interp& in, CallArgs& a) {
        file->append(row_of(in, a.pos.size() > 1 ? a.pos[1] : Value::undef(), a.kw));
        return Value();
      });
    if (*name == "close") return bound(this, "close", [this](Interp&, CallArgs&) { file->close(); return Value(); });
    if (*name == "path") return make_str(path);
    if (*name == "fields") {
      std::vector<Value> fs;
      for (auto& f : file->fields()) fs.push_back(make_str(f));
      return make_list(std::move(fs));
    }
    return Value::undef();
  }
  std::unique_ptr<CsvFile> file;
  std::string path;
};

}  // namespace

Value b_csv_logger(Interp& in, CallArgs& a) {
  ArgReader r(a, "CSVLogger", {"path", "fields"});
  std::string path = checked_path(in, r, 0, "CSVLogger");
  return make<CsvLoggerObj>(std::make_unique<CsvFile>(path, field_names(in, r.get(1))), path);
}

Value b_log_csv(Interp& in, CallArgs& a) {
  ArgReader r(a, "log_csv", {"path", "row"});
  std::string path = checked_path(in, r, 0, "log_csv");
  if (!r.required(1).is(ObjKind::Dict)) r.type_error(1, "a dict");
  std::vector<std::string> keys;
  for (auto& [k, v] : r.get(1).as<Dict>()->entries) keys.push_back(in.str(k));
  std::vector<std::string> header = existing_header(path);
  CsvFile f(path, header.empty() ? keys : header);
  f.append(row_of(in, r.get(1), {}));
  return Value();
}

}  // namespace amps::stdlib::progress
