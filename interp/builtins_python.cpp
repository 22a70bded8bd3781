// Python's smaller builtins: divmod, chr, ord, hex, oct, bin, callable, hash, id, issubclass, format, object.
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "interp/builtins.hpp"
#include "interp/operators.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

int64_t int_arg(const ArgReader& r, size_t i, const char* fn) {
  const Value& v = r.required(i);
  if (!v.is_int() && !v.is_bool())
    Interp::fail("TypeError", fmt::format("'{}' object cannot be interpreted as an integer", type_name(v)), r.span());
  return v.as_int();
}

Value b_divmod(Interp& in, CallArgs& a) {
  ArgReader r(a, "divmod", {"a", "b"});
  const Value& x = r.required(0);
  const Value& y = r.required(1);
  if (!x.is_number() || !y.is_number())
    Interp::fail("TypeError", fmt::format("unsupported operand type(s) for divmod(): '{}' and '{}' (divmod takes numbers; "
                                          "for tensors write (a // b, a % b))", type_name(x), type_name(y)), a.span);
  return make_tuple({binary_op(in, BinaryOp::FloorDiv, x, y, a.span), binary_op(in, BinaryOp::Mod, x, y, a.span)});
}

std::string utf8_encode(uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += char(cp);
  } else if (cp < 0x800) {
    s += char(0xC0 | (cp >> 6));
    s += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += char(0xE0 | (cp >> 12));
    s += char(0x80 | ((cp >> 6) & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  } else {
    s += char(0xF0 | (cp >> 18));
    s += char(0x80 | ((cp >> 12) & 0x3F));
    s += char(0x80 | ((cp >> 6) & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  }
  return s;
}

Value b_chr(Interp&, CallArgs& a) {
  ArgReader r(a, "chr", {"i"});
  int64_t cp = int_arg(r, 0, "chr");
  if (cp < 0 || cp > 0x10FFFF) Interp::fail("ValueError", "chr() arg not in range(0x110000)", a.span);
  return make_str(utf8_encode(uint32_t(cp)));
}

Value b_ord(Interp&, CallArgs& a) {
  ArgReader r(a, "ord", {"c"});
  const Value& v = r.required(0);
  if (!v.is(ObjKind::Str)) Interp::fail("TypeError", "ord() expected string of length 1, but " + type_name(v) + " found", a.span);
  const std::string& s = v.as<Str>()->value;
  if (utf8_length(s) != 1)
    Interp::fail("TypeError", fmt::format("ord() expected a character, but string of length {} found", utf8_length(s)), a.span);
  auto b = [&](size_t i) { return uint32_t(uint8_t(s[i])); };
  switch (s.size()) {
    case 1: return Value(int64_t(b(0)));
    case 2: return Value(int64_t(((b(0) & 0x1F) << 6) | (b(1) & 0x3F)));
    case 3: return Value(int64_t(((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F)));
    default: return Value(int64_t(((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F)));
  }
}

// hex/oct/bin: Python's prefixed forms, the sign in front ("-0xff").
Value radix_string(CallArgs& a, const char* fn, const char* prefix, int bits_per_digit) {
  ArgReader r(a, fn, {"x"});
  int64_t v = int_arg(r, 0, fn);
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdef"[mag & ((1u << bits_per_digit) - 1)]);
    mag >>= bits_per_digit;
  } while (mag);
  return make_str((v < 0 ? "-" : "") + std::string(prefix) + digits);
}

Value b_callable(Interp& in, CallArgs& a) {
  ArgReader r(a, "callable", {"obj"});
  const Value& v = r.required(0);
  if (v.is(ObjKind::Function) || v.is(ObjKind::Native) || v.is(ObjKind::BoundMethod) || v.is(ObjKind::Class)) return Value(true);
  return Value(v.is_obj() && (v.is(ObjKind::Instance) || is_opaque(v)) && !in.find_attr(v, intern("__call__")).is_undef());
}

// CPython's numeric hash (Python/pyhash.c): integers modulo the Mersenne prime 2**61 - 1, floats so that
// hash(2.0) == hash(2), -1 mapped to -2.
constexpr uint64_t kHashModulus = (uint64_t(1) << 61) - 1;

int64_t fix_minus_one(int64_t h) { return h == -1 ? -2 : h; }

int64_t hash_int(int64_t v) {
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  int64_t h = int64_t(mag % kHashModulus);
  return fix_minus_one(v < 0 ? -h : h);
}

int64_t hash_float(double d) {
  if (std::isinf(d)) return d > 0 ? 314159 : -314159;
  if (std::isnan(d)) return 0;
  int e = 0;
  double m = std::frexp(d, &e);
  int sign = 1;
  if (m < 0) sign = -1, m = -m;
  uint64_t x = 0;
  while (m != 0) {
    x = ((x << 28) & kHashModulus) | x >> (61 - 28);
    m *= 268435456.0;
    e -= 28;
    auto y = uint64_t(m);
    m -= double(y);
    x += y;
    if (x >= kHashModulus) x -= kHashModulus;
  }
  e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
  x = ((x << e) & kHashModulus) | x >> (61 - e);
  return fix_minus_one(int64_t(x) * sign);
}

// Python's tuple hash (the xxHash-based combination of CPython 3.8+).
int64_t hash_value(Interp& in, const Value& v, const Span& where);

int64_t hash_tuple(Interp& in, const std::vector<Value>& items, const Span& where) {
  constexpr uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
  uint64_t acc = p5;
  for (auto& item : items) {
    acc += uint64_t(hash_value(in, item, where)) * p2;
    acc = (acc << 31) | (acc >> 33);
    acc *= p1;
  }
  acc += items.size() ^ (p5 ^ 3527539ULL);
  return acc == uint64_t(-1) ? 1546275796 : int64_t(acc);
}

// Strings hash by FNV-1a: stable from run to run (Python randomises str hashes per process, so no script can rely
// on their values). Other hashable objects hash by identity or their own value (dtypes, devices).
int64_t hash_value(Interp& in, const Value& v, const Span& where) {
  if (v.is_int() || v.is_bool()) return hash_int(v.as_int());
  if (v.is_float()) {
    double d = v.as_float();
    if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return hash_int(int64_t(d));
    return hash_float(d);
  }
  try { check_hashable(v); } catch (AmpsError& e) { e.set_span(where); throw; }
  if (v.is_none()) return 0x5F3759DF;
  if (v.is(ObjKind::Tuple)) return hash_tuple(in, v.as<Tuple>()->items, where);
  if (v.is(ObjKind::Str)) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : v.as<Str>()->value) h = (h ^ c) * 1099511628211ULL;
    return fix_minus_one(int64_t(h));
  }
  if (v.is(ObjKind::Instance)) {
    Value m = in.find_attr(v, intern("__hash__"));
    if (!m.is_undef() && !m.is_none()) {
      Value h = in.call(m, std::vector<Value>{});
      if (!h.is_int()) Interp::fail("TypeError", "__hash__ method should return an integer", where);
      return h.as_int();
    }
  }
  return fix_minus_one(int64_t(v.obj()->hash()));
}

Value b_hash(Interp& in, CallArgs& a) {
  ArgReader r(a, "hash", {"obj"});
  return Value(hash_value(in, r.required(0), a.span));
}

// id(x): objects by address; numbers, bools and none by their value, tagged in bits above any address, so that
// equal numbers share an id (as Python's cached small ints do) and 1, 1.0 and true do not.
Value b_id(Interp&, CallArgs& a) {
  ArgReader r(a, "id", {"obj"});
  const Value& v = r.required(0);
  if (v.is_obj()) return Value(int64_t(reinterpret_cast<uintptr_t>(v.obj())));
  uint64_t bits = 0;
  if (v.is_float()) {
    double d = v.as_float();
    std::memcpy(&bits, &d, sizeof bits);
  } else if (!v.is_none()) {
    bits = uint64_t(v.as_int());
  }
  return Value(int64_t((uint64_t(v.tag()) << 58) ^ (bits & ((uint64_t(1) << 58) - 1)) ^ (uint64_t(1) << 62)));
}

bool is_object_class(const Value& c) { return c.is(ObjKind::Class) && *c.as<Class>()->name == "object" && !c.as<Class>()->base; }

bool subclass_of(const Value& c, const Value& info, const Span& where) {
  if (info.is(ObjKind::Tuple)) {
    for (auto& b : info.as<Tuple>()->items)
      if (subclass_of(c, b, where)) return true;
    return false;
  }
  if (const BuiltinType* t = as_builtin_type(info)) {   // bool derives from int; script classes from no built-in type
    const BuiltinType* ct = as_builtin_type(c);
    return ct && ct->is_subtype_of(t);
  }
  if (info.is(ObjKind::Native)) return false;   // another native (an error kind's constructor): derives from none
  if (!info.is(ObjKind::Class)) Interp::fail("TypeError", "issubclass() arg 2 must be a class, or tuple of classes", where);
  return is_object_class(info) || (c.is(ObjKind::Class) && c.as<Class>()->is_subclass_of(info.as<Class>()));
}

Value b_issubclass(Interp&, CallArgs& a) {
  ArgReader r(a, "issubclass", {"cls", "class_or_tuple"});
  const Value& c = r.required(0);
  if (!c.is(ObjKind::Class) && !as_builtin_type(c))
    Interp::fail("TypeError", "issubclass() arg 1 must be a class", a.span);   // Python's words
  return Value(subclass_of(c, r.required(1), a.span));
}

Value b_format(Interp& in, CallArgs& a) {
  ArgReader r(a, "format", {"value", "format_spec"});
  return make_str(format_with_spec(in, r.required(0), r.str_or(1, ""), a.span));
}

}  // namespace

void install_python_builtins(Interp& in) {
  in.def_native("divmod", b_divmod);
  in.def_native("chr", b_chr);
  in.def_native("ord", b_ord);
  in.def_native("hex", [](Interp&, CallArgs& a) { return radix_string(a, "hex", "0x", 4); });
  in.def_native("oct", [](Interp&, CallArgs& a) { return radix_string(a, "oct", "0o", 3); });
  in.def_native("bin", [](Interp&, CallArgs& a) { return radix_string(a, "bin", "0b", 1); });
  in.def_native("callable", b_callable);
  in.def_native("hash", b_hash);
  in.def_native("id", b_id);
  in.def_native("issubclass", b_issubclass);
  in.def_native("format", b_format);
  // `class A(object)` as in Python 2-era scripts, and `object()` sentinels; every value is an instance of it.
  in.def_global("object", make<Class>(intern("object"), Ref<Class>()));
}

}  // namespace amps::interp
