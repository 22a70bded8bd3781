// Python's text files (io.TextIOWrapper over a FileIO) for the built-in open(): modes r w a x with
// `+`, UTF-8 only, Python's newline= translation, reads counted in characters (code points).
// Errors are amps::ScriptError with Python's kinds and messages (see text_file.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace amps::stdlib::io {

// A parsed open() mode: exactly one of r w a x, maybe `+` and `t`; Python's ValueErrors otherwise
// ("invalid mode: 'q'", "must have exactly one of create/read/write/append mode", ...). Binary modes
// parse (binary = true); open() refuses them since amps has no bytes.
struct OpenMode {
  char kind = 'r';   // r w a x
  bool plus = false, binary = false;
  bool readable() const { return kind == 'r' || plus; }
  bool writable() const { return kind != 'r' || plus; }
  int os_flags() const;   // open(2) flags (O_CLOEXEC included)
};
OpenMode parse_open_mode(const std::string& mode);

// Python's newline= values: none (universal newlines, translated to "\n"), "", "\n", "\r", "\r\n";
// ValueError "illegal newline value: x" otherwise.
void check_newline(const std::optional<std::string>& newline);

// "[Errno 2] No such file or directory: 'x'" as OSError's str() (errno from the failed call).
std::string errno_message(int err, const std::string& path);

class TextFile {
 public:
  // Opens [path] (Python's OSErrors: FileNotFoundError, IsADirectoryError, FileExistsError,
  // PermissionError, ... with errno_message).
  TextFile(std::string path, const std::string& mode, std::optional<std::string> newline);
  ~TextFile();
  TextFile(const TextFile&) = delete;
  TextFile& operator=(const TextFile&) = delete;

  const std::string& name() const { return path_; }
  const std::string& mode() const { return mode_text_; }
  bool closed() const { return f_ == nullptr; }
  bool readable() const;   // these three raise ValueError on a closed file, as Python's
  bool writable() const;
  bool seekable() const;   // lseek works (false for pipes and terminals)

  // Up to [chars] characters (all the rest when negative); "" at the end of the file.
  std::string read(int64_t chars);
  // The next line with its terminator (up to [chars] characters when non-negative); "" at the end.
  std::string readline(int64_t chars);
  // Writes [s] (newline-translated); returns its length in characters.
  int64_t write(std::string_view s);
  void flush();
  void close();   // idempotent; flushes
  // Byte offsets, as CPython's cookies are for UTF-8 without decoder state.
  int64_t tell();
  int64_t seek(int64_t offset, int whence);

 private:
  void check_open() const;
  void check_readable();
  void check_writable();
  void switch_to(bool reading);
  int get_byte();
  bool next_char(std::string& out);   // appends one (translated) character; false at the end
  bool line_done(std::string& line, size_t start);
  [[noreturn]] void decode_error(int byte, const char* why);
  [[noreturn]] void os_fail();

  std::string path_, mode_text_;
  OpenMode mode_;
  std::optional<std::string> newline_;
  std::FILE* f_ = nullptr;
  int last_op_ = 0;   // 1 read, 2 write: a `+` file seeks between the two, as C requires
};

}  // namespace amps::stdlib::io
