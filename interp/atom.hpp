// Interned strings: names and attribute keys compare and hash by pointer.
#pragma once

#include <string>
#include <string_view>

namespace amps::interp {

// An interned, immutable string. Equal text gives the same pointer for the process lifetime;
// the intern table is append-only and thread-safe (it holds no interpreter state).
using Atom = const std::string*;

Atom intern(std::string_view text);

}  // namespace amps::interp
