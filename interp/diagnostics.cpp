// Renders amps errors for humans: position, message, source excerpt with a caret, call stack.
#include "interp/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace amps::interp {

std::string_view SourceFile::line(uint32_t n) const {
  size_t start = 0;
  for (uint32_t i = 1; i < n; ++i) {
    start = text_.find('\n', start);
    if (start == std::string::npos) return {};
    ++start;
  }
  size_t end = text_.find('\n', start);
  std::string_view v(text_);
  v = v.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

std::string format_position(const Span& s) {
  if (!s.file) return "<unknown>";
  return fmt::format("{}:{}:{}", s.file->name(), s.line, s.col);
}

// The source line and a caret line underlining the span's first line.
static std::string excerpt(const Span& s) {
  if (!s.file || s.line == 0) return {};
  std::string_view text = s.file->line(s.line);
  if (text.empty()) return {};
  uint32_t from = s.col > 0 ? s.col - 1 : 0;
  uint32_t to = (s.end_line == s.line && s.end_col > s.col) ? s.end_col - 1 : from + 1;
  to = std::max<uint32_t>(std::min<uint32_t>(to, text.size()), from + 1);
  std::string pad;
  for (uint32_t i = 0; i < from && i < text.size(); ++i) pad += text[i] == '\t' ? '\t' : ' ';
  std::string marks = "^" + std::string(to - from - 1, '~');
  return fmt::format("{:>5} | {}\n      | {}{}\n", s.line, text, pad, marks);
}

std::string format_diagnostic(const AmpsError& e) {
  std::string out = fmt::format("{}: {}: {}\n", format_position(e.span()), e.kind(), e.message());
  out += excerpt(e.span());
  if (!e.stack().empty()) {
    out += "call stack (most recent call first):\n";
    const auto& st = e.stack();
    for (size_t i = 0; i < st.size();) {
      size_t run = 1;   // identical frames (deep recursion) are shown three times, then counted
      while (i + run < st.size() && st[i + run].function == st[i].function &&
             format_position(st[i + run].where) == format_position(st[i].where))
        ++run;
      for (size_t k = 0; k < std::min<size_t>(run, 3); ++k)
        out += fmt::format("  in {} at {}\n", st[i].function, format_position(st[i].where));
      if (run > 3) out += fmt::format("  [previous frame repeated {} more times]\n", run - 3);
      i += run;
    }
  }
  if (e.cause()) out += "\nThe error above was raised from this one (`raise ... from`, its __cause__):\n" + format_diagnostic(*e.cause());
  return out;
}

}  // namespace amps::interp
