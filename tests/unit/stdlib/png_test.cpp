// data.write_png's encoder: the PNG framing read back chunk by chunk (signature, IHDR fields, CRC-32 of every chunk,
// IEND), the IDAT stream inflated with zlib to the filter-0 rows of the pixels, for each channel count.
#include <gtest/gtest.h>

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "stdlib/data/png.hpp"

namespace amps::stdlib::data {
namespace {

uint32_t be32(const std::string& s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 | uint32_t(uint8_t(s[at + 2])) << 8 |
         uint32_t(uint8_t(s[at + 3]));
}

struct Chunk {
  std::string type, data;
};

// The chunks after the signature, each CRC checked.
std::vector<Chunk> chunks(const std::string& png) {
  std::vector<Chunk> out;
  size_t at = 8;
  while (at < png.size()) {
    const uint32_t n = be32(png, at);
    Chunk c{png.substr(at + 4, 4), png.substr(at + 8, n)};
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(png.data() + at + 4), uInt(n + 4));
    EXPECT_EQ(be32(png, at + 8 + n), uint32_t(crc)) << c.type;
    out.push_back(c);
    at += 12 + n;
  }
  EXPECT_EQ(at, png.size());
  return out;
}

TEST(Png, FramesEachChannelCount) {
  const uint8_t colour_type[] = {0, 0, 4, 2, 6};
  for (int channels = 1; channels <= 4; ++channels) {
    const int64_t h = 3, w = 5;
    std::vector<uint8_t> px(size_t(h * w * channels));
    for (size_t i = 0; i < px.size(); ++i) px[i] = uint8_t(i * 37 + 11);
    const std::string png = png_bytes(px.data(), h, w, channels);
    ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    const std::vector<Chunk> cs = chunks(png);
    ASSERT_EQ(cs.size(), 3u);
    EXPECT_EQ(cs[0].type, "IHDR");
    EXPECT_EQ(be32(cs[0].data, 0), uint32_t(w));
    EXPECT_EQ(be32(cs[0].data, 4), uint32_t(h));
    EXPECT_EQ(cs[0].data.substr(8), std::string({char(8), char(colour_type[channels]), 0, 0, 0}));
    EXPECT_EQ(cs[1].type, "IDAT");
    std::vector<uint8_t> raw(size_t(h * (w * channels + 1)));
    uLongf n = raw.size();
    ASSERT_EQ(uncompress(raw.data(), &n, reinterpret_cast<const Bytef*>(cs[1].data.data()), uLong(cs[1].data.size())), Z_OK);
    ASSERT_EQ(n, raw.size());
    for (int64_t y = 0; y < h; ++y) {
      const size_t row = size_t(y * (w * channels + 1));
      EXPECT_EQ(raw[row], 0) << "filter type of row " << y;
      for (int64_t x = 0; x < w * channels; ++x) EXPECT_EQ(raw[row + 1 + size_t(x)], px[size_t(y * w * channels + x)]);
    }
    EXPECT_EQ(cs[2].type, "IEND");
    EXPECT_TRUE(cs[2].data.empty());
  }
}

}  // namespace
}  // namespace amps::stdlib::data
