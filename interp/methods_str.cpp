// Methods of str: searching, case, character classes and padding (Python 3.11's names, defaults and errors).
// Strings are UTF-8; every index and count is in characters (code points), as Python's. The split family lives in
// methods_str_split.cpp and format/format_map in methods_str_format.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "interp/methods.hpp"
#include "interp/str_unicode.hpp"

namespace amps::interp {
namespace {

using U = std::u32string;

U chars(const Value& self) { return utf8_decode(text(self)); }

// The index of [sub] in self[start:end] searching forward (or backward), -1 when absent.
int64_t locate(const Value& s, CallArgs& a, const char* fn, bool backward) {
  ArgReader r(a, fn, {"sub", "start", "end"});
  U hay = chars(s), sub = utf8_decode(str_arg(r, 0, ""));
  int64_t b = 0, e = 0;
  clamp_range(r, 1, int64_t(hay.size()), b, e);
  if (e - b < int64_t(sub.size())) return -1;
  U part = hay.substr(b, e - b);
  size_t p = backward ? part.rfind(sub) : part.find(sub);
  return p == U::npos ? -1 : b + int64_t(p);
}

Value count(Interp&, const Value& s, CallArgs& a) {
  ArgReader r(a, "count", {"sub", "start", "end"});
  U hay = chars(s), sub = utf8_decode(str_arg(r, 0, ""));
  int64_t b = 0, e = 0;
  clamp_range(r, 1, int64_t(hay.size()), b, e);
  if (e - b < int64_t(sub.size())) return Value(int64_t(0));
  if (sub.empty()) return Value(e - b + 1);
  U part = hay.substr(b, e - b);
  int64_t n = 0;
  for (size_t p = part.find(sub); p != U::npos; p = part.find(sub, p + sub.size())) ++n;
  return Value(n);
}

// startswith/endswith: a str or a tuple of str, over self[start:end].
Value affix_test(const Value& s, CallArgs& a, const char* fn, bool at_end) {
  ArgReader r(a, fn, {at_end ? "suffix" : "prefix", "start", "end"});
  const Value& what = r.required(0);
  std::vector<Value> options = what.is(ObjKind::Tuple) ? what.as<Tuple>()->items : std::vector<Value>{what};
  U hay = chars(s);
  int64_t b = 0, e = 0;
  clamp_range(r, 1, int64_t(hay.size()), b, e);
  for (const Value& o : options) {
    if (!o.is(ObjKind::Str) && what.is(ObjKind::Tuple))
      Interp::fail("TypeError", fmt::format("tuple for {} must only contain str, not {}", fn, type_name(o)), a.span);
    if (!o.is(ObjKind::Str))
      Interp::fail("TypeError", fmt::format("{} first arg must be str or a tuple of str, not {}", fn, type_name(o)), a.span);
    U x = utf8_decode(text(o));
    if (b > int64_t(hay.size()) || e - b < int64_t(x.size())) continue;
    if (hay.compare(at_end ? size_t(e) - x.size() : size_t(b), x.size(), x) == 0) return Value(true);
  }
  return Value(false);
}

// ---- case
U upper(U s) {
  U o;
  for (char32_t c : s) c == U'ß' ? o += U"SS" : o += uc_upper(c);
  return o;
}
U lower(U s) {
  for (auto& c : s) c = uc_lower(c);
  return s;
}
bool cased(char32_t c) { return uc_is_upper(c) || uc_is_lower(c); }

U title(U s) {
  bool prev_cased = false;
  for (auto& c : s) {
    c = prev_cased ? uc_lower(c) : uc_upper(c);
    prev_cased = cased(c);
  }
  return s;
}

Value case_map(const Value& s, CallArgs& a, const char* fn, U (*f)(U)) {
  no_args(a, (std::string("str.") + fn).c_str());
  return make_str(utf8_encode(f(chars(s))));
}

// ---- character classes: each is false for "" except isascii/isprintable.
template <class Pred>
Value all_chars(const Value& s, CallArgs& a, const char* fn, bool empty, Pred p) {
  no_args(a, (std::string("str.") + fn).c_str());
  U u = chars(s);
  if (u.empty()) return Value(empty);
  return Value(std::all_of(u.begin(), u.end(), p));
}

Value istitle(const Value& s, CallArgs& a) {
  no_args(a, "str.istitle");
  bool prev_cased = false, any = false;
  for (char32_t c : chars(s)) {
    if (uc_is_upper(c) && prev_cased) return Value(false);
    if (uc_is_lower(c) && !prev_cased) return Value(false);
    prev_cased = cased(c);
    any = any || prev_cased;
  }
  return Value(any);
}

// isupper/islower: at least one cased character, and no cased character of the other case.
Value case_test(const Value& s, CallArgs& a, const char* fn, bool want_upper) {
  no_args(a, (std::string("str.") + fn).c_str());
  bool any = false;
  for (char32_t c : chars(s)) {
    if (want_upper ? uc_is_lower(c) : uc_is_upper(c)) return Value(false);
    any = any || (want_upper ? uc_is_upper(c) : uc_is_lower(c));
  }
  return Value(any);
}

bool is_ident(const U& u) {
  if (u.empty() || !(uc_is_alpha(u[0]) || u[0] == '_')) return false;
  return std::all_of(u.begin() + 1, u.end(), [](char32_t c) { return uc_is_alpha(c) || uc_is_decimal(c) || c == '_'; });
}

// ---- padding
char32_t fill_char(const ArgReader& r, size_t i) {
  if (!r.has(i)) return U' ';
  if (!r.get(i).is(ObjKind::Str)) Interp::fail("TypeError", "The fill character must be a unicode character, not " + type_name(r.get(i)), r.span());
  U f = utf8_decode(text(r.get(i)));
  if (f.size() != 1) Interp::fail("TypeError", "The fill character must be exactly one character long", r.span());
  return f[0];
}

// ljust (where < 0), rjust (where > 0), center (where == 0).
Value pad(const Value& s, CallArgs& a, const char* fn, int where) {
  ArgReader r(a, fn, {"width", "fillchar"});
  r.required(0);
  int64_t width = r.int_or(0, 0);
  char32_t f = fill_char(r, 1);
  U u = chars(s);
  int64_t marg = width - int64_t(u.size());
  if (marg <= 0) return make_str(text(s));
  int64_t left = where < 0 ? 0 : where > 0 ? marg : marg / 2 + (marg & width & 1);
  return make_str(utf8_encode(U(size_t(left), f) + u + U(size_t(marg - left), f)));
}

Value zfill(Interp&, const Value& s, CallArgs& a) {
  ArgReader r(a, "zfill", {"width"});
  r.required(0);
  U u = chars(s);
  int64_t fill = r.int_or(0, 0) - int64_t(u.size());
  if (fill <= 0) return make_str(text(s));
  size_t at = !u.empty() && (u[0] == '+' || u[0] == '-') ? 1 : 0;
  u.insert(at, U(size_t(fill), U'0'));
  return make_str(utf8_encode(u));
}

Value replace(Interp&, const Value& s, CallArgs& a) {
  ArgReader r(a, "replace", {"old", "new", "count"});
  U o = chars(s), from = utf8_decode(str_arg(r, 0, "replace() argument 1")), to = utf8_decode(str_arg(r, 1, "replace() argument 2"));
  int64_t left = r.int_or(2, -1);
  if (from.empty()) {   // Python inserts `to` before every character and at the end
    U out;
    for (size_t i = 0; i <= o.size(); ++i) {
      if (left != 0) out += to, --left;
      if (i < o.size()) out += o[i];
    }
    return make_str(utf8_encode(out));
  }
  for (size_t p = 0; left != 0 && (p = o.find(from, p)) != U::npos; p += to.size(), --left) o.replace(p, from.size(), to);
  return make_str(utf8_encode(o));
}

Value strip_affix(const Value& s, CallArgs& a, const char* fn, bool suffix) {
  ArgReader r(a, fn, {suffix ? "suffix" : "prefix"});
  std::string x = str_arg(r, 0, fmt::format("{}() argument", fn));
  const std::string& t = text(s);
  if (suffix) return make_str(t.ends_with(x) ? t.substr(0, t.size() - x.size()) : t);
  return make_str(t.starts_with(x) ? t.substr(x.size()) : t);
}

MethodTable make_table() {
  MethodTable t = {
      {"find", [](Interp&, const Value& s, CallArgs& a) { return Value(locate(s, a, "find", false)); }},
      {"rfind", [](Interp&, const Value& s, CallArgs& a) { return Value(locate(s, a, "rfind", true)); }},
      {"index", [](Interp&, const Value& s, CallArgs& a) {
         int64_t i = locate(s, a, "index", false);
         if (i < 0) Interp::fail("ValueError", "substring not found", a.span);
         return Value(i);
       }},
      {"rindex", [](Interp&, const Value& s, CallArgs& a) {
         int64_t i = locate(s, a, "rindex", true);
         if (i < 0) Interp::fail("ValueError", "substring not found", a.span);
         return Value(i);
       }},
      {"count", count},
      {"startswith", [](Interp&, const Value& s, CallArgs& a) { return affix_test(s, a, "startswith", false); }},
      {"endswith", [](Interp&, const Value& s, CallArgs& a) { return affix_test(s, a, "endswith", true); }},
      {"removeprefix", [](Interp&, const Value& s, CallArgs& a) { return strip_affix(s, a, "removeprefix", false); }},
      {"removesuffix", [](Interp&, const Value& s, CallArgs& a) { return strip_affix(s, a, "removesuffix", true); }},
      {"replace", replace},
      {"upper", [](Interp&, const Value& s, CallArgs& a) { return case_map(s, a, "upper", upper); }},
      {"lower", [](Interp&, const Value& s, CallArgs& a) { return case_map(s, a, "lower", lower); }},
      {"casefold", [](Interp&, const Value& s, CallArgs& a) {
         return case_map(s, a, "casefold", [](U u) { U o; for (char32_t c : lower(u)) c == U'ß' ? o += U"ss" : o += c; return o; });
       }},
      {"title", [](Interp&, const Value& s, CallArgs& a) { return case_map(s, a, "title", title); }},
      {"capitalize", [](Interp&, const Value& s, CallArgs& a) {
         return case_map(s, a, "capitalize", [](U u) { u = lower(u); if (!u.empty()) u[0] = uc_upper(u[0]); return u; });
       }},
      {"swapcase", [](Interp&, const Value& s, CallArgs& a) {
         return case_map(s, a, "swapcase", [](U u) { for (auto& c : u) c = uc_is_upper(c) ? uc_lower(c) : uc_is_lower(c) ? uc_upper(c) : c; return u; });
       }},
      {"isalpha", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isalpha", false, uc_is_alpha); }},
      {"isalnum", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isalnum", false, [](char32_t c) { return uc_is_alpha(c) || uc_is_decimal(c); }); }},
      {"isdigit", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isdigit", false, uc_is_decimal); }},
      {"isdecimal", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isdecimal", false, uc_is_decimal); }},
      {"isnumeric", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isnumeric", false, uc_is_decimal); }},
      {"isspace", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isspace", false, uc_is_space); }},
      {"isascii", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isascii", true, [](char32_t c) { return c < 0x80; }); }},
      {"isprintable", [](Interp&, const Value& s, CallArgs& a) { return all_chars(s, a, "isprintable", true, uc_is_printable); }},
      {"isupper", [](Interp&, const Value& s, CallArgs& a) { return case_test(s, a, "isupper", true); }},
      {"islower", [](Interp&, const Value& s, CallArgs& a) { return case_test(s, a, "islower", false); }},
      {"istitle", [](Interp&, const Value& s, CallArgs& a) { return istitle(s, a); }},
      {"isidentifier", [](Interp&, const Value& s, CallArgs& a) { no_args(a, "str.isidentifier"); return Value(is_ident(chars(s))); }},
      {"ljust", [](Interp&, const Value& s, CallArgs& a) { return pad(s, a, "ljust", -1); }},
      {"rjust", [](Interp&, const Value& s, CallArgs& a) { return pad(s, a, "rjust", 1); }},
      {"center", [](Interp&, const Value& s, CallArgs& a) { return pad(s, a, "center", 0); }},
      {"zfill", zfill},
  };
  add_str_split_methods(t);
  add_str_format_methods(t);
  return t;
}

}  // namespace

const MethodTable& str_methods() {
  static const MethodTable t = make_table();
  return t;
}

}  // namespace amps::interp
