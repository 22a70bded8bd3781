// Python's printf-style string formatting, `"%d items, %.3f" % (n, loss)`: conversions d i u f F e E g G s r a x X
// o c %, flags - + space # 0, width and precision (also `*`), and `%(name)s` with a mapping. Each field becomes a
// Python format spec handed to format_with_spec, so the digits are those of f-strings; Python's errors.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/interp.hpp"

namespace amps::interp {
namespace {

struct Field {
  std::string flags;
  int64_t width = -1, precision = -1;
  char conv = 0;
};

// The arguments of `fmt % args`: a tuple's items, else the one value (a mapping for `%(name)s` fields).
struct Args {
  std::vector<Value> items;
  Value mapping = Value::undef();   // set when the values are a mapping
  size_t next = 0;
  const Value& take(const Span& where) {
    if (next >= items.size()) Interp::fail("TypeError", "not enough arguments for format string", where);
    return items[next++];
  }
};

bool has(const Field& f, char flag) { return f.flags.find(flag) != std::string::npos; }

// [[fill]align][sign][#][0][width][.precision] for a field (then the caller appends the type).
std::string spec_prefix(const Field& f, bool numeric) {
  std::string spec = has(f, '-') ? "<" : (numeric && has(f, '0')) ? "" : ">";
  if (numeric && has(f, '+')) spec += '+';
  else if (numeric && has(f, ' ')) spec += ' ';
  if (numeric && has(f, '0') && !has(f, '-')) spec += '0';
  if (f.width >= 0) spec += std::to_string(f.width);
  return spec;
}

// The number a %d/%f field formats: ints, floats and bools as they are; others through int()/float() (tensors);
// strings and containers are Python's TypeError.
Value as_number(Interp& in, const Value& v, char conv, bool integral, const Span& where) {
  if (v.is_bool()) return Value(v.as_int());
  if (v.is_number()) return v;
  if (!v.is_obj() || v.is(ObjKind::Str) || v.is(ObjKind::List) || v.is(ObjKind::Tuple) || v.is(ObjKind::Dict))
    Interp::fail("TypeError", fmt::format("%{} format: {} is required, not {}", conv,
                                          integral ? "an integer" : "a real number", type_name(v)), where);
  return in.call(in.lookup_builtin(integral ? "int" : "float"), std::vector<Value>{v});
}

std::string format_int(Interp& in, const Field& f, const Value& arg, const Span& where) {
  bool radix = std::strchr("xXo", f.conv);
  Value v = as_number(in, arg, f.conv, radix, where);
  if (v.is_float()) {
    if (radix) Interp::fail("TypeError", fmt::format("%{} format: an integer is required, not float", f.conv), where);
    double d = v.as_float();
    if (!std::isfinite(d))
      Interp::fail(std::isnan(d) ? "ValueError" : "OverflowError",
                   std::string("cannot convert float ") + (std::isnan(d) ? "NaN" : "infinity") + " to integer", where);
    v = Value(int64_t(std::trunc(d)));
  }
  char type = f.conv == 'i' || f.conv == 'u' ? 'd' : f.conv;
  std::string digits = fmt::format(fmt::runtime(std::string("{:") + type + "}"), std::llabs(v.as_int()));
  if (f.precision > int64_t(digits.size())) digits.insert(0, size_t(f.precision) - digits.size(), '0');
  if (has(f, '#') && radix) digits.insert(0, type == 'o' ? "0o" : type == 'x' ? "0x" : "0X");
  std::string sign = v.as_int() < 0 ? "-" : has(f, '+') ? "+" : has(f, ' ') ? " " : "";
  std::string body = sign + digits;
  if (int64_t(body.size()) >= f.width) return body;
  size_t pad = size_t(f.width) - body.size();
  if (has(f, '-')) return body + std::string(pad, ' ');
  if (has(f, '0')) return sign + std::string(pad, '0') + body.substr(sign.size());
  return std::string(pad, ' ') + body;
}

std::string format_float_field(Interp& in, const Field& f, const Value& arg, const Span& where) {
  Value v = as_number(in, arg, f.conv, false, where);
  std::string spec = spec_prefix(f, true);
  if (has(f, '#')) spec.insert(std::min(spec.find_first_of("0123456789"), spec.size()), "#");   // before 0/width
  spec += "." + std::to_string(f.precision >= 0 ? f.precision : 6) + f.conv;
  return format_with_spec(in, Value(v.to_double()), spec, where);
}

std::string format_char(Interp& in, const Field& f, const Value& arg, const Span& where) {
  std::string ch;
  if (arg.is(ObjKind::Str) && arg.as<Str>()->value.size() >= 1 && in.call(in.lookup_builtin("len"), std::vector<Value>{arg}).as_int() == 1)
    ch = arg.as<Str>()->value;
  else if (arg.is_int() && !arg.is_bool())
    ch = in.call(in.lookup_builtin("chr"), std::vector<Value>{arg}).as<Str>()->value;
  else
    Interp::fail("TypeError", "%c requires int or char", where);
  return format_with_spec(in, make_str(ch), spec_prefix(f, false), where);
}

std::string format_field(Interp& in, const Field& f, const Value& arg, const Span& where) {
  switch (f.conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': return format_int(in, f, arg, where);
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': return format_float_field(in, f, arg, where);
    case 'c': return format_char(in, f, arg, where);
    default: break;
  }
  std::string text = f.conv == 's' ? in.str(arg) : in.repr(arg);   // s, r, a
  if (f.precision >= 0) text = text.substr(0, size_t(f.precision));   // counts bytes: exact for ASCII text
  std::string spec = spec_prefix(f, false);
  return spec.size() > 1 ? format_with_spec(in, make_str(text), spec + "s", where) : text;
}

// mapping[key] for `%(key)s`: a dict's entry (KeyError as Python's) or an instance's __getitem__.
Value mapping_item(Interp& in, const Value& mapping, const Value& key, const Span& where) {
  if (mapping.is(ObjKind::Dict)) {
    if (Value* v = mapping.as<Dict>()->find(key)) return *v;
    raise_key_error(in, key, where);
  }
  return in.call(in.find_attr(mapping, intern("__getitem__")), std::vector<Value>{key});
}

// A `*` width or precision: the next argument, an int.
int64_t star_arg(Args& args, const Span& where) {
  const Value& v = args.take(where);
  if (!v.is_int() || v.is_bool()) Interp::fail("TypeError", "* wants int", where);
  return v.as_int();
}

// Parses the field after a '%' at fmt[i] (i past the '%'), advancing i past its conversion character.
Field parse_field(Interp& in, const std::string& fmt, size_t& i, Args& args, Value& arg, bool& has_arg, const Span& where) {
  Field f;
  has_arg = false;
  if (i < fmt.size() && fmt[i] == '(') {
    size_t close = fmt.find(')', i);
    if (close == std::string::npos) Interp::fail("ValueError", "incomplete format key", where);
    if (args.mapping.is_undef()) Interp::fail("TypeError", "format requires a mapping", where);
    arg = mapping_item(in, args.mapping, make_str(fmt.substr(i + 1, close - i - 1)), where);
    has_arg = true;
    i = close + 1;
  }
  while (i < fmt.size() && std::strchr("-+ #0", fmt[i])) f.flags += fmt[i++];
  auto number = [&](int64_t& out) {
    if (i < fmt.size() && fmt[i] == '*') { ++i; out = star_arg(args, where); return; }
    if (i < fmt.size() && std::isdigit(uint8_t(fmt[i]))) out = 0;
    while (i < fmt.size() && std::isdigit(uint8_t(fmt[i]))) out = out * 10 + (fmt[i++] - '0');
  };
  number(f.width);
  if (f.width < 0 && f.width != -1) f.flags += '-', f.width = -f.width;
  if (i < fmt.size() && fmt[i] == '.') { ++i; f.precision = 0; number(f.precision); }
  while (i < fmt.size() && std::strchr("hlL", fmt[i])) ++i;   // length modifiers: ignored, as Python
  if (i >= fmt.size()) Interp::fail("ValueError", "incomplete format", where);
  f.conv = fmt[i++];
  return f;
}

}  // namespace

Value percent_format(Interp& in, const Value& format, const Value& values, const Span& where) {
  const std::string& fmt_text = format.as<Str>()->value;
  Args args;
  if (values.is(ObjKind::Tuple)) args.items = values.as<Tuple>()->items;
  else args.items = {values};
  bool mapping = values.is(ObjKind::Dict) || (values.is(ObjKind::Instance) && !in.find_attr(values, intern("__getitem__")).is_undef());
  if (mapping) args.mapping = values;
  std::string out;
  for (size_t i = 0; i < fmt_text.size();) {
    char c = fmt_text[i++];
    if (c != '%') { out += c; continue; }
    Value arg;
    bool has_arg = false;
    Field f = parse_field(in, fmt_text, i, args, arg, has_arg, where);
    if (f.conv == '%') { out += '%'; continue; }
    if (!std::strchr("diuxXofFeEgGcsra", f.conv))
      Interp::fail("ValueError", fmt::format("unsupported format character '{}' (0x{:x}) at index {}", f.conv,
                                             unsigned(uint8_t(f.conv)), i - 1), where);
    if (!has_arg) arg = args.take(where);
    out += format_field(in, f, arg, where);
  }
  if (args.next < args.items.size() && !mapping)
    Interp::fail("TypeError", "not all arguments converted during string formatting", where);
  return make_str(std::move(out));
}

}  // namespace amps::interp
