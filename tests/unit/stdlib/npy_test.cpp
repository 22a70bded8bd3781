// The .npy header parser and writer against NumPy's bytes, .npy/.npz loading of damaged files (every
// truncation and every single-byte flip is a ValueError or a load, never a crash), and the zip writer.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "stdlib/data/npy.hpp"
#include "stdlib/data/zip_archive.hpp"
#include "stdlib/stdlib.hpp"
#include "tests/unit/stdlib/test_vms.hpp"

namespace amps::stdlib::data {
namespace {

namespace fs = std::filesystem;

Vm& vm() { return test::bare_vm(); }

std::string kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ScriptError& e) {
    return e.kind + ": " + e.what();
  }
  return "ok";
}

// np.save(np.arange(6, dtype=np.float32).reshape(2, 3)) byte for byte (NumPy 1.24).
std::string numpy_f32_2x3() {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::string out = std::string("\x93NUMPY\x01\x00", 8) + std::string("\x76\x00", 2) + dict + std::string(118 - dict.size() - 1, ' ') + "\n";
  for (int i = 0; i < 6; ++i) {
    float f = float(i);
    out.append(reinterpret_cast<const char*>(&f), 4);
  }
  return out;
}

Value load_bytes(const std::string& b, const std::string& name = "mem.npy") {
  auto read = [&](void* dst, uint64_t off, size_t n) {
    if (off > b.size() || n > b.size() - off) throw ScriptError("ValueError", "short");
    std::memcpy(dst, b.data() + off, n);
  };
  return load_npy(vm(), read, b.size(), name);
}

TEST(NpyHeader, ParsesNumpyHeaders) {
  NpyHeader h = parse_npy_header("{'descr': '>i4', 'fortran_order': True, 'shape': (3, 4, 5), }   \n", "f");
  EXPECT_EQ(h.descr, ">i4");
  EXPECT_TRUE(h.fortran_order);
  EXPECT_EQ(h.shape, (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(parse_npy_header("{\"shape\": (7,), \"descr\": \"|b1\", \"fortran_order\": False}", "f").shape, std::vector<int64_t>{7});
  EXPECT_TRUE(parse_npy_header("{'descr': '<f8', 'fortran_order': False, 'shape': ()}", "f").shape.empty());
  EXPECT_EQ(parse_npy_header("{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 3L)}", "f").shape, (std::vector<int64_t>{2, 3}));
}

TEST(NpyHeader, RefusesMalformedHeaders) {
  const char* bad[] = {
      "",
      "{'descr': '<f8', 'fortran_order': False}",
      "{'descr': '<f8', 'fortran_order': 0, 'shape': ()}",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': ()}",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (), 'extra': 1}",
      "{'descr': '<f8', 'fortran_order': False, 'shape': () junk",
      "{'descr': '<f8, 'fortran_order': False, 'shape': ()}",
  };
  for (const char* h : bad) {
    std::string k = kind_of([&] { parse_npy_header(h, "x.npy"); });
    EXPECT_TRUE(k.starts_with("ValueError: 'x.npy' is not a valid .npy file")) << h << " -> " << k;
  }
}

TEST(NpyHeader, PreambleIsNumpys) {
  std::string expect = numpy_f32_2x3();
  EXPECT_EQ(npy_preamble({"<f4", false, {2, 3}}), expect.substr(0, 128));
  for (size_t n : {0u, 1u, 5u, 40u, 300u}) {
    std::vector<int64_t> shape(n, 1);
    std::string p = npy_preamble({"<f8", false, shape});
    EXPECT_EQ(p.size() % 64, 0u);
    EXPECT_EQ(p.back(), '\n');
  }
}

TEST(Npy, LoadsNumpyBytesAndRoundTrips) {
  Value t = load_bytes(numpy_f32_2x3());
  amps_tensor_info info = vm().tensor_info(t);
  ASSERT_EQ(info.dtype, AMPS_FLOAT32);
  ASSERT_EQ(shape_of(info), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(static_cast<float*>(info.data)[5], 5.0f);
  EXPECT_EQ(npy_bytes(vm(), t, "x.npy"), numpy_f32_2x3());
}

TEST(Npy, EveryTruncationIsAValueError) {
  std::string full = numpy_f32_2x3();
  for (size_t n = 0; n < full.size(); ++n) {
    std::string k = kind_of([&] { load_bytes(full.substr(0, n)); });
    EXPECT_TRUE(k.starts_with("ValueError: ")) << n << " -> " << k;
  }
}

TEST(Npy, EveryByteFlipLoadsOrIsAValueError) {
  std::string full = numpy_f32_2x3();
  for (size_t i = 0; i < full.size(); ++i)
    for (unsigned char x : {0x01, 0x80, 0xff}) {
      std::string b = full;
      b[i] = char(b[i] ^ x);
      std::string k = kind_of([&] { load_bytes(b); });
      EXPECT_TRUE(k == "ok" || k.starts_with("ValueError: ")) << i << " -> " << k;
    }
}

TEST(Npz, ZipRoundTripAndDamage) {
  std::string path = (fs::temp_directory_path() / ("amps_npz_test_" + std::to_string(::getpid()) + ".npz")).string();
  std::string a = numpy_f32_2x3();
  std::string zip = zip_bytes({{"a.npy", a}, {"b.npy", a.substr(0, 100)}}, path);
  auto write = [&](const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; };
  write(zip);
  std::vector<ZipMember> m = read_zip(path);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "a.npy");
  EXPECT_EQ(m[0].data, a);
  EXPECT_EQ(m[1].data, a.substr(0, 100));
  for (size_t n = 0; n < zip.size(); n += 7) {
    write(zip.substr(0, n));
    std::string k = kind_of([&] { read_zip(path); });
    EXPECT_TRUE(k.starts_with("ValueError: ")) << n << " -> " << k;
  }
  for (size_t i = 0; i < zip.size(); ++i) {
    std::string b = zip;
    b[i] = char(b[i] ^ 0x5a);
    write(b);
    std::string k = kind_of([&] { read_zip(path); });
    EXPECT_TRUE(k == "ok" || k.starts_with("ValueError: ")) << i << " -> " << k;
  }
  fs::remove(path);
}

}  // namespace
}  // namespace amps::stdlib::data
