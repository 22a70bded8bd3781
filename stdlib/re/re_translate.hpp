// Python 3.11 `re` pattern syntax -> PCRE2 pattern syntax (stdlib/re/re_translate.cpp).
//
// The translator walks a Python pattern once, in code points, and writes the PCRE2 pattern that matches the same
// strings, reporting Python's own re.error messages and positions (in characters) for the mistakes Python's parser
// rejects: PCRE2 accepts more (\h, \K, (?|...), POSIX classes, (*VERBS), ...), and what it rejects it words
// differently. What the translation changes: \Z -> \z, \v -> \x{0b}, \b in a class -> \x{08}, \uXXXX / \UXXXXXXXX
// / \xXX / octal escapes -> \x{...}, group references \N -> \g{N}, `[` inside a class -> \[, {,n} -> {0,n}, verbose
// whitespace and comments dropped, (?#...) dropped, global (?a) / (?u) read as flags. Python features PCRE2 lacks
// are refused with an error that says so (\N{name}, scoped (?a:...), non-ASCII group names).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace amps::stdlib::re {

// Python's flag values (re.IGNORECASE ...).
enum : int { kIgnoreCase = 2, kLocale = 4, kMultiline = 8, kDotAll = 16, kUnicode = 32, kVerbose = 64, kAscii = 256 };

struct Translation {
  std::string pcre;                  // the PCRE2 pattern (UTF-8)
  int flags = 0;                     // the Python flags after inline global flags, e.g. (?i)
  int groups = 0;                    // number of capturing groups
  std::vector<int> parents;          // parents[g - 1]: the group enclosing group g (0: none)
  std::map<std::string, int> names;  // group name -> number
  std::string error;                 // non-empty: Python's re.error message
  long error_pos = -1;               // its position in characters, -1 when Python gives none
};

// Translates the UTF-8 Python pattern [pattern] compiled with the Python [flags].
Translation translate(const std::string& pattern, int flags);

// Appends code point [c] to [out] as UTF-8.
void put_utf8(std::string& out, char32_t c);
// The code points of the UTF-8 text [s] (invalid bytes are taken as U+FFFD).
std::u32string decode_utf8(const std::string& s);

}  // namespace amps::stdlib::re
