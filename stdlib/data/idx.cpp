// IDX reader over zlib's gz* interface (see idx.hpp).
#include "stdlib/data/idx.hpp"

#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <memory>

#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {
namespace {

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  fail("ValueError", fmt::format("'{}' is not a valid IDX file: {}", path, why));
}

// The whole decompressed content; gzread passes plain files through unchanged.
std::vector<uint8_t> gunzip(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    fail(errno == ENOENT ? "FileNotFoundError" : "OSError", fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), gzclose);
  if (!f) fail("OSError", fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  gzbuffer(f.get(), 1 << 20);
  std::vector<uint8_t> out;
  for (;;) {
    size_t at = out.size();
    out.resize(at + (1 << 22));
    int n = gzread(f.get(), out.data() + at, 1 << 22);
    int err = Z_OK;
    const char* msg = gzerror(f.get(), &err);
    if (n < 0 || (err != Z_OK && err != Z_STREAM_END)) corrupt(path, fmt::format("gzip data is damaged ({})", msg));
    out.resize(at + size_t(n));
    if (n == 0) return out;
  }
}

uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }

}  // namespace

IdxArray read_idx(const std::string& path, int ndim) {
  std::vector<uint8_t> raw = gunzip(path);
  size_t head = 4 + 4 * size_t(ndim);
  if (raw.size() < 4) corrupt(path, fmt::format("{} bytes is too short for the magic number (truncated)", raw.size()));
  if (raw[0] != 0 || raw[1] != 0 || raw[2] != 0x08 || raw[3] != ndim)
    corrupt(path, fmt::format("magic number 0x{:08x}, expected 0x{:08x} (unsigned bytes, {} dimensions)", be32(raw.data()),
                              0x0800u | unsigned(ndim), ndim));
  if (raw.size() < head) corrupt(path, fmt::format("{} bytes is too short for the header (truncated)", raw.size()));
  IdxArray a;
  unsigned __int128 count = 1;   // a corrupt header must not overflow the size check
  for (int d = 0; d < ndim; ++d) {
    a.dims.push_back(be32(raw.data() + 4 + 4 * d));
    count *= uint64_t(a.dims.back());
  }
  if (raw.size() - head != count)
    corrupt(path, fmt::format("the header declares {} data bytes but the file holds {} ({})", uint64_t(std::min<unsigned __int128>(count, UINT64_MAX)), raw.size() - head,
                              raw.size() - head < count ? "truncated" : "trailing bytes"));
  raw.erase(raw.begin(), raw.begin() + std::ptrdiff_t(head));
  a.bytes = std::move(raw);
  return a;
}

}  // namespace amps::stdlib::data
