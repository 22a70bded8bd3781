// Python pattern -> PCRE2 pattern; see re_translate.hpp. Each parse step mirrors a branch of CPython 3.11's
// Lib/re/_parser.py (_parse, _escape, _class_escape, parse of `(?`), so errors carry its messages and positions.
#include "stdlib/re/re_translate.hpp"

#include <fmt/format.h>

namespace amps::stdlib::re {

void put_utf8(std::string& out, char32_t c) {
  if (c < 0x80) { out += char(c); return; }
  if (c < 0x800) { out += char(0xC0 | (c >> 6)); out += char(0x80 | (c & 0x3F)); return; }
  if (c < 0x10000) { out += char(0xE0 | (c >> 12)); out += char(0x80 | ((c >> 6) & 0x3F)); out += char(0x80 | (c & 0x3F)); return; }
  out += char(0xF0 | (c >> 18)); out += char(0x80 | ((c >> 12) & 0x3F)); out += char(0x80 | ((c >> 6) & 0x3F)); out += char(0x80 | (c & 0x3F));
}

std::u32string decode_utf8(const std::string& s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    unsigned char b = s[i];
    int n = b < 0x80 ? 0 : b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : -1;
    if (n < 0 || i + n >= s.size()) { out += U'\uFFFD'; ++i; continue; }
    char32_t c = n == 0 ? b : b & (0x3F >> n);
    for (int k = 1; k <= n; ++k) c = (c << 6) | (s[i + k] & 0x3F);
    out += c;
    i += n + 1;
  }
  return out;
}

namespace {

struct PyError {
  std::string msg;
  long pos;
};

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool is_oct(char32_t c) { return c >= '0' && c <= '7'; }
bool is_hex(char32_t c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_ascii_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_word(char32_t c) { return is_ascii_letter(c) || is_digit(c) || c == '_' || c > 0x7F; }
bool is_space(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) put_utf8(out, c);
  return out;
}

// Python's Unicode \s (str.isspace()): PCRE2's UCP \s lacks \x1c-\x1f and adds U+180E. \S inside a class keeps
// PCRE2's meaning (a class cannot subtract), so it still differs on those five characters.
constexpr const char* kPythonSpace = "\\t-\\r\\x{1c}- \\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}";

// What came last, for Python's quantifier errors: nothing repeatable (start, `(`, `|`, an anchor), an atom, a
// quantifier, or a quantifier with its lazy/possessive suffix.
enum class Last { kNone, kAtom, kRepeat, kRepeatSuffix };

struct Open {
  long pos;                   // where the `(` is
  int group;                  // its group number, 0 when not capturing
  bool verbose;               // the verbose flag outside it (a scoped (?x:...) changes it inside)
  bool conditional = false;   // a (?(ref)yes|no) group, which takes one `|` at most
  int bars = 0;               // the `|` seen directly inside it
};

class Translator {
 public:
  Translator(const std::string& pattern, int flags) : p_(decode_utf8(pattern)) {
    t_.flags = flags;
    verbose_ = flags & kVerbose;
  }

  Translation run() {
    try {
      leading_flags();
      while (i_ < long(p_.size())) step();
      if (!open_.empty()) throw PyError{"missing ), unterminated subpattern", open_.back().pos};
      for (auto [g, pos] : cond_refs)   // Python checks the numbered conditions once every group is known
        if (g > t_.groups) throw PyError{fmt::format("invalid group reference {}", g), pos};
      t_.pcre = std::move(out_);
    } catch (const PyError& e) {
      t_.error = e.msg;
      t_.error_pos = e.pos;
    }
    return std::move(t_);
  }

 private:
  char32_t at(long k) const { return k < long(p_.size()) ? p_[k] : 0; }
  bool more(long k) const { return k < long(p_.size()); }
  std::string text(long a, long b) const { return utf8(p_.substr(a, b - a)); }

  // Global inline flags at the very start: (?i), (?aimsux) ... (possibly several groups).
  void leading_flags() {
    while (at(i_) == '(' && at(i_ + 1) == '?' && more(i_ + 2) && std::u32string_view(U"aiLmsux").find(at(i_ + 2)) != std::u32string_view::npos) {
      long k = i_ + 2;
      while (more(k) && std::u32string_view(U"aiLmsux").find(at(k)) != std::u32string_view::npos) ++k;
      if (at(k) != ')') return;   // scoped (?i:...) or an error: the general path reads it
      for (long j = i_ + 2; j < k; ++j) add_flag(at(j), j);
      i_ = k + 1;
    }
  }

  void add_flag(char32_t c, long pos) {
    switch (c) {
      case 'i': t_.flags |= kIgnoreCase; break;
      case 'm': t_.flags |= kMultiline; break;
      case 's': t_.flags |= kDotAll; break;
      case 'x': t_.flags |= kVerbose; verbose_ = true; break;
      case 'a': t_.flags |= kAscii; break;
      case 'u': t_.flags |= kUnicode; break;
      case 'L': throw PyError{"bad inline flags: cannot use 'L' flag with a str pattern", pos};
    }
    if ((t_.flags & kAscii) && (t_.flags & kUnicode) && c != 'i' && c != 'm' && c != 's' && c != 'x')
      throw PyError{"bad inline flags: flags 'a', 'u' and 'L' are incompatible", pos};
  }

  void step() {
    char32_t c = p_[i_];
    if (verbose_ && is_space(c)) { ++i_; return; }
    if (verbose_ && c == '#') {
      while (more(i_) && p_[i_] != '\n') ++i_;
      return;
    }
    switch (c) {
      case '\\': escape(); return;
      case '[': char_class(); last_ = Last::kAtom; return;
      case '(': open_paren(); return;
      case ')': close_paren(); return;
      case '|':
        if (!open_.empty() && open_.back().conditional && ++open_.back().bars > 1)
          throw PyError{"conditional backref with more than two branches", i_};
        out_ += '|'; ++i_; last_ = Last::kNone; return;
      case '^': case '$': out_ += char(c); ++i_; last_ = Last::kNone; return;
      case '*': case '+': case '?': quantifier(i_, i_ + 1, std::string(1, char(c))); return;
      case '{': if (brace_quantifier()) return; break;
      default: break;
    }
    put_utf8(out_, c);
    ++i_;
    last_ = Last::kAtom;
  }

  // A quantifier spanning [a, b) whose PCRE2 text is [q].
  void quantifier(long a, long b, const std::string& q) {
    if (last_ == Last::kNone) throw PyError{"nothing to repeat", a};
    if (last_ == Last::kRepeatSuffix || (last_ == Last::kRepeat && !(q == "?" || q == "+")))
      throw PyError{"multiple repeat", a};
    out_ += q;
    i_ = b;
    last_ = last_ == Last::kRepeat ? Last::kRepeatSuffix : Last::kRepeat;
  }

  // {m}, {m,}, {,n}, {m,n}; false when the brace is a literal (Python's rule: anything else).
  bool brace_quantifier() {
    long k = i_ + 1;
    std::string lo, hi;
    while (is_digit(at(k))) lo += char(p_[k++]);
    bool comma = at(k) == ',';
    if (comma) { ++k; while (is_digit(at(k))) hi += char(p_[k++]); }
    if (at(k) != '}' || (lo.empty() && !comma)) return false;
    if (lo.size() > 9 || hi.size() > 9 || (!lo.empty() && std::stol(lo) > 65535) || (!hi.empty() && std::stol(hi) > 65535))
      throw PyError{"the repetition number is too large for amps' re (PCRE2 takes at most 65535)", i_ + 1};
    if (!lo.empty() && !hi.empty() && std::stol(hi) < std::stol(lo)) throw PyError{"min repeat greater than max repeat", i_ + 1};
    if (last_ == Last::kNone) throw PyError{"nothing to repeat", i_};
    std::string q = "{" + (lo.empty() ? std::string("0") : lo) + (comma ? "," + hi : "") + "}";
    quantifier(i_, k + 1, q);
    return true;
  }

  // ---- escapes

  // A \x, \u or \U escape at [i_] with [n] hex digits: its code point (Python's errors when short or too large).
  char32_t hex_escape(int n) {
    long start = i_;
    std::u32string digits;
    for (int k = 0; k < n && is_hex(at(i_ + 2 + k)); ++k) digits += p_[i_ + 2 + k];
    if (int(digits.size()) < n)
      throw PyError{"incomplete escape " + text(start, start + 2 + long(digits.size())), start};
    unsigned long v = std::stoul(utf8(digits), nullptr, 16);
    if (v > 0x10FFFF) throw PyError{"bad escape " + text(start, start + 2 + n), start};
    i_ += 2 + n;
    return char32_t(v);
  }

  void put_code(char32_t c) { out_ += fmt::format("\\x{{{:x}}}", uint32_t(c)); }

  // The escapes both contexts share (\x \u \U \N, octal \0, the character escapes); false when not one of them.
  bool common_escape(char32_t e) {
    long start = i_;
    switch (e) {
      case 'x': put_code(hex_escape(2)); return true;
      case 'u': put_code(hex_escape(4)); return true;
      case 'U': put_code(hex_escape(8)); return true;
      case 'N': throw PyError{"\\N{...} named characters are not supported by amps' re (write the character itself or \\uXXXX)", start};
      case 'a': case 'f': case 'n': case 'r': case 't': case '\\': out_ += '\\'; out_ += char(e); i_ += 2; return true;
      case 'v': put_code(0x0B); i_ += 2; return true;
      default: return false;
    }
  }

  // An octal escape starting at digit position [k] with at most [n] digits.
  void octal(long k, int n) {
    long start = i_;
    unsigned v = 0;
    int used = 0;
    while (used < n && is_oct(at(k + used))) v = v * 8 + (p_[k + used++] - '0');
    if (v > 0377) throw PyError{"octal escape value " + text(start, k + used) + " outside of range 0-0o377", start};
    i_ = k + used;
    put_code(v);
  }

  void bad_escape() {
    if (!more(i_ + 1)) throw PyError{"bad escape (end of pattern)", i_};
    throw PyError{"bad escape " + text(i_, i_ + 2), i_};
  }

  void escape() {
    if (!more(i_ + 1)) bad_escape();
    char32_t e = p_[i_ + 1];
    last_ = Last::kAtom;
    if (common_escape(e)) return;
    switch (e) {
      case 'A': case 'b': case 'B': out_ += '\\'; out_ += char(e); i_ += 2; last_ = Last::kNone; return;
      case 'Z': out_ += "\\z"; i_ += 2; last_ = Last::kNone; return;
      case 's': case 'S':
        if (!(t_.flags & kAscii)) { out_ += e == 's' ? "[" : "[^"; out_ += kPythonSpace; out_ += ']'; i_ += 2; return; }
        out_ += '\\'; out_ += char(e); i_ += 2; return;
      case 'd': case 'D': case 'w': case 'W': out_ += '\\'; out_ += char(e); i_ += 2; return;
      default: break;
    }
    if (e == '0') { octal(i_ + 1, 3); return; }
    if (is_digit(e)) { group_ref(); return; }
    if (is_ascii_letter(e)) bad_escape();
    out_ += '\\';
    put_utf8(out_, e);
    i_ += 2;
  }

  // \1 .. \99 (or a three-digit octal escape such as \101).
  void group_ref() {
    long start = i_;
    long k = i_ + 1;
    std::string num(1, char(p_[k++]));
    if (is_digit(at(k))) {
      num += char(p_[k++]);
      if (is_oct(num[0]) && is_oct(num[1]) && is_oct(at(k))) { octal(start + 1, 3); return; }
    }
    int g = std::stoi(num);
    if (g <= t_.groups) {
      for (auto& o : open_)
        if (o.group == g) throw PyError{"cannot refer to an open group", start};
      out_ += fmt::format("\\g{{{}}}", g);
      i_ = k;
      return;
    }
    throw PyError{fmt::format("invalid group reference {}", g), start + 1};
  }

  // ---- character classes

  // One class item at [i_]: its code point, or -1 for a class escape (\d ...); appends its PCRE2 text.
  long class_item() {
    char32_t c = p_[i_];
    if (c != '\\') {
      if (c == '[') out_ += "\\[";
      else put_utf8(out_, c);
      ++i_;
      return long(c);
    }
    if (!more(i_ + 1)) throw PyError{"unterminated character set", class_start_};
    char32_t e = p_[i_ + 1];
    switch (e) {
      case 's':
        if (!(t_.flags & kAscii)) { out_ += kPythonSpace; i_ += 2; return -1; }
        out_ += "\\s"; i_ += 2; return -1;
      case 'd': case 'D': case 'S': case 'w': case 'W': out_ += '\\'; out_ += char(e); i_ += 2; return -1;
      case 'b': put_code(8); i_ += 2; return 8;
      case 'x': case 'u': case 'U': {
        char32_t v = hex_escape(e == 'x' ? 2 : e == 'u' ? 4 : 8);
        put_code(v);
        return long(v);
      }
      default: break;
    }
    if (common_escape(e)) {
      static const std::map<char32_t, char32_t> kCodes{{'a', 7}, {'f', 12}, {'n', 10}, {'r', 13}, {'t', 9}, {'\\', '\\'}, {'v', 11}};
      return long(kCodes.at(e));
    }
    if (is_oct(e)) {
      long k = i_ + 1;
      unsigned v = 0;
      int used = 0;
      while (used < 3 && is_oct(at(k + used))) v = v * 8 + (p_[k + used++] - '0');
      octal(k, 3);
      return long(v);
    }
    if (is_digit(e) || is_ascii_letter(e)) bad_escape();
    out_ += '\\';
    put_utf8(out_, e);
    i_ += 2;
    return long(e);
  }

  void char_class() {
    class_start_ = i_;
    out_ += '[';
    ++i_;
    if (at(i_) == '^') { out_ += '^'; ++i_; }
    bool first = true;
    for (;;) {
      if (!more(i_)) throw PyError{"unterminated character set", class_start_};
      if (p_[i_] == ']' && !first) { out_ += ']'; ++i_; return; }
      first = false;
      long item_start = i_;
      long lo = class_item();
      if (at(i_) == '-' && more(i_ + 1) && p_[i_ + 1] != ']') {
        out_ += '-';
        ++i_;
        long hi = class_item();
        if (lo < 0 || hi < 0) throw PyError{"bad character range " + text(item_start, i_), item_start};
        if (hi < lo) throw PyError{"bad character range " + text(item_start, i_), item_start};
      } else if (at(i_) == '-' && !more(i_ + 1)) {
        throw PyError{"unterminated character set", class_start_};
      }
    }
  }

  // ---- groups

  std::string group_name(long& k, char32_t end, const char* missing) {
    long start = k;
    while (more(k) && p_[k] != end) ++k;
    if (!more(k)) throw PyError{missing, start};
    std::u32string name = p_.substr(start, k - start);
    if (name.empty()) throw PyError{"missing group name", start};
    bool ok = !is_digit(name[0]);
    for (char32_t c : name) ok = ok && is_word(c);
    if (!ok) throw PyError{"bad character in group name '" + utf8(name) + "'", start};
    for (char32_t c : name)
      if (c > 0x7F) throw PyError{"amps' re (PCRE2 10.42) takes only ASCII group names: '" + utf8(name) + "'", start};
    if (name.size() > 32) throw PyError{"amps' re (PCRE2) takes group names of at most 32 characters: '" + utf8(name) + "'", start};
    ++k;   // past the end character
    return utf8(name);
  }

  void push_group(long pos, bool capturing) {
    int g = 0;
    if (capturing) {
      g = ++t_.groups;
      t_.parents.push_back(innermost_group());
    }
    open_.push_back(Open{pos, g, verbose_});
    last_ = Last::kNone;
  }

  int innermost_group() const {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
      if (it->group) return it->group;
    return 0;
  }

  void open_paren() {
    long start = i_;
    if (at(i_ + 1) != '?') { out_ += '('; ++i_; push_group(start, true); return; }
    long k = i_ + 2;
    if (!more(k)) throw PyError{"unexpected end of pattern", k};
    char32_t c = p_[k];
    if (c == 'P') { p_group(start, k + 1); return; }
    if (c == '#') {
      while (more(k) && p_[k] != ')') ++k;
      if (!more(k)) throw PyError{"missing ), unterminated comment", start};
      i_ = k + 1;
      return;
    }
    if (c == ':' || c == '=' || c == '!' || c == '>') { out_ += "(?"; out_ += char(c); i_ = k + 1; push_group(start, false); return; }
    if (c == '<') {
      char32_t d = at(k + 1);
      if (!more(k + 1)) throw PyError{"unexpected end of pattern", k + 1};
      if (d != '=' && d != '!') throw PyError{"unknown extension ?<" + text(k + 1, k + 2), k - 1 + 0};
      out_ += "(?<";
      out_ += char(d);
      i_ = k + 2;
      push_group(start, false);
      return;
    }
    if (c == '(') { conditional(start, k + 1); return; }
    if (std::u32string_view(U"aiLmsux-").find(c) != std::u32string_view::npos) { inline_flags(start, k); return; }
    throw PyError{"unknown extension ?" + text(k, k + 1), k - 1};
  }

  // (?P<name>...), (?P=name)
  void p_group(long start, long k) {
    char32_t c = at(k);
    if (c == '<') {
      ++k;
      std::string name = group_name(k, '>', "missing >, unterminated name");
      auto found = t_.names.find(name);
      if (found != t_.names.end())
        throw PyError{fmt::format("redefinition of group name '{}' as group {}; was group {}", name, t_.groups + 1, found->second), start + 4};
      out_ += "(?P<" + name + ">";
      i_ = k;
      push_group(start, true);
      t_.names[name] = t_.groups;
      return;
    }
    if (c == '=') {
      ++k;
      long name_at = k;
      std::string name = group_name(k, ')', "missing ), unterminated name");
      auto found = t_.names.find(name);
      if (found == t_.names.end()) throw PyError{"unknown group name '" + name + "'", name_at};
      for (auto& o : open_)
        if (o.group == found->second) throw PyError{"cannot refer to an open group", name_at};
      out_ += fmt::format("\\g{{{}}}", found->second);
      i_ = k;
      last_ = Last::kAtom;
      return;
    }
    if (!more(k)) throw PyError{"unexpected end of pattern", k};
    throw PyError{"unknown extension ?P" + text(k, k + 1), start + 1};
  }

  // (?(1)yes|no), (?(name)yes|no)
  void conditional(long start, long k) {
    long name_at = k;
    while (more(k) && p_[k] != ')') ++k;
    if (!more(k)) throw PyError{"missing ), unterminated name", name_at};
    std::string ref = text(name_at, k);
    if (ref.empty()) throw PyError{"missing group name", name_at};
    bool digits = true;
    for (char c : ref) digits = digits && c >= '0' && c <= '9';
    if (!digits) {
      if (!t_.names.count(ref)) throw PyError{"unknown group name '" + ref + "'", name_at};
      ref = std::to_string(t_.names[ref]);
    } else if (std::stol(ref.substr(0, 9)) == 0) {
      throw PyError{"bad group number", name_at};
    } else {
      cond_refs.emplace_back(std::stol(ref.substr(0, 9)), name_at);
    }
    out_ += "(?(" + ref + ")";
    i_ = k + 1;
    push_group(start, false);
    open_.back().conditional = true;
  }

  // (?imsx-imsx:...) scoped flags, or (?imsx) global flags (only at the start: leading_flags reads those).
  void inline_flags(long start, long k) {
    std::string on, off;
    bool minus = false;
    for (; more(k) && std::u32string_view(U"aiLmsux-").find(p_[k]) != std::u32string_view::npos; ++k) {
      char32_t c = p_[k];
      if (c == '-') { if (minus) throw PyError{"bad inline flags: flag turned on and off", k}; minus = true; continue; }
      if (c == 'L') throw PyError{"bad inline flags: cannot use 'L' flag with a str pattern", k};
      if (c == 'a') throw PyError{"scoped ASCII flags (?a:...) are not supported by amps' re (use re.ASCII for the whole pattern)", k};
      if (c == 'u') continue;
      (minus ? off : on) += char(c);
    }
    if (!more(k)) throw PyError{"missing -, : or )", k};
    if (p_[k] == ')') throw PyError{"global flags not at the start of the expression", start};
    if (p_[k] != ':') throw PyError{(minus ? "unknown flag" : "missing -, : or )"), k};
    if (minus && off.empty()) throw PyError{"missing flag", k};
    bool was_verbose = verbose_;
    out_ += "(?" + on + (minus ? "-" + off : "") + ":";
    i_ = k + 1;
    push_group(start, false);
    open_.back().verbose = was_verbose;
    if (on.find('x') != std::string::npos) verbose_ = true;
    if (off.find('x') != std::string::npos) verbose_ = false;
  }

  void close_paren() {
    if (open_.empty()) throw PyError{"unbalanced parenthesis", i_};
    verbose_ = open_.back().verbose;
    open_.pop_back();
    out_ += ')';
    ++i_;
    last_ = Last::kAtom;
  }

  std::u32string p_;
  long i_ = 0;
  long class_start_ = 0;
  std::string out_;
  bool verbose_ = false;
  Last last_ = Last::kNone;
  std::vector<Open> open_;
  std::vector<std::pair<long, long>> cond_refs;   // (group number, position) of each (?(N)...)
  Translation t_;
};

}  // namespace

Translation translate(const std::string& pattern, int flags) { return Translator(pattern, flags).run(); }

}  // namespace amps::stdlib::re
