#include "interp/str_unicode.hpp"

#include <locale.h>
#include <wctype.h>

#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

// The C.UTF-8 locale for the w* classification calls; null (ASCII only) where the C library lacks it.
locale_t utf8_locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t(0));
  return loc;
}

bool ascii(char32_t c) { return c < 0x80; }

}  // namespace

std::u32string utf8_decode(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_char_size(s, i);
    const auto b = static_cast<unsigned char>(s[i]);
    if (n == 1) {
      out.push_back(b < 0x80 ? char32_t(b) : char32_t(0xDC00 + b));
    } else {
      char32_t c = n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
      for (size_t k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      out.push_back(c);
    }
    i += n;
  }
  return out;
}

std::string utf8_encode(std::u32string_view s) {
  std::string out;
  for (char32_t c : s) {
    if (c >= 0xDC80 && c <= 0xDCFF) out.push_back(char(c - 0xDC00));
    else if (c < 0x80) out.push_back(char(c));
    else if (c < 0x800) out += {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
    else if (c < 0x10000) out += {char(0xE0 | (c >> 12)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
    else
      out += {char(0xF0 | (c >> 18)), char(0x80 | ((c >> 12) & 0x3F)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
  }
  return out;
}

bool uc_is_space(char32_t c) {
  return (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool uc_is_alpha(char32_t c) {
  if (ascii(c) || !utf8_locale()) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
  return iswalpha_l(wint_t(c), utf8_locale()) && !uc_is_decimal(c);
}

bool uc_is_decimal(char32_t c) { return c >= '0' && c <= '9'; }

bool uc_is_upper(char32_t c) {
  if (ascii(c) || !utf8_locale()) return c >= 'A' && c <= 'Z';
  return iswupper_l(wint_t(c), utf8_locale());
}

bool uc_is_lower(char32_t c) {
  if (ascii(c) || !utf8_locale()) return c >= 'a' && c <= 'z';
  return iswlower_l(wint_t(c), utf8_locale());
}

bool uc_is_printable(char32_t c) {
  if (c == ' ') return true;
  if (ascii(c) || !utf8_locale()) return c > 0x20 && c < 0x7F;
  return !uc_is_space(c) && iswprint_l(wint_t(c), utf8_locale()) && !(c >= 0xDC80 && c <= 0xDCFF);
}

bool uc_is_linebreak(char32_t c) {
  return (c >= 10 && c <= 13) || c == 0x1C || c == 0x1D || c == 0x1E || c == 0x85 || c == 0x2028 || c == 0x2029;
}

char32_t uc_upper(char32_t c) {
  if (ascii(c) || !utf8_locale()) return c >= 'a' && c <= 'z' ? c - 32 : c;
  return char32_t(towupper_l(wint_t(c), utf8_locale()));
}

char32_t uc_lower(char32_t c) {
  if (ascii(c) || !utf8_locale()) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  return char32_t(towlower_l(wint_t(c), utf8_locale()));
}

}  // namespace amps::interp
