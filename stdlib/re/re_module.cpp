// The natives of module `re` (stdlib/re.amps holds Pattern, Match and the module functions): compiling a Python
// pattern with PCRE2 (8-bit, UTF + UCP unless re.ASCII) after re_translate.cpp rewrote it, and running it on a str.
// Positions cross this boundary in characters (code points), as Python's; PCRE2 works in UTF-8 bytes.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <memory>

#include "stdlib/re/re_translate.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::re {
namespace {

// A compiled pattern (the script's Pattern holds one in _code).
struct Code : Object {
  pcre2_code* code = nullptr;
  ~Code() override { pcre2_code_free(code); }
};

const amps_class kCodeClass = object_class("_ReCode", nullptr);

// The byte offset of every character of a UTF-8 text, and one past the end.
struct Offsets {
  std::vector<size_t> byte;
  explicit Offsets(const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i)
      if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) byte.push_back(i);
    byte.push_back(s.size());
  }
  int64_t chars() const { return int64_t(byte.size()) - 1; }
  int64_t char_of(size_t b) const { return std::lower_bound(byte.begin(), byte.end(), b) - byte.begin(); }
};

std::string pcre_message(int code) {
  PCRE2_UCHAR buf[256];
  pcre2_get_error_message(code, buf, sizeof buf);
  return reinterpret_cast<const char*>(buf);
}

// Python's wording for the PCRE2 compile errors the translator lets through.
std::string python_message(int code) {
  switch (code) {
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS: return "missing ), unterminated subpattern";
    case PCRE2_ERROR_LOOKBEHIND_NOT_FIXED_LENGTH: return "look-behind requires fixed-width pattern";
    case PCRE2_ERROR_BAD_SUBPATTERN_REFERENCE: return "invalid group reference";
    default: return pcre_message(code) + " (PCRE2)";
  }
}

uint32_t compile_options(int flags) {
  uint32_t o = PCRE2_UTF;
  if (!(flags & kAscii)) o |= PCRE2_UCP;
  if (flags & kIgnoreCase) o |= PCRE2_CASELESS;
  if (flags & kMultiline) o |= PCRE2_MULTILINE;
  if (flags & kDotAll) o |= PCRE2_DOTALL;
  return o;
}

// _re_compile(pattern, flags): (code, flags, groups, {name: index}, [parent of each group]) or, for a bad pattern,
// (none, message, position) with Python's message and position (-1: none).
Value re_compile(Vm& vm, Call& c) {
  Args r(vm, c, "_re_compile", {"pattern", "flags"});
  std::string pattern = r.str_or(0, "");
  int flags = int(r.int_or(1, 0));
  Translation t = translate(pattern, flags);
  if (!t.error.empty()) return Value::tuple({Value::none(), Value::of(std::string_view(t.error)), Value::of(int64_t(t.error_pos))});
  if ((t.flags & kAscii) && (t.flags & kUnicode))
    return Value::tuple({Value::none(), Value::of(std::string_view("ASCII and UNICODE flags are incompatible")), Value::of(int64_t(-1))});
  pcre2_compile_context* ctx = pcre2_compile_context_create(nullptr);
  pcre2_set_newline(ctx, PCRE2_NEWLINE_LF);
  pcre2_set_parens_nest_limit(ctx, 1000);   // PCRE2's default (250) is below what Python's parser takes
  int err = 0;
  PCRE2_SIZE err_at = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(t.pcre.data()), t.pcre.size(), compile_options(t.flags), &err, &err_at, ctx);
  pcre2_compile_context_free(ctx);
  if (!code) return Value::tuple({Value::none(), Value::of(std::string_view(python_message(err))), Value::of(int64_t(-1))});
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);   // best effort: the interpreter runs when JIT is unavailable
  auto obj = std::make_unique<Code>();
  obj->code = code;
  Value names = Value::dict();
  std::vector<std::pair<int, std::string>> by_group;   // Python's groupindex lists the names in group order
  for (auto& [name, g] : t.names) by_group.emplace_back(g, name);
  std::sort(by_group.begin(), by_group.end());
  for (auto& [g, name] : by_group) vm.dict_set(names, Value::of(std::string_view(name)), Value::of(int64_t(g)));
  std::vector<Value> parents;
  for (int p : t.parents) parents.push_back(Value::of(int64_t(p)));
  return Value::tuple({vm.new_object(kCodeClass, std::move(obj)), Value::of(int64_t(t.flags)), Value::of(int64_t(t.groups)), names,
                       Value::list(parents)});
}

// Runs one match: the spans (start, end of groups 0..groups) in characters (-1: unset) and in bytes; false for none.
struct Matcher {
  Code* code;
  std::string text;
  Offsets off;
  pcre2_match_data* md;
  bool utf_checked = false;
  Matcher(Code* c, std::string s) : code(c), text(std::move(s)), off(text), md(pcre2_match_data_create_from_pattern(c->code, nullptr)) {}
  ~Matcher() { pcre2_match_data_free(md); }

  bool run(int64_t pos, int64_t endpos, uint32_t options, std::vector<int64_t>& spans, std::vector<size_t>& bytes) {
    // PCRE2 checks the whole subject's UTF-8 on each call unless told not to: once is enough for a scan.
    int rc = pcre2_match(code->code, reinterpret_cast<PCRE2_SPTR>(text.data()), off.byte[endpos], off.byte[pos],
                         options | (utf_checked ? PCRE2_NO_UTF_CHECK : 0), md, nullptr);
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT)   // the JIT's stack is small: the interpreter (heap frames) goes deeper
      rc = pcre2_match(code->code, reinterpret_cast<PCRE2_SPTR>(text.data()), off.byte[endpos], off.byte[pos],
                       options | PCRE2_NO_JIT | PCRE2_NO_UTF_CHECK, md, nullptr);
    utf_checked = true;
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    if (rc < 0) fail("RuntimeError", "re: " + pcre_message(rc) + " (PCRE2 match error)");
    uint32_t n = pcre2_get_ovector_count(md);
    PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
    uint32_t groups = 0;
    pcre2_pattern_info(code->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    spans.clear();
    bytes.clear();
    for (uint32_t g = 0; g <= groups; ++g) {
      bool set = g < n && ov[2 * g] != PCRE2_UNSET;
      spans.push_back(set ? off.char_of(ov[2 * g]) : -1);
      spans.push_back(set ? off.char_of(ov[2 * g + 1]) : -1);
      bytes.push_back(set ? ov[2 * g] : 0);
      bytes.push_back(set ? ov[2 * g + 1] : 0);
    }
    return true;
  }
};

Code* code_arg(const Value& v) {
  Code* code = object_cast<Code>(v);
  if (!code) fail("TypeError", "re: expected a compiled pattern");
  return code;
}

std::vector<Value> ints(const std::vector<int64_t>& v) {
  std::vector<Value> out;
  for (int64_t x : v) out.push_back(Value::of(x));
  return out;
}

// Python's pos/endpos rules: clamped into [0, len], endpos below pos matches nothing.
std::pair<int64_t, int64_t> clamp(const Offsets& off, int64_t pos, int64_t endpos) {
  int64_t n = off.chars();
  pos = std::clamp<int64_t>(pos, 0, n);
  endpos = std::clamp<int64_t>(endpos, 0, n);
  return {pos, endpos};
}

// One match for the script: (spans, texts), spans = [start0, end0, start1, end1, ...] in characters (-1 for an unset
// group), texts = the groups' strings (none when unset). The texts are cut here: slicing an amps str by characters
// costs a pass over it, which made a scan of a long text quadratic.
Value match_value(const Matcher& m, const std::vector<int64_t>& spans, const std::vector<size_t>& bytes) {
  std::vector<Value> texts;
  for (size_t g = 0; g < spans.size() / 2; ++g)
    texts.push_back(spans[2 * g] < 0 ? Value::none()
                                     : Value::of(std::string_view(m.text).substr(bytes[2 * g], bytes[2 * g + 1] - bytes[2 * g])));
  return Value::tuple({Value::list(ints(spans)), Value::list(texts)});
}

// _re_exec(code, string, pos, endpos, mode): mode 0 search, 1 match (anchored at pos), 2 fullmatch; (spans, texts)
// or none.
Value re_exec(Vm& vm, Call& c) {
  Args r(vm, c, "_re_exec", {"code", "string", "pos", "endpos", "mode"});
  Matcher m(code_arg(r.required(0)), r.str_or(1, ""));
  auto [pos, endpos] = clamp(m.off, r.int_or(2, 0), r.int_or(3, INT64_MAX));
  if (endpos < pos) return Value::none();
  int64_t mode = r.int_or(4, 0);
  uint32_t options = mode == 1 ? PCRE2_ANCHORED : mode == 2 ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
  std::vector<int64_t> spans;
  std::vector<size_t> bytes;
  if (!m.run(pos, endpos, options, spans, bytes)) return Value::none();
  return match_value(m, spans, bytes);
}

// _re_scan(code, string, pos, endpos, limit): (matches, gaps): the successive non-overlapping matches as
// (spans, texts) (at most [limit] when positive), with Python 3.7's rule for empty matches: one may follow a match
// directly, but a match that follows an empty one must not be empty at the same place (PCRE2_NOTEMPTY_ATSTART);
// gaps[k] is the text from the previous match's end (or pos) to match k, gaps[-1] the rest up to endpos (what
// sub and split keep).
Value re_scan(Vm& vm, Call& c) {
  Args r(vm, c, "_re_scan", {"code", "string", "pos", "endpos", "limit"});
  Matcher m(code_arg(r.required(0)), r.str_or(1, ""));
  auto [pos, endpos] = clamp(m.off, r.int_or(2, 0), r.int_or(3, INT64_MAX));
  int64_t limit = r.int_or(4, 0);
  std::vector<Value> matches, gaps;
  std::vector<int64_t> spans;
  std::vector<size_t> bytes;
  size_t last = m.off.byte[pos];
  bool after_empty = false;
  while (pos <= endpos && (limit <= 0 || int64_t(matches.size()) < limit)) {
    if (!m.run(pos, endpos, after_empty ? PCRE2_NOTEMPTY_ATSTART : 0, spans, bytes)) break;
    matches.push_back(match_value(m, spans, bytes));
    gaps.push_back(Value::of(std::string_view(m.text).substr(last, bytes[0] - last)));
    last = bytes[1];
    after_empty = spans[0] == spans[1];
    pos = spans[1];
  }
  size_t end = m.off.byte[std::max(endpos, int64_t(0))];
  gaps.push_back(Value::of(std::string_view(m.text).substr(last, end > last ? end - last : 0)));
  return Value::tuple({Value::list(matches), Value::list(gaps)});
}

}  // namespace

extern const amps_reg re_natives[] = {
    {"_re_compile", native<re_compile>, AMPS_CAST_NONE, nullptr},
    {"_re_exec", native<re_exec>, AMPS_CAST_NONE, nullptr},
    {"_re_scan", native<re_scan>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace amps::stdlib::re
