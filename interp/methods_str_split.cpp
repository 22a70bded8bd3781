// str methods that cut or join text: split rsplit partition rpartition splitlines strip lstrip rstrip join
// expandtabs (Python 3.11's rules: whitespace is str.isspace's set; maxsplit=-1 means no limit).
#include <fmt/format.h>

#include <algorithm>

#include "interp/methods.hpp"
#include "interp/str_unicode.hpp"

namespace amps::interp {
namespace {

using U = std::u32string;

Value strs(const std::vector<U>& parts) {
  std::vector<Value> out;
  for (const U& p : parts) out.push_back(make_str(utf8_encode(p)));
  return make_list(std::move(out));
}

// Whitespace split of [u] from the left; at most [max] cuts (-1: any), the rest kept whole (leading space removed).
std::vector<U> split_ws(const U& u, int64_t max) {
  std::vector<U> out;
  size_t i = 0, n = u.size();
  while (true) {
    while (i < n && uc_is_space(u[i])) ++i;
    if (i == n) break;
    if (max >= 0 && int64_t(out.size()) == max) { out.push_back(u.substr(i)); break; }
    size_t j = i;
    while (j < n && !uc_is_space(u[j])) ++j;
    out.push_back(u.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<U> split_sep(const U& u, const U& sep, int64_t max) {
  std::vector<U> out;
  size_t i = 0, j;
  while ((max < 0 || int64_t(out.size()) < max) && (j = u.find(sep, i)) != U::npos) out.push_back(u.substr(i, j - i)), i = j + sep.size();
  out.push_back(u.substr(i));
  return out;
}

U reversed(U u) { std::reverse(u.begin(), u.end()); return u; }

// split/rsplit: rsplit is split of the reversed text with a reversed separator, each piece reversed back.
Value split_impl(const Value& s, CallArgs& a, const char* fn, bool from_right) {
  ArgReader r(a, fn, {"sep", "maxsplit"});
  int64_t max = r.int_or(1, -1);
  U u = utf8_decode(text(s));
  bool ws = !r.has(0) || r.get(0).is_none();
  if (!ws && !r.get(0).is(ObjKind::Str)) Interp::fail("TypeError", "must be str or None, not " + type_name(r.get(0)), a.span);
  U sep = ws ? U() : utf8_decode(text(r.get(0)));
  if (!ws && sep.empty()) Interp::fail("ValueError", "empty separator", a.span);
  if (from_right) u = reversed(u), sep = reversed(sep);
  std::vector<U> parts = ws ? split_ws(u, max) : split_sep(u, sep, max);
  if (from_right) {
    for (auto& p : parts) p = reversed(p);
    std::reverse(parts.begin(), parts.end());
  }
  return strs(parts);
}

Value partition(const Value& s, CallArgs& a, const char* fn, bool from_right) {
  ArgReader r(a, fn, {"sep"});
  std::string sep = str_arg(r, 0, "");
  if (sep.empty()) Interp::fail("ValueError", "empty separator", a.span);
  const std::string& t = text(s);
  size_t p = from_right ? t.rfind(sep) : t.find(sep);
  if (p == std::string::npos)
    return from_right ? make_tuple({make_str(""), make_str(""), make_str(t)}) : make_tuple({make_str(t), make_str(""), make_str("")});
  return make_tuple({make_str(t.substr(0, p)), make_str(sep), make_str(t.substr(p + sep.size()))});
}

Value splitlines(Interp& in, const Value& s, CallArgs& a) {
  ArgReader r(a, "splitlines", {"keepends"});
  bool keep = r.has(0) && in.truthy(r.get(0));
  U u = utf8_decode(text(s));
  std::vector<U> out;
  for (size_t i = 0; i < u.size();) {
    size_t j = i;
    while (j < u.size() && !uc_is_linebreak(u[j])) ++j;
    size_t eol = j == u.size() ? 0 : (u[j] == '\r' && j + 1 < u.size() && u[j + 1] == '\n') ? 2 : 1;
    out.push_back(u.substr(i, j - i + (keep ? eol : 0)));
    i = j + eol;
  }
  return strs(out);
}

// strip family: chars=None strips whitespace, otherwise any of the given characters.
Value strip(const Value& s, CallArgs& a, const char* fn, bool left, bool right) {
  ArgReader r(a, fn, {"chars"});
  bool ws = !r.has(0) || r.get(0).is_none();
  if (!ws && !r.get(0).is(ObjKind::Str)) Interp::fail("TypeError", fmt::format("{} arg must be None or str", fn), a.span);
  U set = ws ? U() : utf8_decode(text(r.get(0)));
  auto drop = [&](char32_t c) { return ws ? uc_is_space(c) : set.find(c) != U::npos; };
  U u = utf8_decode(text(s));
  size_t b = 0, e = u.size();
  while (left && b < e && drop(u[b])) ++b;
  while (right && e > b && drop(u[e - 1])) --e;
  return make_str(utf8_encode(u.substr(b, e - b)));
}

Value join(Interp& in, const Value& s, CallArgs& a) {
  ArgReader r(a, "join", {"iterable"});
  std::string out;
  int64_t n = 0;
  in.iterate(r.required(0), a.span, [&](Value v) {
    if (!v.is(ObjKind::Str))
      Interp::fail("TypeError", fmt::format("sequence item {}: expected str instance, {} found", n, type_name(v)), a.span);
    out += (n++ ? text(s) : "") + v.as<Str>()->value;
    return true;
  });
  return make_str(std::move(out));
}

Value expandtabs(Interp&, const Value& s, CallArgs& a) {
  ArgReader r(a, "expandtabs", {"tabsize"});
  int64_t tab = r.int_or(0, 8), col = 0;
  U out;
  for (char32_t c : utf8_decode(text(s))) {
    if (c == '\t') {
      int64_t k = tab > 0 ? tab - col % tab : 0;
      out.append(size_t(k), U' ');
      col += k;
    } else {
      out += c;
      col = (c == '\n' || c == '\r') ? 0 : col + 1;
    }
  }
  return make_str(utf8_encode(out));
}

}  // namespace

void add_str_split_methods(MethodTable& t) {
  t["split"] = [](Interp&, const Value& s, CallArgs& a) { return split_impl(s, a, "split", false); };
  t["rsplit"] = [](Interp&, const Value& s, CallArgs& a) { return split_impl(s, a, "rsplit", true); };
  t["partition"] = [](Interp&, const Value& s, CallArgs& a) { return partition(s, a, "partition", false); };
  t["rpartition"] = [](Interp&, const Value& s, CallArgs& a) { return partition(s, a, "rpartition", true); };
  t["splitlines"] = splitlines;
  t["strip"] = [](Interp&, const Value& s, CallArgs& a) { return strip(s, a, "strip", true, true); };
  t["lstrip"] = [](Interp&, const Value& s, CallArgs& a) { return strip(s, a, "lstrip", true, false); };
  t["rstrip"] = [](Interp&, const Value& s, CallArgs& a) { return strip(s, a, "rstrip", false, true); };
  t["join"] = join;
  t["expandtabs"] = expandtabs;
}

}  // namespace amps::interp
