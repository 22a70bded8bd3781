// numpy.loadtxt's rules, see loadtxt.hpp. Cells parse as NumPy's do: surrounding spaces ignored,
// decimal floats with nan/inf(inity) in any case, no hex and no underscores.
#include "stdlib/data/loadtxt.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {
namespace {

std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n\v\f"), b = s.find_last_not_of(" \t\r\n\v\f");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The line without its comment (the earliest marker of any of [comments]).
std::string strip_comment(const std::string& line, const std::vector<std::string>& comments) {
  size_t cut = line.size();
  for (auto& c : comments)
    if (!c.empty()) cut = std::min(cut, line.find(c));
  return line.substr(0, cut);
}

std::vector<std::string> split_cells(const std::string& line, std::optional<char> delim) {
  std::vector<std::string> out;
  if (delim) {
    size_t at = 0;
    for (size_t end; (end = line.find(*delim, at)) != std::string::npos; at = end + 1) out.push_back(trimmed(line.substr(at, end - at)));
    out.push_back(trimmed(line.substr(at)));
    return out;
  }
  for (size_t at = line.find_first_not_of(" \t\r\v\f"); at != std::string::npos; at = line.find_first_not_of(" \t\r\v\f", at)) {
    size_t end = std::min(line.find_first_of(" \t\r\v\f", at), line.size());
    out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

bool parse_double(const std::string& s, double& out) {
  if (s.empty() || s.find_first_of("xX_") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

bool parse_int(const std::string& s, int64_t& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() + s.size() && errno == 0) return out = v, true;
  double d = 0;   // NumPy 1.24 still parses "1.0" for an integer dtype (deprecated there): the fraction is dropped
  if (!parse_double(s, d) || !std::isfinite(d) || std::fabs(d) >= 9.2e18) return false;
  out = int64_t(d);
  return true;
}

// The columns a row contributes (usecols resolved against its width).
std::vector<size_t> columns(const LoadtxtOptions& o, size_t width, const std::string& where) {
  std::vector<size_t> cols;
  if (!o.usecols) {
    for (size_t i = 0; i < width; ++i) cols.push_back(i);
    return cols;
  }
  for (int64_t c : *o.usecols) {
    int64_t i = c < 0 ? c + int64_t(width) : c;
    if (i < 0 || i >= int64_t(width)) fail("ValueError", fmt::format("{}: invalid column index {} with {} columns", where, c, width));
    cols.push_back(size_t(i));
  }
  return cols;
}

// Appends the row's selected cells to [t]; returns how many.
size_t add_row(const std::vector<std::string>& cells, const LoadtxtOptions& o, const std::string& where, LoadtxtTable& t) {
  std::vector<size_t> cols = columns(o, cells.size(), where);
  for (size_t c : cols) {
    double d = 0;
    int64_t i = 0;
    bool ok = o.integer ? parse_int(cells[c], i) : parse_double(cells[c], d);
    if (!ok) fail("ValueError", fmt::format("{}: could not convert string '{}' to {} (column {})", where, cells[c], o.dtype_name, c + 1));
    if (o.integer) t.ints.push_back(i);
    else t.values.push_back(d);
  }
  return cols.size();
}

// NumPy's _ensure_ndmin_ndarray on a rows x cols table: squeezed (sizes 1 dropped) unless ndmin is 2, then
// widened back to ndmin dims (a vector becomes a column for ndmin 2, a scalar a 1-vector for ndmin 1).
std::vector<int64_t> final_shape(int64_t rows, int64_t cols, int ndmin) {
  if (ndmin == 2) return {rows, cols};
  std::vector<int64_t> shape;
  for (int64_t d : {rows, cols})
    if (d != 1) shape.push_back(d);
  if (shape.empty() && ndmin == 1) shape.push_back(1);
  return shape;
}

}  // namespace

LoadtxtTable parse_loadtxt(const std::string& text, const std::string& name, const LoadtxtOptions& o) {
  LoadtxtTable t;
  int64_t rows = 0, line_no = 0;
  size_t width = 0;
  std::optional<size_t> first_width;
  for (size_t at = 0; at < text.size() && (o.max_rows < 0 || rows < o.max_rows);) {
    size_t end = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, end - at);
    at = end + 1, ++line_no;
    if (line_no <= o.skiprows) continue;
    std::string content = strip_comment(line, o.comments);
    if (trimmed(content).empty()) continue;   // blank and comment-only lines are not rows
    std::vector<std::string> cells = split_cells(content, o.delimiter);
    std::string where = fmt::format("{}:{}", name, line_no);
    if (first_width && cells.size() != *first_width && !o.usecols)
      fail("ValueError", fmt::format("{}: the number of columns changed from {} to {}; use `usecols` to select a subset and "
                                     "avoid this error", where, *first_width, cells.size()));
    if (!first_width) first_width = cells.size();
    width = add_row(cells, o, where, t);
    ++rows;
  }
  if (rows == 0) width = o.usecols ? o.usecols->size() : 1;
  t.shape = final_shape(rows, int64_t(width), o.ndmin);
  return t;
}

}  // namespace amps::stdlib::data
