// rt::Error, the one exception type for errors a script can cause, and AMPS_ASSERT for internal invariants.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace amps::rt {

// A user-facing error: [kind] is the Python exception name a script sees ("RuntimeError", "TypeError",
// "ValueError", "IndexError", "NotImplementedError"); [message] is PyTorch-style text naming the op,
// the argument and the offending shapes/dtypes. The interpreter adds the source span.
class Error : public std::runtime_error {
 public:
  Error(std::string kind, std::string message);
  const std::string& kind() const { return kind_; }
  const std::string& message() const { return message_; }

 private:
  std::string kind_;
  std::string message_;
};

// Internal invariant failed: prints file:line and aborts. Never used for user input.
[[noreturn]] void internal_abort(const char* file, int line, const char* cond, const std::string& msg);

}  // namespace amps::rt

// AMPS_CHECK(cond, fmt, args...) throws RuntimeError; the _KIND variants pick another Python error kind.
#define AMPS_CHECK_KIND(kind, cond, ...)                                         \
  do {                                                                           \
    if (!(cond)) [[unlikely]]                                                    \
      throw ::amps::rt::Error(kind, ::fmt::format(__VA_ARGS__));                 \
  } while (0)
#define AMPS_CHECK(cond, ...) AMPS_CHECK_KIND("RuntimeError", cond, __VA_ARGS__)
#define AMPS_CHECK_TYPE(cond, ...) AMPS_CHECK_KIND("TypeError", cond, __VA_ARGS__)
#define AMPS_CHECK_VALUE(cond, ...) AMPS_CHECK_KIND("ValueError", cond, __VA_ARGS__)
#define AMPS_CHECK_INDEX(cond, ...) AMPS_CHECK_KIND("IndexError", cond, __VA_ARGS__)
#define AMPS_FAIL(...) throw ::amps::rt::Error("RuntimeError", ::fmt::format(__VA_ARGS__))

// AMPS_ASSERT(cond, fmt, args...) guards internal invariants: a failure is a bug in amps, not in the script.
#define AMPS_ASSERT(cond, ...)                                                          \
  do {                                                                                  \
    if (!(cond)) [[unlikely]]                                                           \
      ::amps::rt::internal_abort(__FILE__, __LINE__, #cond, ::fmt::format(__VA_ARGS__)); \
  } while (0)
