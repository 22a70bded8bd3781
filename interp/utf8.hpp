// Strings hold UTF-8; the language counts, indexes and iterates them by character (code point), as Python.
// A byte that does not start a valid sequence counts as one character of its own, so no input is rejected here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace amps::interp {

// The byte length of the character starting at [s][i] (1 for an invalid or truncated sequence).
size_t utf8_char_size(std::string_view s, size_t i);
// [s] split into its characters.
std::vector<std::string_view> utf8_chars(std::string_view s);
// True when every byte of [s] is ASCII (then byte offsets are character indices).
bool utf8_is_ascii(std::string_view s);
// The number of characters in [s].
int64_t utf8_length(std::string_view s);
// The character index of byte offset [byte] of [s] (a character boundary).
int64_t utf8_index_of_byte(std::string_view s, size_t byte);

}  // namespace amps::interp
