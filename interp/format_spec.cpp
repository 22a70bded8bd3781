// Python's format-spec mini-language for format(), f-strings and str.format:
//   [[fill]align][sign][#][0][width][,|_][.precision][type]
// fmt formats the bare value (sign, '#', precision, type); grouping, width, fill and alignment (including '=',
// padding after the sign) are applied here, counting characters, so all of Python's forms come out alike.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "interp/builtins.hpp"
#include "interp/str_unicode.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

struct Spec {
  std::string fill;   // empty: not given (then '0' under the 0 flag, else ' ')
  char align = 0, sign = 0, grouping = 0, type = 0;
  bool alt = false, zero = false;
  int64_t width = -1, precision = -1;
};

bool parse_spec(const std::string& s, Spec& p) {
  size_t i = 0;
  size_t first = s.empty() ? 0 : utf8_char_size(s, 0);
  if (s.size() > first && std::strchr("<>^=", s[first])) p.fill = s.substr(0, first), p.align = s[first], i = first + 1;
  else if (!s.empty() && std::strchr("<>^=", s[0])) p.align = s[0], i = 1;
  if (i < s.size() && std::strchr("+- ", s[i])) p.sign = s[i++];
  if (i < s.size() && s[i] == '#') p.alt = true, ++i;
  if (i < s.size() && s[i] == '0') p.zero = true, ++i;
  auto number = [&](int64_t& out) {
    size_t b = i;
    while (i < s.size() && isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) out = std::stoll(s.substr(b, i - b));
    return i > b;
  };
  number(p.width);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) p.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!number(p.precision)) return false;
  }
  if (i < s.size()) p.type = s[i++];
  return i == s.size();
}

// Inserts [sep] every [every] digits into the run of digits that starts the number's integer part.
std::string group(std::string s, char sep, int every, const char* digits) {
  size_t start = s.find_first_of(digits);
  if (start == std::string::npos) return s;
  if (s[start] == '0' && start + 1 < s.size() && std::strchr("xXob", s[start + 1])) start = s.find_first_of(digits, start + 2);
  if (start == std::string::npos) return s;
  size_t end = s.find_first_not_of(digits, start);
  if (end == std::string::npos) end = s.size();
  for (int64_t k = int64_t(end) - every; k > int64_t(start); k -= every) s.insert(size_t(k), 1, sep);
  return s;
}

// [tname]: the value's type as Python's messages name it (a bool formats as int but is named bool).
[[noreturn]] void unknown_code(char type, const std::string& tname, const Span& where) {
  Interp::fail("ValueError", fmt::format("Unknown format code '{}' for object of type '{}'", type, tname), where);
}

// A float under a precision and no type: Python's 'g' that keeps a digit after the point ("2.0", not "2"), and so
// switches to an exponent once the integer part needs every significant digit ("{:.4}" of 1234.5 is 1.234e+03).
std::string general_with_dot(double d, const std::string& core, const Spec& p) {
  int64_t prec = std::max<int64_t>(p.precision, 1);
  std::string e = fmt::format(fmt::runtime("{:." + std::to_string(prec - 1) + "e}"), d);
  int64_t decpt = std::stoll(e.substr(e.find('e') + 1)) + 1;
  std::string sign_alt = core.substr(0, core.find('.'));
  if (decpt <= -4 || decpt > prec - 1) {
    std::string out = fmt::format(fmt::runtime("{:" + sign_alt + "." + std::to_string(prec - 1) + "e}"), d);
    if (p.alt) return out;
    size_t ep = out.find('e'), dot = out.find('.');
    if (dot == std::string::npos) return out;
    size_t last = out.find_last_not_of('0', ep - 1);
    return out.substr(0, last == dot ? dot : last + 1) + out.substr(ep);
  }
  std::string out = fmt::format(fmt::runtime("{:" + sign_alt + "." + std::to_string(prec) + "g}"), d);
  return out.find('.') == std::string::npos ? out + ".0" : out;
}

// The value alone, formatted by fmt with the spec's sign, '#', precision and type.
std::string bare(Interp& in, const Value& v, const std::string& tname, const Spec& p, const Span& where) {
  std::string core;
  if (p.sign) core += p.sign;
  if (p.alt) core += '#';
  if (p.precision >= 0) core += "." + std::to_string(p.precision);
  if (v.is(ObjKind::Str) || !v.is_number()) {
    if (p.type && p.type != 's') unknown_code(p.type, tname, where);
    if (p.sign) Interp::fail("ValueError", p.sign == ' ' ? "Space not allowed in string format specifier" : "Sign not allowed in string format specifier", where);
    if (p.alt) Interp::fail("ValueError", "Alternate form (#) not allowed in string format specifier", where);
    if (p.align == '=') Interp::fail("ValueError", "'=' alignment not allowed in string format specifier", where);
    std::string t = in.str(v);
    if (p.precision >= 0) {
      auto chars = utf8_chars(t);
      if (int64_t(chars.size()) > p.precision) t = std::string(chars[0].data(), chars[size_t(p.precision)].data() - chars[0].data());
    }
    return t;
  }
  char type = p.type == 'n' ? (v.is_float() ? 'g' : 'd') : p.type;
  if (v.is_float() || (type && std::strchr("eEfFgG%", type))) {
    if (type && !std::strchr("eEfFgG%", type)) unknown_code(p.type, tname, where);
    double d = v.to_double();
    if (std::isnan(d)) d = std::fabs(d);   // Python never prints "-nan"
    if (!type && p.precision >= 0 && std::isfinite(d)) return general_with_dot(d, core, p);
    if (p.alt && (type == 'g' || type == 'G')) {   // C's "%#g" keeps the point and trailing zeros as Python's; fmt adds a 0
      char buf[512];
      std::snprintf(buf, sizeof buf, (std::string("%") + std::string(p.sign ? 1 : 0, p.sign) + "#.*" + type).c_str(),
                    int(p.precision < 0 ? 6 : p.precision), d);
      return buf;
    }
    if (type == '%') return fmt::format(fmt::runtime("{:" + core + "f}"), d * 100) + "%";
    return fmt::format(fmt::runtime("{:" + core + std::string(type ? 1 : 0, type) + "}"), d);
  }
  if (type && !std::strchr("bcdoxX", type)) unknown_code(p.type, tname, where);
  if (p.precision >= 0) Interp::fail("ValueError", "Precision not allowed in integer format specifier", where);
  if (type == 'c') {   // the character with that code point, UTF-8 encoded
    if (p.sign) Interp::fail("ValueError", "Sign not allowed with integer format specifier 'c'", where);
    if (p.alt) Interp::fail("ValueError", "Alternate form (#) not allowed with integer format specifier 'c'", where);
    if (v.as_int() < 0 || v.as_int() > 0x10FFFF) Interp::fail("OverflowError", "%c arg not in range(0x110000)", where);
    return utf8_encode(std::u32string(1, char32_t(v.as_int())));
  }
  if (type == 'o' && p.alt) {   // fmt's alternate octal is "0..."; Python's is "0o..."
    std::string t = fmt::format(fmt::runtime("{:" + std::string(p.sign ? 1 : 0, p.sign) + "o}"), v.as_int());
    return t.insert(t[0] == '+' || t[0] == '-' || t[0] == ' ' ? 1 : 0, "0o");
  }
  return fmt::format(fmt::runtime("{:" + core + std::string(type ? 1 : 0, type) + "}"), v.as_int());
}

// Pads [t] to the spec's width; '=' puts the padding after the sign and any 0x/0o/0b prefix.
std::string pad(std::string t, const Spec& p, bool number) {
  int64_t len = utf8_length(t);
  if (p.width <= len) return t;
  char align = p.align ? p.align : p.zero && number ? '=' : number ? '>' : '<';
  std::string fill = !p.fill.empty() ? p.fill : p.zero ? "0" : " ";
  int64_t n = p.width - len, left = align == '<' ? 0 : align == '^' ? n / 2 : n;
  auto rep = [&](int64_t k) { std::string s; for (int64_t i = 0; i < k; ++i) s += fill; return s; };
  if (align == '=') {
    size_t at = (!t.empty() && std::strchr("+- ", t[0])) ? 1 : 0;
    if (p.alt && t.size() > at + 1 && t[at] == '0' && std::strchr("xXob", t[at + 1])) at += 2;
    return t.substr(0, at) + rep(n) + t.substr(at);
  }
  return rep(left) + t + rep(n - left);
}

// Zero padding with grouping groups the padding too ("{:010,}" -> "00,001,234"), as CPython does when the fill
// is '0' and the alignment '='; other fills pad outside the grouped digits.
std::string zero_grouped(std::string t, const Spec& p, int every, const char* digits) {
  size_t at = (!t.empty() && std::strchr("+- ", t[0])) ? 1 : 0;
  if (p.alt && t.size() > at + 1 && t[at] == '0' && std::strchr("xXob", t[at + 1])) at += 2;
  std::string g = group(t, p.grouping, every, digits);
  while (utf8_length(g) < p.width) {
    t.insert(at, 1, '0');
    g = group(t, p.grouping, every, digits);
  }
  return g;
}

// Python rejects a grouping option with the presentation types that have no digit groups.
void check_grouping(const Spec& p, bool number, const Span& where) {
  char type = p.type ? p.type : number ? 0 : 's';
  if (!p.grouping || !type) return;
  if (std::strchr("scn", type) || (p.grouping == ',' && std::strchr("bxXo", type)))
    Interp::fail("ValueError", fmt::format("Cannot specify '{}' with '{}'.", p.grouping, type), where);
}

}  // namespace

std::string format_with_spec(Interp& in, const Value& value, std::string spec, const Span& where) {
  const Value v0 = formatted_value(value);   // a 0-dim tensor formats as its number (Tensor.__format__)
  if (spec.empty()) return in.str(v0);
  Spec p;
  if (!parse_spec(spec, p)) Interp::fail("ValueError", "Invalid format specifier '" + spec + "' for object of type '" + type_name(v0) + "'", where);
  Value v = v0.is_bool() ? Value(int64_t(v0.as_bool())) : v0;   // bool formats as int once a spec is given
  bool number = v.is_number();
  check_grouping(p, number, where);
  try {
    std::string t = bare(in, v, type_name(v0), p, where);
    if (p.grouping) {
      bool radix = p.type && std::strchr("xXob", p.type);
      int every = radix ? 4 : 3;
      const char* digits = radix ? "0123456789abcdefABCDEF" : "0123456789";
      char align = p.align ? p.align : p.zero ? '=' : '>';
      std::string fill = !p.fill.empty() ? p.fill : p.zero ? "0" : " ";
      t = fill == "0" && align == '=' ? zero_grouped(t, p, every, digits) : group(t, p.grouping, every, digits);
    }
    return pad(t, p, number);
  } catch (const fmt::format_error& e) {
    Interp::fail("ValueError", fmt::format("invalid format spec '{}' for {}: {}", spec, type_name(v0), e.what()), where);
  }
}

}  // namespace amps::interp
