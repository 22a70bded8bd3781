// ZIP reading (stored, deflate via zlib; zip64 fields) and writing (stored), see zip_archive.hpp.
#include "stdlib/data/zip_archive.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "stdlib/io/atomic_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50, kLocator64Sig = 0x07064b50;

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  fail("ValueError", fmt::format("'{}' is not a valid .npz (zip) file: {}", path, why));
}

// Bounds-checked little-endian reads over the archive's bytes.
struct Bytes {
  const std::string& s;
  const std::string& path;
  void need(uint64_t at, uint64_t n, const char* what) const {
    if (at > s.size() || n > s.size() - at) corrupt(path, fmt::format("{} lies past the end of the file (truncated)", what));
  }
  uint64_t le(uint64_t at, int n, const char* what) const {
    need(at, uint64_t(n), what);
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | uint8_t(s[at + uint64_t(i)]);
    return v;
  }
};

struct Entry {
  std::string name;
  uint64_t csize, usize, offset;
  uint32_t crc;
  int method, flags;
};

// The end-of-central-directory record: entry count and central directory offset (zip64 when flagged).
std::pair<uint64_t, uint64_t> central_directory(const Bytes& b) {
  if (b.s.size() < 22 && b.s.rfind("\x93NUMPY", 0) != 0) corrupt(b.path, fmt::format("{} bytes is too short for a zip archive", b.s.size()));
  uint64_t lowest = b.s.size() >= 22 + 65535 ? b.s.size() - 22 - 65535 : 0;
  if (b.s.rfind("\x93NUMPY", 0) == 0) corrupt(b.path, "it is a .npy file: load it with data.load_npy");
  uint64_t at = b.s.size() - 22;
  while (b.le(at, 4, "the end record") != kEndSig) {
    if (at == lowest) corrupt(b.path, "no end-of-central-directory record (not a zip archive, or truncated)");
    --at;
  }
  uint64_t count = b.le(at + 10, 2, "the end record"), offset = b.le(at + 16, 4, "the end record");
  if (count != 0xFFFF && offset != 0xFFFFFFFF) return {count, offset};
  if (at < 20 || b.le(at - 20, 4, "the zip64 locator") != kLocator64Sig) corrupt(b.path, "a zip64 end record is flagged but missing");
  uint64_t end64 = b.le(at - 12, 8, "the zip64 locator");
  if (b.le(end64, 4, "the zip64 end record") != kEnd64Sig) corrupt(b.path, "the zip64 end record has a bad signature");
  return {b.le(end64 + 32, 8, "the zip64 end record"), b.le(end64 + 48, 8, "the zip64 end record")};
}

// Sizes and offset that the central entry marks 0xFFFFFFFF come from its zip64 extra field (id 1).
void apply_zip64(const Bytes& b, uint64_t extra, uint64_t len, Entry& e) {
  for (uint64_t at = extra; at + 4 <= extra + len;) {
    uint64_t id = b.le(at, 2, "an extra field"), size = b.le(at + 2, 2, "an extra field"), p = at + 4;
    if (id == 1) {
      for (uint64_t* field : {&e.usize, &e.csize, &e.offset})
        if (*field == 0xFFFFFFFF && p + 8 <= at + 4 + size) *field = b.le(p, 8, "a zip64 field"), p += 8;
    }
    at += 4 + size;
  }
}

std::vector<Entry> entries(const Bytes& b) {
  auto [count, at] = central_directory(b);
  std::vector<Entry> out;
  for (uint64_t i = 0; i < count; ++i) {
    if (b.le(at, 4, "a central directory entry") != kCentralSig) corrupt(b.path, fmt::format("central directory entry {} has a bad signature", i));
    Entry e{"", b.le(at + 20, 4, "an entry"), b.le(at + 24, 4, "an entry"), b.le(at + 42, 4, "an entry"),
            uint32_t(b.le(at + 16, 4, "an entry")), int(b.le(at + 10, 2, "an entry")), int(b.le(at + 8, 2, "an entry"))};
    uint64_t n = b.le(at + 28, 2, "an entry"), x = b.le(at + 30, 2, "an entry"), c = b.le(at + 32, 2, "an entry");
    b.need(at + 46, n + x + c, "a central directory entry");
    e.name = b.s.substr(at + 46, n);
    apply_zip64(b, at + 46 + n, x, e);
    out.push_back(e);
    at += 46 + n + x + c;
  }
  return out;
}

std::string inflated(const std::string& path, const Entry& e, const char* data) {
  std::string out(e.usize, '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) corrupt(path, "zlib could not start");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = uInt(e.csize);
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(e.usize);
  int rc = inflate(&z, Z_FINISH);
  uint64_t produced = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != e.usize) corrupt(path, fmt::format("member '{}' does not inflate to its {} bytes (corrupt)", e.name, e.usize));
  return out;
}

ZipMember member(const Bytes& b, const Entry& e) {
  if (e.flags & 1) corrupt(b.path, fmt::format("member '{}' is encrypted", e.name));
  if (e.method != 0 && e.method != 8) corrupt(b.path, fmt::format("member '{}' uses compression method {} (amps reads stored and deflated members)", e.name, e.method));
  if (e.usize / 1100 > e.csize + 1024)   // deflate expands at most ~1032:1; a corrupt size must not allocate terabytes
    corrupt(b.path, fmt::format("member '{}' claims {} bytes from {} compressed (corrupt)", e.name, e.usize, e.csize));
  if (b.le(e.offset, 4, "a local header") != kLocalSig) corrupt(b.path, fmt::format("member '{}' has a bad local header", e.name));
  uint64_t data = e.offset + 30 + b.le(e.offset + 26, 2, "a local header") + b.le(e.offset + 28, 2, "a local header");
  b.need(data, e.csize, "a member's data");
  if (e.method == 0 && e.csize != e.usize) corrupt(b.path, fmt::format("stored member '{}' has different sizes", e.name));
  std::string bytes = e.method == 0 ? b.s.substr(data, e.usize) : inflated(b.path, e, b.s.data() + data);
  if (uint32_t(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size())) != e.crc)
    corrupt(b.path, fmt::format("member '{}' fails its CRC-32 check (corrupt)", e.name));
  return {e.name, std::move(bytes)};
}

void put(std::string& out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out += char((v >> (8 * i)) & 0xff);
}

// The fixed fields shared by local and central headers, from "version needed" to the name length.
void common_fields(std::string& out, const ZipMember& m, uint32_t crc) {
  put(out, 20, 2);       // version needed: 2.0
  put(out, 0, 2);        // flags
  put(out, 0, 2);        // stored
  put(out, 0, 2);        // time 00:00
  put(out, 0x21, 2);     // date 1980-01-01
  put(out, crc, 4);
  put(out, m.data.size(), 4);
  put(out, m.data.size(), 4);
  put(out, m.name.size(), 2);
}

}  // namespace

std::vector<ZipMember> read_zip(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io::os_error("open", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) io::os_error("read", path);
  std::string s = ss.str();
  Bytes b{s, path};
  std::vector<ZipMember> out;
  for (const Entry& e : entries(b)) out.push_back(member(b, e));
  return out;
}

std::string zip_bytes(const std::vector<ZipMember>& members, const std::string& path) {
  std::string out, central;
  if (members.size() >= 0xFFFF) fail("ValueError", fmt::format("cannot save '{}': 65535 or more arrays need zip64, which amps does not write", path));
  for (const ZipMember& m : members) {
    if (m.data.size() >= 0xFFFFFFFFu || out.size() >= 0xFFFFFFFFu)
      fail("ValueError", fmt::format("cannot save '{}': archives of 4 GiB or more need zip64, which amps does not write", path));
    uint32_t crc = uint32_t(crc32_z(0, reinterpret_cast<const Bytef*>(m.data.data()), m.data.size()));
    put(central, kCentralSig, 4);
    put(central, 20, 2);   // made by: version 2.0
    common_fields(central, m, crc);
    put(central, 0, 2), put(central, 0, 2), put(central, 0, 2), put(central, 0, 2);   // extra, comment, disk, int attr
    put(central, 0600u << 16, 4);   // external attributes: a regular file, rw-------, as Python's zipfile
    put(central, out.size(), 4);
    central += m.name;
    put(out, kLocalSig, 4);
    common_fields(out, m, crc);
    put(out, 0, 2);
    out += m.name + m.data;
  }
  uint64_t cd_at = out.size(), cd_size = central.size();
  put(central, kEndSig, 4);
  put(central, 0, 4);   // this disk, the central directory's disk
  put(central, members.size(), 2), put(central, members.size(), 2);
  put(central, cd_size, 4), put(central, cd_at, 4);
  put(central, 0, 2);   // no comment
  return out + central;
}

}  // namespace amps::stdlib::data
