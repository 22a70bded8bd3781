// Atomic file replacement and the OS-error mapping shared by the file-writing parts of the stdlib.
#pragma once

#include <functional>
#include <string>

namespace amps::stdlib::io {

// The amps error kind for an errno: FileNotFoundError, PermissionError, NotADirectoryError, IsADirectoryError,
// FileExistsError, else [fallback] (OSError: Python 3 has no separate IOError).
const char* errno_kind(int err, const char* fallback);

// Raises the amps error for errno after a failed [what] on [path] ("cannot open 'x': ..."):
// FileNotFoundError, PermissionError, NotADirectoryError, IsADirectoryError, FileExistsError, else OSError.
[[noreturn]] void os_error(const char* what, const std::string& path);

// Writes [path] atomically: [body] writes everything into the descriptor of a temporary file in the
// same directory (created with `mkdir -p` first), which is then fsynced, renamed over [path], and the
// directory fsynced. A failed or killed write leaves any previous [path] intact. The file keeps an
// existing file's mode, else 0666 less the umask.
void atomic_write(const std::string& path, const std::function<void(int fd)>& body);

// write(2) until all [n] bytes are out (EINTR retried); os_error on failure.
void write_all(int fd, const void* data, size_t n, const std::string& path);

}  // namespace amps::stdlib::io
