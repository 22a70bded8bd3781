// NumPy .npy reading and writing (see npy.hpp). Every size is checked before it is used: a truncated or
// corrupt file is a ValueError naming the file and the problem.
#include "stdlib/data/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#include "stdlib/io/atomic_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {
namespace {

static_assert(std::endian::native == std::endian::little, ".npy '<' data is read in place");
constexpr char kMagic[] = "\x93NUMPY";
constexpr uint64_t kMaxHeader = 100'000'000;   // a corrupt length must not allocate gigabytes

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  fail("ValueError", fmt::format("'{}' is not a valid .npy file: {}", path, why));
}

// A cursor over the header's Python literal.
class Literal {
 public:
  Literal(std::string_view s, const std::string& path) : s_(s), path_(path) {}
  void ws() { while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_; }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  char peek() { ws(); return i_ < s_.size() ? s_[i_] : '\0'; }
  void expect(char c, const char* what) {
    if (!eat(c)) bad(fmt::format("expected {} at offset {}", what, i_));
  }
  std::string str() {
    char q = peek();
    if (q != '\'' && q != '"') bad(fmt::format("expected a string at offset {}", i_));
    std::string out;
    for (++i_; i_ < s_.size() && s_[i_] != q; ++i_) out += s_[i_ == s_.size() - 1 || s_[i_] != '\\' ? i_ : ++i_];
    if (i_ >= s_.size()) bad("a string is not closed");
    ++i_;
    return out;
  }
  bool boolean() {
    ws();
    for (auto [word, v] : {std::pair{"True", true}, std::pair{"False", false}})
      if (s_.substr(i_, std::strlen(word)) == word) return i_ += std::strlen(word), v;
    bad(fmt::format("fortran_order is not True or False (offset {})", i_));
  }
  int64_t integer() {
    ws();
    size_t start = i_;
    int64_t v = 0;
    for (; i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9'; ++i_)
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[i_] - '0', &v)) bad("a shape entry overflows");
    if (i_ == start) bad(fmt::format("a shape entry is not a non-negative integer (offset {})", i_));
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;   // Python 2 longs, as old files have them
    return v;
  }
  std::vector<int64_t> tuple() {
    expect('(', "'(' opening the shape");
    std::vector<int64_t> out;
    while (!eat(')')) {
      out.push_back(integer());
      if (!eat(',')) {
        expect(')', "',' or ')' in the shape");
        break;
      }
    }
    return out;
  }
  void end() {
    ws();
    if (i_ != s_.size()) bad(fmt::format("unexpected text after the header dict at offset {}", i_));
  }
  [[noreturn]] void bad(const std::string& why) { corrupt(path_, "bad header: " + why); }

 private:
  std::string_view s_;
  const std::string& path_;
  size_t i_ = 0;
};

std::string table_names() {
  std::string out;
  for (auto& t : npy_types()) out += (out.empty() ? "" : " ") + std::string(t.descr);
  return out;
}

void swap_bytes(void* data, size_t n, size_t item) {
  auto* p = static_cast<unsigned char*>(data);
  for (size_t i = 0; i + item <= n; i += item) std::reverse(p + i, p + i + item);
}

int64_t checked_numel(const NpyHeader& h, size_t item, const std::string& path, uint64_t& bytes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : h.shape) overflow |= __builtin_mul_overflow(n, d, &n);
  if (std::find(h.shape.begin(), h.shape.end(), 0) != h.shape.end()) n = 0, overflow = false;
  if (overflow || __builtin_mul_overflow(uint64_t(n), uint64_t(item), &bytes)) corrupt(path, "the shape's size overflows");
  return n;
}

std::string shape_text(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// The preamble's header length, after the magic and version (8 bytes) have been read.
uint64_t header_length(const NpyReader& read, const unsigned char* pre, uint64_t size, const std::string& path, uint64_t& at) {
  if (std::memcmp(pre, "PK\x03\x04", 4) == 0) corrupt(path, "it is a zip archive (an .npz?): load it with data.load_npz");
  if (std::memcmp(pre, kMagic, 6) != 0) corrupt(path, "it does not start with the magic \\x93NUMPY");
  int major = pre[6], minor = pre[7];
  if (major < 1 || major > 3 || minor != 0) corrupt(path, fmt::format("unsupported format version {}.{} (amps reads 1.0, 2.0 and 3.0)", major, minor));
  unsigned char len[4] = {0, 0, 0, 0};
  size_t width = major == 1 ? 2 : 4;
  if (size < 8 + width) corrupt(path, fmt::format("the file is {} bytes, too short for the header length (truncated)", size));
  read(len, 8, width);
  at = 8 + width;
  return uint64_t(len[0]) | uint64_t(len[1]) << 8 | uint64_t(len[2]) << 16 | uint64_t(len[3]) << 24;
}

}  // namespace

const std::vector<NpyType>& npy_types() {
  // One row per descr amps reads; the first row of a dtype is what saving writes.
  static const std::vector<NpyType> table = {
      {"<f8", AMPS_FLOAT64, false}, {"<f4", AMPS_FLOAT32, false}, {"<f2", AMPS_FLOAT16, false},
      {"<i8", AMPS_INT64, false},   {"<i4", AMPS_INT32, false},   {"|b1", AMPS_BOOL, false},
      {">f8", AMPS_FLOAT64, true},  {">f4", AMPS_FLOAT32, true},  {">f2", AMPS_FLOAT16, true},
      {">i8", AMPS_INT64, true},    {">i4", AMPS_INT32, true},
      {"|u1", AMPS_UINT8, false},   {"|i1", AMPS_INT8, false},    {"<i2", AMPS_INT16, false},
      {">i2", AMPS_INT16, true},
  };
  return table;
}

std::optional<NpyType> npy_type(std::string_view descr) {
  for (auto& t : npy_types())
    if (descr == t.descr) return t;
  return std::nullopt;
}

NpyHeader parse_npy_header(std::string_view text, const std::string& path) {
  Literal lit(text, path);
  NpyHeader h;
  bool seen[3] = {false, false, false};
  lit.expect('{', "'{' opening the header dict");
  while (!lit.eat('}')) {
    std::string key = lit.str();
    lit.expect(':', "':' after a key");
    if (key == "descr" && lit.peek() != '\'' && lit.peek() != '"')
      corrupt(path, "it holds a structured dtype (a list of fields), which amps does not read");
    if (key == "descr") h.descr = lit.str(), seen[0] = true;
    else if (key == "fortran_order") h.fortran_order = lit.boolean(), seen[1] = true;
    else if (key == "shape") h.shape = lit.tuple(), seen[2] = true;
    else lit.bad(fmt::format("unexpected key '{}'", key));
    if (!lit.eat(',')) {
      lit.expect('}', "',' or '}' in the header dict");
      break;
    }
  }
  lit.end();
  const char* names[] = {"descr", "fortran_order", "shape"};
  for (int i = 0; i < 3; ++i)
    if (!seen[i]) lit.bad(fmt::format("the key '{}' is missing", names[i]));
  return h;
}

std::string npy_preamble(const NpyHeader& h) {
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}", h.descr,
                                 h.fortran_order ? "True" : "False", shape_text(h.shape));
  bool v1 = dict.size() + 1 + 12 <= 65535;
  size_t fixed = v1 ? 10 : 12;
  dict.append(64 - (fixed + dict.size() + 1) % 64, ' ');   // as NumPy: 1 to 64 spaces
  dict += '\n';
  std::string out(kMagic, 6);
  out += char(v1 ? 1 : 2);
  out += '\0';
  for (size_t i = 0; i < (v1 ? 2u : 4u); ++i) out += char((dict.size() >> (8 * i)) & 0xff);
  return out + dict;
}

namespace {

// The preamble's header, validated; [data_at] receives where the elements start.
NpyHeader read_header(const NpyReader& read, uint64_t size, const std::string& path, uint64_t& data_at) {
  if (size < 10) corrupt(path, fmt::format("the file is {} bytes, shorter than the .npy preamble (truncated)", size));
  unsigned char pre[8];
  read(pre, 0, 8);
  uint64_t at = 0, n = header_length(read, pre, size, path, at);
  if (n > kMaxHeader || at + n > size) corrupt(path, fmt::format("the header length field says {} bytes but the file has {} after it (truncated)", n, size - at));
  std::string text(n, '\0');
  read(text.data(), at, n);
  data_at = at + n;
  return parse_npy_header(text, path);
}

// Row-major elements of a Fortran-order array: read with the shape reversed, then permuted back.
Value from_fortran(Vm& vm, const Value& t, size_t ndim) {
  std::vector<Value> dims;
  for (size_t i = ndim; i-- > 0;) dims.push_back(Value::of(int64_t(i)));
  return vm.call_method(vm.call_method(t, "permute", dims).get(), "contiguous").get();
}

}  // namespace

Value load_npy(Vm& vm, const NpyReader& read, uint64_t size, const std::string& path) {
  uint64_t data_at = 0;
  NpyHeader h = read_header(read, size, path, data_at);
  std::optional<NpyType> type = npy_type(h.descr);
  if (!type)
    fail("ValueError", fmt::format("'{}' holds dtype '{}', which amps does not read{} (amps reads {})", path, h.descr,
                                   h.descr.find('O') != std::string::npos ? " (pickled Python objects)" : "", table_names()));
  uint64_t bytes = 0, item = amps_dtype_size(type->dtype);
  checked_numel(h, item, path, bytes);
  if (size - data_at != bytes)
    corrupt(path, fmt::format("the header's {} shape {} needs {} bytes of data but the file has {} ({})", h.descr, shape_text(h.shape),
                              bytes, size - data_at, size - data_at < bytes ? "truncated" : "trailing bytes"));
  std::vector<int64_t> shape = h.shape;
  bool fortran = h.fortran_order && shape.size() > 1;
  if (fortran) std::reverse(shape.begin(), shape.end());
  Value t = vm.tensor_empty(type->dtype, shape);
  auto* data = static_cast<uint8_t*>(vm.tensor_info(t).data);
  read(data, data_at, bytes);
  if (type->big_endian) swap_bytes(data, bytes, item);
  if (type->dtype == AMPS_BOOL)
    for (uint64_t i = 0; i < bytes; ++i) data[i] = data[i] != 0;
  return fortran ? from_fortran(vm, t, shape.size()) : t;
}

Value load_npy_file(Vm& vm, const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) io::os_error("open", path);
  std::unique_ptr<int, void (*)(int*)> guard(&fd, [](int* f) { ::close(*f); });
  struct stat st {};
  if (::fstat(fd, &st) != 0) io::os_error("stat", path);
  if (!S_ISREG(st.st_mode)) fail(S_ISDIR(st.st_mode) ? "IsADirectoryError" : "OSError", fmt::format("cannot load '{}': not a regular file", path));
  auto read = [&](void* dst, uint64_t off, size_t n) {
    auto* p = static_cast<char*>(dst);
    while (n > 0) {
      ssize_t r = ::pread(fd, p, std::min<size_t>(n, size_t(1) << 30), off_t(off));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) io::os_error("read", path);
      if (r == 0) corrupt(path, "the file ends early (truncated)");
      p += r, n -= size_t(r), off += uint64_t(r);
    }
  };
  return load_npy(vm, read, uint64_t(st.st_size), path);
}

std::string npy_bytes(Vm& vm, const Value& t, const std::string& path) {
  if (!t.is(AMPS_TYPE_TENSOR)) fail("TypeError", fmt::format("expected a tensor to save as '{}', not {}", path, t.type_name()));
  amps_tensor_info info = vm.tensor_info(t);
  const NpyType* type = nullptr;
  for (auto& row : npy_types())
    if (row.dtype == info.dtype && !row.big_endian && !type) type = &row;
  if (!type)
    fail("ValueError", fmt::format("cannot save a {} tensor as '{}': NumPy has no {}; convert it first (t.float())", amps_dtype_name(info.dtype), path, amps_dtype_name(info.dtype)));
  std::string out = npy_preamble({type->descr, false, shape_of(info)});
  size_t at = out.size(), n = size_t(info.numel) * amps_dtype_size(info.dtype);
  out.resize(at + n);
  if (n && info.data && std::strcmp(info.device, "cpu") == 0 && is_contiguous(info)) std::memcpy(out.data() + at, info.data, n);
  else if (n) vm.check(amps_tensor_read(vm.get(), t.get(), info.dtype, out.data() + at, n));
  return out;
}

}  // namespace amps::stdlib::data
