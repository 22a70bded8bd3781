// Atomic file replacement (temporary file, fsync, rename, directory fsync) and errno mapping.
#include "stdlib/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib::io {
const char* errno_kind(int err, const char* fallback) {
  switch (err) {
    case ENOENT: return "FileNotFoundError";
    case EACCES: case EPERM: return "PermissionError";
    case ENOTDIR: return "NotADirectoryError";
    case EISDIR: return "IsADirectoryError";
    case EEXIST: return "FileExistsError";
    default: return fallback;
  }
}

namespace {

// Closes a descriptor on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() { if (fd >= 0) ::close(fd); }
};

// The mode the file gets: an existing file's, else 0666 less the umask (mkstemp makes 0600).
mode_t file_mode(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return st.st_mode & 07777;
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

void fsync_dir(const std::filesystem::path& dir, const std::string& path) {
  Fd d{::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY)};
  if (d.fd < 0 || ::fsync(d.fd) != 0) os_error("sync the directory of", path);
}

}  // namespace

void os_error(const char* what, const std::string& path) {
  int err = errno;
  fail(errno_kind(err, "OSError"), fmt::format("cannot {} '{}': {}", what, path, std::strerror(err)));
}

void write_all(int fd, const void* data, size_t n, const std::string& path) {
  auto* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, std::min<size_t>(n, size_t(1) << 30));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) os_error("write", path);
    p += w, n -= size_t(w);
  }
}

void atomic_write(const std::string& path, const std::function<void(int fd)>& body) {
  std::filesystem::path target(path);
  std::error_code ec;   // like `mkdir -p`: a checkpoint directory is created on first save
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  std::string tmp = (target.parent_path() / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  Fd f{::mkstemp(tmp.data())};
  if (f.fd < 0) os_error("create a temporary file next to", path);
  try {
    if (::fchmod(f.fd, file_mode(path)) != 0) os_error("set the mode of a temporary file next to", path);
    body(f.fd);
    if (::fsync(f.fd) != 0) os_error("sync", path);
    if (::close(std::exchange(f.fd, -1)) != 0) os_error("close", path);
    if (::rename(tmp.c_str(), path.c_str()) != 0) os_error("rename the temporary file onto", path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  fsync_dir(target.parent_path(), path);
}

}  // namespace amps::stdlib::io
