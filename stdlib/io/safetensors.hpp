// The safetensors file format: an atomic, checksummed writer and a validating reader.
// Layout (https://github.com/huggingface/safetensors): 8-byte little-endian header length N,
// N bytes of JSON header {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__":
// {str: str}}, then the byte buffer the offsets index (relative to its start, no holes).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "amps/amps.hpp"

namespace amps::stdlib::io {

// The spec's dtype name ("F32", "BF16", ...) of an amps dtype, and back (nullopt when unknown).
std::string safetensors_dtype(amps_dtype dt);
std::optional<amps_dtype> dtype_from_safetensors(const std::string& name);

// Tensors (script values of [vm]) in file order plus the string metadata.
struct SafetensorsFile {
  std::vector<std::pair<std::string, Value>> tensors;
  std::map<std::string, std::string> metadata;
};

// Metadata key of the CRC-32 (8 lowercase hex digits) of the data section; verified on read.
inline constexpr const char* kChecksumKey = "amps.crc32";

// The JSON header (no length prefix, no padding) for `file`; the writer adds kChecksumKey.
std::string safetensors_header(Vm& vm, const SafetensorsFile& file);

// Writes `file` to `path` atomically: a temporary file in the same directory, fsync, rename over
// `path`, fsync of the directory. A failed or killed write leaves any previous `path` intact.
// Tensors may live on any device and have any strides (contiguous cpu tensors are written from
// their own memory, others through one copy). Throws amps::ScriptError("OSError") on OS errors.
void write_safetensors(Vm& vm, const std::string& path, const SafetensorsFile& file);

// Reads and validates `path` (header size, JSON, dtypes, shapes, offsets covering the buffer exactly,
// checksum when present). Throws amps::ScriptError: FileNotFoundError, OSError, or ValueError
// naming the file and what is wrong with it. Tensors come back as new cpu tensors of [vm], read
// straight into their memory, in data-offset order.
SafetensorsFile read_safetensors(Vm& vm, const std::string& path);

}  // namespace amps::stdlib::io
