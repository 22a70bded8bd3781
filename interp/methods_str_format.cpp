// str.format and str.format_map: Python 3.11's replacement-field grammar
//   "{" [arg_name] ("." attr | "[" key "]")* ["!" ("r"|"s"|"a")] [":" spec] "}"
// with "{{"/"}}" escapes, automatic or manual numbering (never both), and replacement fields nested one level in
// the spec ("{:>{w}}"). Specs go through format_with_spec, the f-string formatter, so both agree.
#include <fmt/format.h>

#include "interp/methods.hpp"
#include "interp/str_unicode.hpp"

namespace amps::interp {
namespace {

// The arguments a format string draws on; `positional` is false for format_map.
struct FormatArgs {
  std::vector<Value> pos;
  Value mapping;          // a dict (format's keywords) or any object with __getitem__ (format_map)
  bool positional = true;
  int auto_next = 0;      // -1 once a manual index was used
  bool manual = false;
  Span span;
};

[[noreturn]] void value_error(const FormatArgs& f, const std::string& msg) { Interp::fail("ValueError", msg, f.span); }

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The value the leading arg_name ("", "0", "name") of a field names.
Value lookup_arg(Interp& in, FormatArgs& f, std::string_view name) {
  if (!name.empty() && !all_digits(name)) return index_key(in, f.mapping, make_str(std::string(name)), f.span);
  if (!f.positional) value_error(f, "Format string contains positional fields");
  size_t i;
  if (name.empty()) {
    if (f.manual) value_error(f, "cannot switch from manual field specification to automatic field numbering");
    i = size_t(f.auto_next++);
  } else {
    if (f.auto_next > 0) value_error(f, "cannot switch from automatic field numbering to manual field specification");
    f.manual = true;
    i = std::stoull(std::string(name));
  }
  if (i >= f.pos.size()) Interp::fail("IndexError", fmt::format("Replacement index {} out of range for positional args tuple", i), f.span);
  return f.pos[i];
}

// Resolves a field name: its arg_name, then each ".attr" and "[key]" in turn.
Value resolve_field(Interp& in, FormatArgs& f, std::string_view name) {
  size_t end = name.find_first_of(".[");
  Value v = lookup_arg(in, f, name.substr(0, end));
  for (size_t i = end; i < name.size();) {
    if (name[i] == '.') {
      size_t j = name.find_first_of(".[", i + 1);
      std::string_view attr = name.substr(i + 1, j == std::string_view::npos ? std::string_view::npos : j - i - 1);
      if (attr.empty()) value_error(f, "Empty attribute in format string");
      v = in.get_attr(v, intern(std::string(attr)), f.span);
      i = j == std::string_view::npos ? name.size() : j;
    } else if (name[i] == '[') {
      size_t j = name.find(']', i);
      if (j == std::string_view::npos) value_error(f, "expected '}' before end of string");
      std::string_view key = name.substr(i + 1, j - i - 1);
      if (key.empty()) value_error(f, "Empty attribute in format string");
      v = index_key(in, v, all_digits(key) ? Value(int64_t(std::stoll(std::string(key)))) : make_str(std::string(key)), f.span);
      i = j + 1;
      if (i < name.size() && name[i] != '.' && name[i] != '[') value_error(f, "Only '.' or '[' may follow ']' in format field specifier");
    } else {
      value_error(f, "Only '.' or '[' may follow ']' in format field specifier");
    }
  }
  return v;
}

// ascii(): repr with every non-ASCII character escaped (\xhh, \uhhhh, \Uhhhhhhhh).
std::string ascii_repr(Interp& in, const Value& v) {
  std::string out;
  for (char32_t c : utf8_decode(in.repr(v))) {
    if (c < 0x80) out += char(c);
    else if (c < 0x100) out += fmt::format("\\x{:02x}", uint32_t(c));
    else if (c < 0x10000) out += fmt::format("\\u{:04x}", uint32_t(c));
    else out += fmt::format("\\U{:08x}", uint32_t(c));
  }
  return out;
}

std::string expand(Interp& in, FormatArgs& f, std::string_view s, int depth);

// One replacement field's text (between its braces), formatted.
std::string format_field(Interp& in, FormatArgs& f, std::string_view field, int depth) {
  size_t end = 0;
  for (bool bracket = false; end < field.size(); ++end) {
    if (bracket) { bracket = field[end] != ']'; continue; }
    if (field[end] == '[') bracket = true;
    else if (field[end] == ':' || field[end] == '!') break;
  }
  char conv = 0;
  std::string_view spec;
  if (end < field.size() && field[end] == '!') {
    if (end + 1 >= field.size()) value_error(f, "unmatched '{' in format spec");
    conv = field[end + 1];
    if (end + 2 < field.size() && field[end + 2] != ':') value_error(f, "expected ':' after conversion specifier");
    if (end + 2 < field.size()) spec = field.substr(end + 3);
  } else if (end < field.size()) {
    spec = field.substr(end + 1);
  }
  Value v = resolve_field(in, f, field.substr(0, end));
  std::string full_spec = expand(in, f, spec, depth + 1);
  if (conv) {
    if (conv != 'r' && conv != 's' && conv != 'a') value_error(f, fmt::format("Unknown conversion specifier {}", conv));
    v = make_str(conv == 'r' ? in.repr(v) : conv == 's' ? in.str(v) : ascii_repr(in, v));
  }
  return format_with_spec(in, v, full_spec, f.span);
}

// Expands the literal text and replacement fields of [s] (a format string, or a spec at depth 1).
std::string expand(Interp& in, FormatArgs& f, std::string_view s, int depth) {
  if (depth > 1 && s.find_first_of("{}") != std::string_view::npos) value_error(f, "Max string recursion exceeded");
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '}') {
      if (i + 1 < s.size() && s[i + 1] == '}') { out += '}'; ++i; continue; }
      value_error(f, "Single '}' encountered in format string");
    }
    if (c != '{') { out += c; continue; }
    if (i + 1 < s.size() && s[i + 1] == '{') { out += '{'; ++i; continue; }
    if (i + 1 >= s.size()) value_error(f, "Single '{' encountered in format string");
    size_t j = i + 1;
    int nest = 1;
    bool bracket = false, has_spec = false;
    for (; j < s.size(); ++j) {
      char d = s[j];
      if (bracket) { bracket = d != ']'; continue; }
      if (d == '[' && !has_spec) bracket = true;
      else if (d == ':' || d == '!') has_spec = true;
      else if (d == '{') ++nest;
      else if (d == '}' && --nest == 0) break;
    }
    if (j >= s.size()) value_error(f, has_spec ? "unmatched '{' in format spec" : "expected '}' before end of string");
    out += format_field(in, f, s.substr(i + 1, j - i - 1), depth);
    i = j;
  }
  return out;
}

Value format(Interp& in, const Value& s, CallArgs& a) {
  FormatArgs f;
  f.pos = a.pos;
  auto kw = make<Dict>();
  for (auto& [k, v] : a.kw) kw->set(make_str(*k), v);
  f.mapping = Value(kw);
  f.span = a.span;
  return make_str(expand(in, f, text(s), 0));
}

Value format_map(Interp& in, const Value& s, CallArgs& a) {
  ArgReader r(a, "format_map", {"mapping"});
  FormatArgs f;
  f.mapping = r.required(0);
  f.positional = false;
  f.span = a.span;
  return make_str(expand(in, f, text(s), 0));
}

}  // namespace

void add_str_format_methods(MethodTable& t) {
  t["format"] = format;
  t["format_map"] = format_map;
}

}  // namespace amps::interp
