// Reading IDX files (the MNIST/Fashion-MNIST format), gzip-compressed or plain, with validation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace amps::stdlib::data {

// An unsigned-byte IDX array: dims and the row-major bytes (product of dims == bytes.size()).
struct IdxArray {
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
};

// Reads `path` (gzip or plain) and checks the header: magic 0x0000 08 `ndim` (unsigned bytes,
// `ndim` dimensions) and a payload of exactly the declared size. Throws amps::ScriptError naming the
// file: FileNotFoundError when missing, ValueError when truncated or corrupt.
IdxArray read_idx(const std::string& path, int ndim);

}  // namespace amps::stdlib::data
