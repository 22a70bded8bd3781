// data units: the IDX reader (gzip, magic numbers, sizes, truncation) and Fashion-MNIST loading.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "stdlib/data/fashion_mnist.hpp"
#include "stdlib/data/idx.hpp"
#include "tests/unit/stdlib/test_vms.hpp"

namespace amps::stdlib::data {
namespace {

namespace fs = std::filesystem;
const char* kDebianRoot = "/usr/share/datasets/fashion-mnist";

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "amps_idx_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string idx_bytes(uint8_t ndim, std::vector<uint32_t> dims, size_t payload) {
  std::string s = {0, 0, 8, char(ndim)};
  for (uint32_t d : dims) s += {char(d >> 24), char(d >> 16), char(d >> 8), char(d)};
  for (size_t i = 0; i < payload; ++i) s += char(i % 251);
  return s;
}

void write_gz(const std::string& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, bytes.data(), unsigned(bytes.size()));
  gzclose(f);
}

std::string error_of(const std::string& path, int ndim) {
  try {
    read_idx(path, ndim);
  } catch (const ScriptError& e) {
    return e.kind + ": " + e.what();
  }
  return "no error";
}

TEST(Idx, ReadsGzipAndPlainFiles) {
  TempDir d;
  write_gz(d.file("a.gz"), idx_bytes(3, {2, 3, 4}, 24));
  IdxArray a = read_idx(d.file("a.gz"), 3);
  EXPECT_EQ(a.dims, (std::vector<int64_t>{2, 3, 4}));
  ASSERT_EQ(a.bytes.size(), 24u);
  EXPECT_EQ(a.bytes[23], 23);
  std::ofstream(d.file("b"), std::ios::binary) << idx_bytes(1, {5}, 5);
  EXPECT_EQ(read_idx(d.file("b"), 1).bytes.size(), 5u);
}

TEST(Idx, WrongMagicShortPayloadAndTrailingBytesAreRefused) {
  TempDir d;
  write_gz(d.file("m.gz"), idx_bytes(1, {5}, 5));
  EXPECT_NE(error_of(d.file("m.gz"), 3).find("magic number 0x00000801, expected 0x00000803"), std::string::npos) << error_of(d.file("m.gz"), 3);
  write_gz(d.file("s.gz"), idx_bytes(1, {10}, 7));
  EXPECT_NE(error_of(d.file("s.gz"), 1).find("declares 10 data bytes but the file holds 7 (truncated)"), std::string::npos);
  write_gz(d.file("t.gz"), idx_bytes(1, {3}, 7));
  EXPECT_NE(error_of(d.file("t.gz"), 1).find("trailing bytes"), std::string::npos);
  write_gz(d.file("h.gz"), std::string("\0\0\x08", 3));
  EXPECT_NE(error_of(d.file("h.gz"), 1).find("too short"), std::string::npos);
}

TEST(Idx, ATruncatedGzipStreamIsRefusedNamingTheFile) {
  TempDir d;
  write_gz(d.file("full.gz"), idx_bytes(3, {100, 28, 28}, 78400));
  std::ifstream in(d.file("full.gz"), std::ios::binary);
  std::string gz((std::istreambuf_iterator<char>(in)), {});
  std::ofstream(d.file("cut.gz"), std::ios::binary) << gz.substr(0, gz.size() / 2);
  std::string e = error_of(d.file("cut.gz"), 3);
  EXPECT_TRUE(e.starts_with("ValueError: '" + d.file("cut.gz") + "' is not a valid IDX file")) << e;
}

TEST(Idx, MissingFileIsFileNotFound) {
  EXPECT_TRUE(error_of("/nonexistent/x.gz", 1).starts_with("FileNotFoundError: cannot open '/nonexistent/x.gz'"));
}

Vm& vm() { return test::bare_vm(); }

TEST(FashionMnist, MissingDatasetNamesTheDebianPackage) {
  TempDir d;
  try {
    load_fashion_mnist(vm(), d.path.string(), "train", std::nullopt, true);
    ADD_FAILURE() << "no error";
  } catch (const ScriptError& e) {
    EXPECT_EQ(e.kind, "FileNotFoundError");
    EXPECT_NE(std::string(e.what()).find("dataset-fashion-mnist"), std::string::npos) << e.what();
  }
}

TEST(FashionMnist, RealTestSplitHasTheDocumentedShapeAndStatistics) {
  if (!fs::exists(fs::path(kDebianRoot) / "t10k-images-idx3-ubyte.gz")) GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  FashionMnist raw = load_fashion_mnist(vm(), kDebianRoot, "test", std::nullopt, false);
  amps_tensor_info images = vm().tensor_info(raw.images), labels = vm().tensor_info(raw.labels);
  ASSERT_EQ(std::vector<int64_t>(images.shape, images.shape + images.ndim), (std::vector<int64_t>{10000, 1, 28, 28}));
  ASSERT_EQ(std::vector<int64_t>(labels.shape, labels.shape + labels.ndim), (std::vector<int64_t>{10000}));
  EXPECT_EQ(images.dtype, AMPS_FLOAT32);
  EXPECT_EQ(labels.dtype, AMPS_INT64);
  std::vector<int> per_class(10);
  for (int64_t i = 0; i < 10000; ++i) per_class.at(size_t(static_cast<const int64_t*>(labels.data)[i]))++;
  for (int c : per_class) EXPECT_EQ(c, 1000);   // the test split is balanced
  double sum = 0, sq = 0;
  const float* p = static_cast<const float*>(images.data);
  for (int64_t i = 0; i < images.numel; ++i) sum += p[i], sq += double(p[i]) * p[i];
  double mean = sum / double(images.numel), sd = std::sqrt(sq / double(images.numel) - mean * mean);
  EXPECT_NEAR(mean, 0.2860, 0.01);   // the test split's statistics are close to the training set's
  EXPECT_NEAR(sd, 0.3530, 0.01);
  FashionMnist norm = load_fashion_mnist(vm(), kDebianRoot, "test", 5, true);
  amps_tensor_info n = vm().tensor_info(norm.images);
  EXPECT_EQ(n.shape[0], 5);
  EXPECT_FLOAT_EQ(static_cast<const float*>(n.data)[0], (p[0] - 0.2860f) / 0.3530f);
}

}  // namespace
}  // namespace amps::stdlib::data
