// safetensors writer (atomic, checksummed) and validating reader (see safetensors.hpp).
#include "stdlib/io/safetensors.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "stdlib/io/atomic_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::io {
namespace {

static_assert(std::endian::native == std::endian::little, "safetensors stores little-endian data");
using json = nlohmann::ordered_json;

// The reference implementation refuses headers above 100 MB; so do we (a corrupt length field
// must not make us allocate gigabytes).
constexpr uint64_t kMaxHeader = 100'000'000;

const std::pair<amps_dtype, const char*> kDTypeNames[] = {
    {AMPS_FLOAT64, "F64"}, {AMPS_FLOAT32, "F32"}, {AMPS_FLOAT16, "F16"}, {AMPS_BFLOAT16, "BF16"},
    {AMPS_INT64, "I64"}, {AMPS_INT32, "I32"}, {AMPS_BOOL, "BOOL"}, {AMPS_UINT8, "U8"}, {AMPS_INT8, "I8"},
    {AMPS_INT16, "I16"}};
static_assert(std::size(kDTypeNames) == AMPS_INT16 + 1, "every dtype needs a safetensors name");

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  fail("ValueError", fmt::format("'{}' is not a valid safetensors file: {}", path, why));
}

// Closes a descriptor on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() { if (fd >= 0) ::close(fd); }
};

void read_at(int fd, void* data, size_t n, uint64_t off, const std::string& path) {
  auto* p = static_cast<char*>(data);
  while (n > 0) {
    ssize_t r = ::pread(fd, p, std::min<size_t>(n, size_t(1) << 30), off_t(off));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) os_error("read", path);
    if (r == 0) corrupt(path, "the file ends early (truncated)");
    p += r, n -= size_t(r), off += uint64_t(r);
  }
}

// Empty tensors pass a NULL buffer, which makes zlib restart at 0: files written so far were
// checksummed that way, so it stays.
uint32_t crc_of(uint32_t crc, const void* data, size_t n) {
  return uint32_t(crc32_z(crc, static_cast<const Bytef*>(n ? data : nullptr), n));
}

size_t nbytes_of(const amps_tensor_info& t) { return size_t(t.numel) * amps_dtype_size(t.dtype); }

// A tensor's bytes in row-major order: its own memory when it is a contiguous cpu tensor, else a
// copy (from any device or layout).
struct HostBytes {
  const void* data = nullptr;
  size_t size = 0;
  std::vector<unsigned char> copy;
};

std::vector<HostBytes> host_bytes(Vm& vm, const SafetensorsFile& file) {
  std::vector<HostBytes> out(file.tensors.size());
  for (size_t i = 0; i < out.size(); ++i) {
    amps_tensor_info t = vm.tensor_info(file.tensors[i].second);
    out[i].size = nbytes_of(t);
    if (t.data && std::strcmp(t.device, "cpu") == 0 && is_contiguous(t)) {
      out[i].data = t.data;
      continue;
    }
    out[i].copy.resize(out[i].size);
    vm.check(amps_tensor_read(vm.get(), file.tensors[i].second.get(), t.dtype, out[i].copy.data(), out[i].size));
    out[i].data = out[i].copy.data();
  }
  return out;
}

std::string padded_header(Vm& vm, SafetensorsFile file, const std::vector<HostBytes>& host) {
  uint32_t crc = crc_of(0, nullptr, 0);
  for (auto& t : host) crc = crc_of(crc, t.data, t.size);
  file.metadata[kChecksumKey] = fmt::format("{:08x}", crc);
  std::string header = safetensors_header(vm, file);
  header.append((8 - header.size() % 8) % 8, ' ');   // data starts 8-byte aligned, as the reference writer does
  return header;
}

// Writes the length prefix, header and data to an open file.
void write_body(int fd, const std::string& header, const std::vector<HostBytes>& host, const std::string& path) {
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = uint8_t(uint64_t(header.size()) >> (8 * i));
  write_all(fd, len, 8, path);
  write_all(fd, header.data(), header.size(), path);
  for (auto& t : host) write_all(fd, t.data, t.size, path);
}

}  // namespace

std::string safetensors_dtype(amps_dtype dt) {
  for (auto& [d, name] : kDTypeNames)
    if (d == dt) return name;
  internal_error(__FILE__, __LINE__, fmt::format("dtype {} without a safetensors name", int(dt)));
}

std::optional<amps_dtype> dtype_from_safetensors(const std::string& name) {
  for (auto& [d, n] : kDTypeNames)
    if (name == n) return d;
  return std::nullopt;
}

std::string safetensors_header(Vm& vm, const SafetensorsFile& file) {
  json h = json::object();
  if (!file.metadata.empty()) h["__metadata__"] = file.metadata;
  uint64_t off = 0;
  for (auto& [name, v] : file.tensors) {
    check_value(name != "__metadata__" && !h.contains(name), "safetensors: duplicate or reserved tensor name '{}'", name);
    amps_tensor_info t = vm.tensor_info(v);
    uint64_t end = off + nbytes_of(t);
    h[name] = json{{"dtype", safetensors_dtype(t.dtype)}, {"shape", shape_of(t)}, {"data_offsets", {off, end}}};
    off = end;
  }
  return h.dump();
}

void write_safetensors(Vm& vm, const std::string& path, const SafetensorsFile& file) {
  std::vector<HostBytes> host = host_bytes(vm, file);
  std::string header = padded_header(vm, file, host);
  atomic_write(path, [&](int fd) { write_body(fd, header, host, path); });
}

namespace {

struct Entry {
  std::string name;
  amps_dtype dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

json parse_header(int fd, uint64_t file_size, const std::string& path, uint64_t& data_start) {
  if (file_size < 8) corrupt(path, fmt::format("the file is {} bytes, shorter than the 8-byte header length (truncated)", file_size));
  unsigned char len[8];
  read_at(fd, len, 8, 0, path);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | len[i];
  if (n > kMaxHeader) corrupt(path, fmt::format("the header length field says {} bytes (more than the 100 MB limit)", n));
  if (8 + n > file_size) corrupt(path, fmt::format("the header length field says {} bytes but the file has only {} after it (truncated)", n, file_size - 8));
  std::string text(n, '\0');
  read_at(fd, text.data(), n, 8, path);
  data_start = 8 + n;
  json h = json::parse(text, nullptr, false);
  if (h.is_discarded() || !h.is_object()) corrupt(path, "the header is not a JSON object");
  return h;
}

std::vector<int64_t> parse_shape(const json& s, const std::string& path, const std::string& name) {
  if (!s.is_array()) corrupt(path, fmt::format("tensor '{}' has no shape list", name));
  std::vector<int64_t> dims;
  for (auto& d : s) {
    if (!d.is_number_unsigned()) corrupt(path, fmt::format("tensor '{}' has a shape entry that is not a non-negative integer", name));
    dims.push_back(int64_t(d.get<uint64_t>()));
  }
  return dims;
}

Entry parse_entry(const std::string& name, const json& e, const std::string& path) {
  if (!e.is_object() || !e.contains("dtype") || !e.contains("shape") || !e.contains("data_offsets"))
    corrupt(path, fmt::format("tensor '{}' needs dtype, shape and data_offsets", name));
  auto dt = e["dtype"].is_string() ? dtype_from_safetensors(e["dtype"].get<std::string>()) : std::nullopt;
  if (!dt) corrupt(path, fmt::format("tensor '{}' has an unsupported dtype {}", name, e["dtype"].dump()));
  auto& off = e["data_offsets"];
  if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
    corrupt(path, fmt::format("tensor '{}' has malformed data_offsets {}", name, off.dump()));
  Entry out{name, *dt, parse_shape(e["shape"], path, name), off[0].get<uint64_t>(), off[1].get<uint64_t>()};
  int64_t bytes = int64_t(amps_dtype_size(*dt));
  bool overflow = false;  // a byte count past int64 cannot be a tensor of this file
  for (int64_t d : out.shape) overflow |= __builtin_mul_overflow(bytes, d, &bytes);
  if (overflow && std::find(out.shape.begin(), out.shape.end(), 0) == out.shape.end())
    corrupt(path, fmt::format("tensor '{}' has a shape whose size overflows", name));
  if (overflow) bytes = 0;
  if (out.end < out.begin || out.end - out.begin != uint64_t(bytes))
    corrupt(path, fmt::format("tensor '{}' has data_offsets [{}, {}] that do not match its dtype and shape", name, out.begin, out.end));
  return out;
}

// The entries sorted by offset; they must tile the data section exactly (the spec forbids holes).
std::vector<Entry> parse_entries(const json& h, uint64_t data_size, const std::string& path) {
  std::vector<Entry> entries;
  for (auto& [name, e] : h.items())
    if (name != "__metadata__") entries.push_back(parse_entry(name, e, path));
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
  uint64_t at = 0;
  for (auto& e : entries) {
    if (e.begin != at) corrupt(path, fmt::format("tensor '{}' starts at byte {} of the data but {} was expected (overlap or hole)", e.name, e.begin, at));
    at = e.end;
  }
  if (at != data_size)
    corrupt(path, fmt::format("the tensors cover {} bytes of data but the file has {} ({})", at, data_size, at > data_size ? "truncated" : "trailing bytes"));
  return entries;
}

std::map<std::string, std::string> parse_metadata(const json& h, const std::string& path) {
  std::map<std::string, std::string> md;
  if (!h.contains("__metadata__")) return md;
  auto& m = h["__metadata__"];
  if (!m.is_object()) corrupt(path, "__metadata__ is not an object");
  for (auto& [k, v] : m.items()) {
    if (!v.is_string()) corrupt(path, fmt::format("__metadata__ value of '{}' is not a string", k));
    md[k] = v.get<std::string>();
  }
  return md;
}

}  // namespace

SafetensorsFile read_safetensors(Vm& vm, const std::string& path) {
  Fd f{::open(path.c_str(), O_RDONLY)};
  if (f.fd < 0) os_error("open", path);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) os_error("stat", path);
  if (!S_ISREG(st.st_mode)) fail("OSError", fmt::format("cannot load '{}': not a regular file", path));
  uint64_t data_start = 0;
  json h = parse_header(f.fd, uint64_t(st.st_size), path, data_start);
  SafetensorsFile out;
  out.metadata = parse_metadata(h, path);
  uint32_t crc = crc_of(0, nullptr, 0);
  for (auto& e : parse_entries(h, uint64_t(st.st_size) - data_start, path)) {
    Value t = vm.tensor_empty(e.dtype, e.shape);
    void* data = vm.tensor_info(t).data;
    read_at(f.fd, data, e.end - e.begin, data_start + e.begin, path);
    crc = crc_of(crc, data, e.end - e.begin);
    out.tensors.emplace_back(e.name, std::move(t));
  }
  auto stored = out.metadata.find(kChecksumKey);
  if (stored != out.metadata.end() && stored->second != fmt::format("{:08x}", crc))
    corrupt(path, fmt::format("checksum mismatch (stored {}, data has {:08x}): the data section is corrupt", stored->second, crc));
  return out;
}

}  // namespace amps::stdlib::io
