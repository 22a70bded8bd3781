// Python-style text files over stdio (see text_file.hpp). Kinds: OSErrors by errno as Python names them,
// ValueError "I/O operation on closed file.", UnsupportedOperation (Python's io.UnsupportedOperation, an
// OSError and ValueError there) for "not readable" / "not writable" and text-mode seeks, UnicodeDecodeError.
#include "stdlib/io/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "stdlib/io/atomic_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::io {
namespace {

// Python's repr of a str path: single quotes unless it holds one and no double quote.
std::string quoted(const std::string& s) {
  char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) out += (c == q || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + q;
}

// The byte count of a UTF-8 sequence from its lead byte (0: not a lead byte).
int utf8_size(int lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

int64_t utf8_chars(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

const char* fdopen_mode(const OpenMode& m) {
  if (m.kind == 'r') return m.plus ? "r+" : "r";
  if (m.kind == 'a') return m.plus ? "a+" : "a";
  return m.plus ? "w+" : "w";   // w and x: the file is new or truncated already
}

}  // namespace

int OpenMode::os_flags() const {
  int rw = plus ? O_RDWR : kind == 'r' ? O_RDONLY : O_WRONLY;
  int extra = kind == 'w' ? O_CREAT | O_TRUNC : kind == 'a' ? O_CREAT | O_APPEND : kind == 'x' ? O_CREAT | O_EXCL : 0;
  return rw | extra | O_CLOEXEC;
}

OpenMode parse_open_mode(const std::string& mode) {
  OpenMode m;
  int kinds = 0;
  bool text = false;
  std::string seen;
  for (char c : mode) {
    if (std::string_view("rwaxbt+").find(c) == std::string_view::npos || seen.find(c) != std::string::npos)
      fail("ValueError", "invalid mode: " + quoted(mode));
    seen += c;
    if (c == 'b') m.binary = true;
    else if (c == 't') text = true;
    else if (c == '+') m.plus = true;
    else m.kind = c, ++kinds;
  }
  if (text && m.binary) fail("ValueError", "can't have text and binary mode at once");
  if (kinds > 1) fail("ValueError", "must have exactly one of create/read/write/append mode");
  if (kinds == 0) fail("ValueError", "Must have exactly one of create/read/write/append mode and at most one plus");   // FileIO's
  return m;
}

void check_newline(const std::optional<std::string>& nl) {
  if (nl && !nl->empty() && *nl != "\n" && *nl != "\r" && *nl != "\r\n")
    fail("ValueError", "illegal newline value: " + *nl);
}

std::string errno_message(int err, const std::string& path) {
  return fmt::format("[Errno {}] {}: {}", err, std::strerror(err), quoted(path));
}

TextFile::TextFile(std::string path, const std::string& mode, std::optional<std::string> newline)
    : path_(std::move(path)), mode_text_(mode), mode_(parse_open_mode(mode)), newline_(std::move(newline)) {
  check_newline(newline_);
  int fd = ::open(path_.c_str(), mode_.os_flags(), 0666);
  if (fd < 0) os_fail();
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    errno = EISDIR;
    os_fail();
  }
  f_ = ::fdopen(fd, fdopen_mode(mode_));
  if (!f_) {
    int err = errno;
    ::close(fd);
    errno = err;
    os_fail();
  }
  if (mode_.kind == 'a') std::fseek(f_, 0, SEEK_END);   // Python starts an append-mode file at its end (a+ reads "")
}

TextFile::~TextFile() {
  if (f_) std::fclose(f_);
}

void TextFile::os_fail() {
  int err = errno;
  fail(errno_kind(err, "OSError"), errno_message(err, path_));
}

void TextFile::check_open() const {
  if (!f_) fail("ValueError", "I/O operation on closed file.");
}

bool TextFile::readable() const {
  check_open();
  return mode_.readable();
}

bool TextFile::writable() const {
  check_open();
  return mode_.writable();
}

bool TextFile::seekable() const {
  check_open();
  return ::lseek(::fileno(f_), 0, SEEK_CUR) != -1;
}

void TextFile::check_readable() {
  if (!readable()) fail("UnsupportedOperation", "not readable");
  switch_to(true);
}

void TextFile::check_writable() {
  if (!writable()) fail("UnsupportedOperation", "not writable");
  switch_to(false);
}

void TextFile::switch_to(bool reading) {
  int op = reading ? 1 : 2;
  if (last_op_ != 0 && last_op_ != op) std::fseek(f_, 0, SEEK_CUR);
  last_op_ = op;
}

int TextFile::get_byte() {
  int c = std::getc(f_);
  if (c == EOF && std::ferror(f_)) os_fail();
  return c;
}

void TextFile::decode_error(int byte, const char* why) {
  long at = std::ftell(f_) - 1;
  fail("UnicodeDecodeError", fmt::format("'utf-8' codec can't decode byte 0x{:02x} in position {}: {} (reading {}; amps "
                                         "reads text files as UTF-8 only)", byte, at, why, quoted(path_)));
}

// One character: UTF-8 validated, "\r\n" and "\r" read as "\n" under universal newlines (newline=none).
bool TextFile::next_char(std::string& out) {
  int c = get_byte();
  if (c == EOF) return false;
  if (c == '\r' && !newline_) {
    int d = get_byte();
    if (d != '\n' && d != EOF) std::ungetc(d, f_);
    out += '\n';
    return true;
  }
  int n = utf8_size(c);
  if (n == 0) decode_error(c, "invalid start byte");
  out += char(c);
  for (int i = 1; i < n; ++i) {
    int d = get_byte();
    if (d == EOF) decode_error(c, "unexpected end of data");
    if ((d & 0xC0) != 0x80) decode_error(c, "invalid continuation byte");
    out += char(d);
  }
  return true;
}

std::string TextFile::read(int64_t chars) {
  check_readable();
  std::string out;
  for (int64_t n = 0; chars < 0 || n < chars; ++n)
    if (!next_char(out)) break;
  return out;
}

// True when [line] (read from [start]) ends with the terminator newline= selects.
bool TextFile::line_done(std::string& line, size_t start) {
  char last = line.back();
  if (!newline_ || *newline_ == "\n") return last == '\n';
  if (*newline_ == "\r") return last == '\r';
  if (*newline_ == "\r\n") return line.size() - start >= 2 && last == '\n' && line[line.size() - 2] == '\r';
  if (last == '\n') return true;   // newline="": any of \n, \r\n, \r ends a line, untranslated
  if (last != '\r') return false;
  int d = get_byte();   // "\r\n" stays one terminator
  if (d == '\n') line += '\n';
  else if (d != EOF) std::ungetc(d, f_);
  return true;
}

std::string TextFile::readline(int64_t chars) {
  check_readable();
  std::string out;
  for (int64_t n = 0; chars < 0 || n < chars; ++n) {
    if (!next_char(out)) break;
    if (line_done(out, 0)) break;
  }
  return out;
}

int64_t TextFile::write(std::string_view s) {
  check_writable();
  int64_t chars = utf8_chars(s);
  std::string translated;
  if (newline_ && (*newline_ == "\r" || *newline_ == "\r\n")) {
    for (char c : s) translated += c == '\n' ? *newline_ : std::string(1, c);
    s = translated;
  }
  if (!s.empty() && std::fwrite(s.data(), 1, s.size(), f_) != s.size()) os_fail();
  return chars;
}

void TextFile::flush() {
  check_open();
  if (std::fflush(f_) != 0) os_fail();
}

void TextFile::close() {
  if (!f_) return;
  std::FILE* f = std::exchange(f_, nullptr);
  if (std::fclose(f) != 0) os_fail();
}

int64_t TextFile::tell() {
  check_open();
  long at = std::ftell(f_);
  if (at < 0) os_fail();
  return at;
}

int64_t TextFile::seek(int64_t offset, int whence) {
  check_open();
  if (whence < 0 || whence > 2) fail("ValueError", fmt::format("invalid whence ({}, should be 0, 1 or 2)", whence));
  if (whence == 1 && offset != 0) fail("UnsupportedOperation", "can't do nonzero cur-relative seeks");
  if (whence == 2 && offset != 0) fail("UnsupportedOperation", "can't do nonzero end-relative seeks");
  if (whence == 0 && offset < 0) fail("ValueError", fmt::format("negative seek position {}", offset));
  if (std::fseek(f_, long(offset), whence == 0 ? SEEK_SET : whence == 1 ? SEEK_CUR : SEEK_END) != 0) os_fail();
  last_op_ = 0;
  return tell();
}

}  // namespace amps::stdlib::io
