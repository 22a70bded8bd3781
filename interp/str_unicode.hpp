// Code-point level helpers for the str methods: UTF-8 <-> code points and Python's character classes.
// Case mapping and letter classes come from the C library's C.UTF-8 tables (Unicode, one code point to one code
// point: Python's multi-character special cases such as 'ß'.upper() == 'SS' are not made). Digits are ASCII only.
#pragma once

#include <string>
#include <string_view>

namespace amps::interp {

// [s] as code points; a byte that starts no valid sequence becomes U+DC00+byte so encode() gives it back unchanged.
std::u32string utf8_decode(std::string_view s);
std::string utf8_encode(std::u32string_view s);

bool uc_is_space(char32_t c);      // Python's str.isspace set (also split()/strip() whitespace)
bool uc_is_alpha(char32_t c);
bool uc_is_decimal(char32_t c);    // ASCII '0'-'9'
bool uc_is_upper(char32_t c);      // a cased upper-case letter
bool uc_is_lower(char32_t c);      // a cased lower-case letter
bool uc_is_printable(char32_t c);
bool uc_is_linebreak(char32_t c);  // str.splitlines boundaries
char32_t uc_upper(char32_t c);
char32_t uc_lower(char32_t c);

}  // namespace amps::interp
