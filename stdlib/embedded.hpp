// The stdlib modules written in amps, embedded as text at build time (see CMakeLists.txt).
#pragma once

#include <string_view>

namespace amps::stdlib {

// The embedded source of stdlib module `name`, or an empty view when there is none.
std::string_view embedded_source(std::string_view name);

}  // namespace amps::stdlib
