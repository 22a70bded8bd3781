// rt::Error construction and the internal-invariant abort.
#include "runtime/error.hpp"

#include <cstdio>
#include <cstdlib>

namespace amps::rt {

Error::Error(std::string kind, std::string message)
    : std::runtime_error(message), kind_(std::move(kind)), message_(std::move(message)) {}

void internal_abort(const char* file, int line, const char* cond, const std::string& msg) {
  std::fprintf(stderr, "%s:%d: internal error: assertion '%s' failed: %s\n", file, line, cond, msg.c_str());
  std::abort();
}

}  // namespace amps::rt
