// PNG encoding for data.write_png / data.save_image (torchvision.utils.save_image's file format).
#pragma once

#include <cstdint>
#include <string>

#include "amps/amps.hpp"

namespace amps::stdlib::data {

// The bytes of a PNG file holding [height] x [width] pixels of [channels] (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA)
// 8-bit samples, row-major and interleaved in [pixels]: signature, IHDR, one zlib IDAT (filter 0 on every row),
// IEND, each chunk with its CRC-32.
std::string png_bytes(const uint8_t* pixels, int64_t height, int64_t width, int channels);

// data.write_png(path, image): writes a uint8 tensor (H, W) or (H, W, C) with C in 1..4 as a PNG file (atomically).
Value b_data_write_png(Vm& vm, Call& call);

}  // namespace amps::stdlib::data
