// Metrics logging to CSV files: data.CSVLogger(path, fields) and the global log_csv(path, row).
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "amps/amps.hpp"

namespace amps::stdlib::progress {

// One CSV file that rows are appended to. The header is written once, when the file is new or
// empty; an existing file keeps its header, and `fields` (when given) must match it.
class CsvFile {
 public:
  // Throws amps::ScriptError (OSError, ValueError) naming the file.
  CsvFile(std::string path, std::vector<std::string> fields);
  ~CsvFile();
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  const std::vector<std::string>& fields() const { return fields_; }
  // Appends one row (cells by field name; missing ones stay empty) and flushes it to the file.
  // ValueError for a name that is not a column.
  void append(const std::map<std::string, std::string>& row);
  void close();

 private:
  std::string path_;
  std::vector<std::string> fields_;
  std::FILE* f_ = nullptr;
};

// A CSV field, quoted when it holds a comma, quote, newline or edge spaces (RFC 4180).
std::string csv_escape(const std::string& s);
// Splits one CSV line (RFC 4180 quoting).
std::vector<std::string> csv_split(const std::string& line);

// data.CSVLogger(path, fields=none): a logger with .log(dict) / .log(k=v, ...), .close(), .path, .fields.
Value b_csv_logger(Vm& vm, Call& call);
// log_csv(path, row): appends a dict as one row (header from the file, or from the dict's keys).
Value b_log_csv(Vm& vm, Call& call);

}  // namespace amps::stdlib::progress
