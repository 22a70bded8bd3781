// safetensors format units: bit-exact round trips per dtype, the header against the spec, refusal of
// truncated and corrupted files, and a save killed mid-write (SIGKILL) leaving the old file loadable.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include <algorithm>

#include "stdlib/io/safetensors.hpp"
#include "tests/unit/stdlib/test_vms.hpp"

namespace amps::stdlib::io {
namespace {

namespace fs = std::filesystem;

Vm& vm() { return test::bare_vm(); }

// A fresh directory under the system temp dir, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "amps_st_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

// A tensor of `dt` whose bytes are a deterministic pattern covering every bit (any bit pattern is a
// valid element, so NaN payloads and denormals of the float types are exercised too).
Value patterned(amps_dtype dt, const std::vector<int64_t>& shape, uint8_t salt) {
  Value t = vm().tensor_empty(dt, shape);
  amps_tensor_info info = vm().tensor_info(t);
  auto* p = static_cast<uint8_t*>(info.data);
  size_t n = size_t(info.numel) * amps_dtype_size(dt);
  for (size_t i = 0; i < n; ++i) p[i] = uint8_t(i * 131 + salt);
  if (dt == AMPS_BOOL)
    for (size_t i = 0; i < n; ++i) p[i] &= 1;   // bool bytes must be 0 or 1
  return t;
}

bool same_bytes(const Value& a, const Value& b) {
  amps_tensor_info x = vm().tensor_info(a), y = vm().tensor_info(b);
  return x.dtype == y.dtype && std::vector<int64_t>(x.shape, x.shape + x.ndim) == std::vector<int64_t>(y.shape, y.shape + y.ndim) &&
         (x.numel == 0 || std::memcmp(x.data, y.data, size_t(x.numel) * amps_dtype_size(x.dtype)) == 0);
}

// A tensor's elements as doubles.
std::vector<double> values(const Value& t) { return *vm().tensor_read<double>(vm().call_method(t, "double").get(), AMPS_FLOAT64); }

std::string read_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_file(const std::string& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << bytes;
}

std::string error_of(const std::string& path) {
  try {
    read_safetensors(vm(), path);
  } catch (const ScriptError& e) {
    return e.kind + ": " + e.what();
  }
  return "no error";
}

TEST(Safetensors, EveryDTypeRoundTripsBitExact) {
  TempDir d;
  SafetensorsFile f;
  const amps_dtype all[] = {AMPS_FLOAT64, AMPS_FLOAT32, AMPS_FLOAT16, AMPS_BFLOAT16, AMPS_INT64,
                            AMPS_INT32,   AMPS_BOOL,    AMPS_UINT8,   AMPS_INT8,     AMPS_INT16};
  uint8_t salt = 1;
  for (amps_dtype dt : all) f.tensors.emplace_back(amps_dtype_name(dt), patterned(dt, {3, 5}, salt++));
  f.tensors.emplace_back("scalar", patterned(AMPS_FLOAT32, {}, 9));
  f.tensors.emplace_back("empty", vm().tensor_empty(AMPS_FLOAT16, {0, 4}));
  f.metadata["note"] = "hello";
  write_safetensors(vm(), d.file("all.safetensors"), f);
  SafetensorsFile g = read_safetensors(vm(), d.file("all.safetensors"));
  ASSERT_EQ(g.tensors.size(), f.tensors.size());
  for (size_t i = 0; i < f.tensors.size(); ++i) {
    EXPECT_EQ(g.tensors[i].first, f.tensors[i].first);
    EXPECT_TRUE(same_bytes(g.tensors[i].second, f.tensors[i].second)) << f.tensors[i].first;
  }
  EXPECT_EQ(g.metadata.at("note"), "hello");
  EXPECT_EQ(g.metadata.count(kChecksumKey), 1u);
}

TEST(Safetensors, DTypeNamesAreTheSpecs) {
  EXPECT_EQ(safetensors_dtype(AMPS_FLOAT32), "F32");
  EXPECT_EQ(safetensors_dtype(AMPS_BFLOAT16), "BF16");
  EXPECT_EQ(safetensors_dtype(AMPS_FLOAT16), "F16");
  EXPECT_EQ(safetensors_dtype(AMPS_FLOAT64), "F64");
  EXPECT_EQ(safetensors_dtype(AMPS_INT64), "I64");
  EXPECT_EQ(safetensors_dtype(AMPS_INT32), "I32");
  EXPECT_EQ(safetensors_dtype(AMPS_BOOL), "BOOL");
  EXPECT_EQ(safetensors_dtype(AMPS_UINT8), "U8");
  EXPECT_EQ(safetensors_dtype(AMPS_INT8), "I8");
  EXPECT_EQ(safetensors_dtype(AMPS_INT16), "I16");
  EXPECT_EQ(dtype_from_safetensors("U8"), AMPS_UINT8);
  EXPECT_FALSE(dtype_from_safetensors("F8_E4M3").has_value());
}

// The exact bytes of a small file, written by hand from the spec: length prefix, JSON header padded
// with spaces to 8 bytes, then the tensors back to back.
TEST(Safetensors, FileLayoutMatchesTheSpec) {
  TempDir d;
  SafetensorsFile f;
  const float av[] = {1.0f, -2.0f};
  const int64_t bv[] = {7};
  Value a = vm().tensor_copy(av, AMPS_FLOAT32, {2}).get();
  Value b = vm().tensor_copy(bv, AMPS_INT64, {1, 1}).get();
  f.tensors = {{"a", a}, {"b", b}};
  EXPECT_EQ(safetensors_header(vm(), f),
            R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"I64","shape":[1,1],"data_offsets":[8,16]}})");
  write_safetensors(vm(), d.file("x.safetensors"), f);
  std::string bytes = read_file(d.file("x.safetensors"));
  uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);   // little-endian on this host (static_assert in the writer)
  ASSERT_EQ(n % 8, 0u);
  ASSERT_EQ(bytes.size(), 8 + n + 16);
  std::string header = bytes.substr(8, n);
  // The CRC-32 of the 16 data bytes, computed here with zlib independently of the writer.
  uint32_t crc = uint32_t(crc32(0, reinterpret_cast<const Bytef*>(bytes.data() + 8 + n), 16));
  std::string expected = fmt::format(R"({{"__metadata__":{{"amps.crc32":"{:08x}"}},)"
                                     R"("a":{{"dtype":"F32","shape":[2],"data_offsets":[0,8]}},)"
                                     R"("b":{{"dtype":"I64","shape":[1,1],"data_offsets":[8,16]}}}})", crc);
  EXPECT_EQ(header, expected + std::string(n - expected.size(), ' '));
  float fa[2];
  int64_t ib;
  std::memcpy(fa, bytes.data() + 8 + n, 8);
  std::memcpy(&ib, bytes.data() + 8 + n + 8, 8);
  EXPECT_EQ(fa[0], 1.0f);
  EXPECT_EQ(fa[1], -2.0f);
  EXPECT_EQ(ib, 7);
}

// A file produced by another writer (no amps metadata, keys in any order) reads back.
TEST(Safetensors, ReadsAForeignFile) {
  TempDir d;
  std::string header = R"({"w":{"dtype":"F16","shape":[2],"data_offsets":[4,8]},"v":{"dtype":"I32","shape":[],"data_offsets":[0,4]}})";
  std::string bytes(8, '\0');
  bytes[0] = char(header.size());
  bytes += header;
  bytes += std::string("\x05\x00\x00\x00\x00\x3c\x00\xc0", 8);   // v = 5; w = [1.0, -2.0] in f16
  write_file(d.file("foreign.safetensors"), bytes);
  SafetensorsFile f = read_safetensors(vm(), d.file("foreign.safetensors"));
  ASSERT_EQ(f.tensors.size(), 2u);
  EXPECT_EQ(f.tensors[0].first, "v");   // data-offset order
  EXPECT_EQ(values(f.tensors[0].second), std::vector<double>{5});
  EXPECT_EQ(values(f.tensors[1].second), (std::vector<double>{1.0, -2.0}));
}

class SafetensorsCorrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    SafetensorsFile f;
    f.tensors = {{"w", patterned(AMPS_FLOAT32, {64}, 3)}};
    write_safetensors(vm(), path, f);
    good = read_file(path);
  }
  TempDir dir;
  std::string path = dir.file("c.safetensors");
  std::string good;
};

TEST_F(SafetensorsCorrupt, TruncatedFilesAreRefused) {
  for (size_t keep : {size_t(0), size_t(5), size_t(20), good.size() - 1}) {
    write_file(path, good.substr(0, keep));
    std::string e = error_of(path);
    EXPECT_TRUE(e.starts_with("ValueError: '" + path + "' is not a valid safetensors file")) << keep << ": " << e;
    EXPECT_NE(e.find("truncated"), std::string::npos) << keep << ": " << e;
  }
}

TEST_F(SafetensorsCorrupt, AFlippedDataByteFailsTheChecksum) {
  std::string bad = good;
  bad[bad.size() - 10] ^= 0x10;
  write_file(path, bad);
  EXPECT_NE(error_of(path).find("checksum mismatch"), std::string::npos) << error_of(path);
}

TEST_F(SafetensorsCorrupt, AFlippedHeaderByteIsRefused) {
  std::string bad = good;
  bad[10] ^= 0x04;   // inside the JSON text
  write_file(path, bad);
  EXPECT_TRUE(error_of(path).starts_with("ValueError: ")) << error_of(path);
  bad = good;
  bad[3] = 0x7f;   // an absurd header length
  write_file(path, bad);
  EXPECT_NE(error_of(path).find("header length"), std::string::npos) << error_of(path);
}

TEST_F(SafetensorsCorrupt, BadOffsetsAndDTypesAreRefused) {
  auto with_header = [&](const std::string& h, size_t data) {
    std::string bytes(8, '\0');
    bytes[0] = char(h.size());
    write_file(path, bytes + h + std::string(data, '\0'));
    return error_of(path);
  };
  EXPECT_NE(with_header(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", 4).find("do not match"), std::string::npos);
  EXPECT_NE(with_header(R"({"a":{"dtype":"Q9","shape":[1],"data_offsets":[0,4]}})", 4).find("unsupported dtype"), std::string::npos);
  EXPECT_NE(with_header(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8).find("hole"), std::string::npos);
  EXPECT_NE(with_header(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 9).find("trailing"), std::string::npos);
  // a shape whose byte count wraps around to the offsets' (2^62 * 2^62 * 4 bytes is 2^128, 0 modulo 2^128)
  EXPECT_NE(with_header(R"({"a":{"dtype":"F32","shape":[4611686018427387904,4611686018427387904,4],"data_offsets":[0,0]}})", 0)
                .find("overflows"), std::string::npos);
  EXPECT_NE(with_header(R"([1,2])", 0).find("not a JSON object"), std::string::npos);
}

TEST(Safetensors, MissingFileAndBadDirectoryAreOsErrors) {
  EXPECT_TRUE(error_of("/nonexistent/dir/x.safetensors").starts_with("FileNotFoundError: cannot open '/nonexistent/dir/x.safetensors'"));
  SafetensorsFile f;
  f.tensors = {{"w", patterned(AMPS_FLOAT32, {4}, 1)}};
  // Missing directories are created; a regular file in the way is an OS error naming the path.
  std::string blocker = std::filesystem::temp_directory_path() / "amps_st_blocker";
  write_file(blocker, "x");
  try {
    write_safetensors(vm(), blocker + "/x.safetensors", f);
    ADD_FAILURE() << "no error";
  } catch (const ScriptError& e) {
    EXPECT_EQ(e.kind, "NotADirectoryError");
    EXPECT_NE(std::string(e.what()).find(blocker + "/x.safetensors"), std::string::npos);
  }
}

// The value every element of checkpoint `k` holds, so a torn file would be visible as mixed values.
Value big_checkpoint(int k) {
  Value t = vm().tensor_empty(AMPS_FLOAT32, {16 << 20});   // 64 MiB
  amps_tensor_info info = vm().tensor_info(t);
  std::fill_n(static_cast<float*>(info.data), info.numel, float(k));
  return t;
}

// A child saves 64 MiB checkpoints in a loop and is SIGKILLed mid-write; the last complete
// checkpoint must still load, whole and consistent.
TEST(Safetensors, KilledSaveLeavesThePreviousCheckpoint) {
  TempDir d;
  std::string path = d.file("ckpt.safetensors");
  write_safetensors(vm(), path, SafetensorsFile{{{"w", big_checkpoint(0)}}, {}});
  for (int round = 0; round < 3; ++round) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int k = 1;; ++k) write_safetensors(vm(), path, SafetensorsFile{{{"w", big_checkpoint(k)}}, {}});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(150 + 170 * round));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    SafetensorsFile f = read_safetensors(vm(), path);
    ASSERT_EQ(f.tensors.size(), 1u);
    amps_tensor_info info = vm().tensor_info(f.tensors[0].second);
    const float* p = static_cast<const float*>(info.data);
    EXPECT_EQ(std::count(p, p + info.numel, p[0]), info.numel) << "torn checkpoint";
  }
}

}  // namespace
}  // namespace amps::stdlib::io
