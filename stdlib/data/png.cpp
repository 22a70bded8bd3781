// PNG encoding (see png.hpp): the format's own framing around zlib's deflate and CRC-32 (Debian's zlib, which the
// stdlib already links for gzip), so a written file opens in any viewer and in PIL/torchvision.
#include "stdlib/data/png.hpp"

#include <fmt/ranges.h>
#include <zlib.h>

#include <cstring>
#include <vector>

#include "stdlib/io/atomic_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {
namespace {

void put_u32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(char((v >> shift) & 0xff));
}

// One chunk: length, type, data, CRC-32 of type and data.
void put_chunk(std::string& out, const char type[5], const std::string& data) {
  put_u32(out, uint32_t(data.size()));
  const size_t start = out.size();
  out.append(type, 4);
  out += data;
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(out.data() + start), uInt(out.size() - start));
  put_u32(out, uint32_t(crc));
}

// The rows, each behind its filter-type byte 0 (none), deflated into one zlib stream.
std::string idat(const uint8_t* pixels, int64_t height, int64_t width, int channels) {
  const size_t row = size_t(width) * size_t(channels);
  std::vector<uint8_t> raw;
  raw.reserve(size_t(height) * (row + 1));
  for (int64_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), pixels + size_t(y) * row, pixels + size_t(y + 1) * row);
  }
  uLongf n = compressBound(uLong(raw.size()));
  std::string out(n, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &n, raw.data(), uLong(raw.size()), 6) != Z_OK)
    fail("MemoryError", "write_png(): zlib could not compress the image");
  out.resize(n);
  return out;
}

}  // namespace

std::string png_bytes(const uint8_t* pixels, int64_t height, int64_t width, int channels) {
  static const uint8_t kColorType[] = {0, 0, 4, 2, 6};  // by channel count: gray, gray+alpha, RGB, RGBA
  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put_u32(ihdr, uint32_t(width));
  put_u32(ihdr, uint32_t(height));
  ihdr += {char(8), char(kColorType[channels]), 0, 0, 0};  // bit depth, colour type, deflate, filter 0, no interlace
  put_chunk(out, "IHDR", ihdr);
  put_chunk(out, "IDAT", idat(pixels, height, width, channels));
  put_chunk(out, "IEND", "");
  return out;
}

Value b_data_write_png(Vm& vm, Call& call) {
  Args r(vm, call, "write_png", {"path", "image"});
  const std::string path = checked_path(vm, r, 0, "write_png");
  const Value& t = r.required(1);
  if (!t.is(AMPS_TYPE_TENSOR)) fail("TypeError", fmt::format("write_png(): image must be a tensor, not {}", t.type_name()));
  amps_tensor_info info = vm.tensor_info(t);
  if (info.dtype != AMPS_UINT8)
    fail("TypeError", fmt::format("write_png(): image must be a uint8 tensor of 0..255 values, not {} (convert with "
                                  "x.mul(255).add_(0.5).clamp_(0, 255).to(uint8), as save_image does)", amps_dtype_name(info.dtype)));
  const int64_t channels = info.ndim == 3 ? info.shape[2] : 1;
  if ((info.ndim != 2 && info.ndim != 3) || channels < 1 || channels > 4)
    fail("ValueError", fmt::format("write_png(): image must be (H, W) or (H, W, C) with C 1 (gray), 2 (gray, alpha), 3 "
                                   "(RGB) or 4 (RGBA), not of shape ({})", fmt::join(shape_of(info), ", ")));
  const int64_t height = info.shape[0], width = info.shape[1];
  if (height < 1 || width < 1 || height > 0x7fffffff || width > 0x7fffffff)
    fail("ValueError", fmt::format("write_png(): an image of {} x {} pixels cannot be a PNG (1 to 2^31 - 1 per side)", height, width));
  std::vector<uint8_t> pixels(size_t(info.numel));
  vm.check(amps_tensor_read(vm.get(), t.get(), AMPS_UINT8, pixels.data(), pixels.size()));
  const std::string bytes = png_bytes(pixels.data(), height, width, int(channels));
  io::atomic_write(path, [&](int fd) { io::write_all(fd, bytes.data(), bytes.size(), path); });
  return Value::none();
}

}  // namespace amps::stdlib::data

namespace amps::stdlib {
// The natives of the data_images script module (stdlib/script_modules.cpp).
extern const amps_reg data_images_natives[] = {
    {"write_png", native<data::b_data_write_png>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};
}  // namespace amps::stdlib
