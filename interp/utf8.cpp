#include "interp/utf8.hpp"

namespace amps::interp {

size_t utf8_char_size(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
  if (i + n > s.size()) return 1;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 1;
  return n;
}

std::vector<std::string_view> utf8_chars(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_char_size(s, i);
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

bool utf8_is_ascii(std::string_view s) {
  unsigned char any = 0;
  for (char c : s) any |= static_cast<unsigned char>(c);  // branch-free: vectorised
  return any < 0x80;
}

int64_t utf8_length(std::string_view s) {
  if (utf8_is_ascii(s)) return int64_t(s.size());
  int64_t n = 0;
  for (size_t i = 0; i < s.size(); i += utf8_char_size(s, i)) ++n;
  return n;
}

int64_t utf8_index_of_byte(std::string_view s, size_t byte) { return utf8_length(s.substr(0, byte)); }

}  // namespace amps::interp
