// NumPy's .npy format (versions 1.0, 2.0, 3.0; numpy/lib/format.py): magic "\x93NUMPY", major, minor,
// a little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0), then a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces and a newline so the
// data starts 64-byte aligned, then the raw elements (column-major when fortran_order).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amps/amps.hpp"

namespace amps::stdlib::data {

// One row of the descr table: NumPy's dtype string, the amps dtype, and whether elements are
// big-endian (byte-swapped on load). Saving writes the first row of a dtype.
struct NpyType {
  const char* descr;
  amps_dtype dtype;
  bool big_endian;
};
const std::vector<NpyType>& npy_types();
std::optional<NpyType> npy_type(std::string_view descr);

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// Parses the header dict text (between the length field and the data); ValueError naming [path]
// and the problem for anything that is not the three keys with values of the right type.
NpyHeader parse_npy_header(std::string_view text, const std::string& path);
// The whole preamble (magic, version, length, padded dict) for [h]: version 1.0 unless the dict
// needs more than 65535 bytes.
std::string npy_preamble(const NpyHeader& h);

// Reads the bytes [off, off + n) of a .npy's container (a file or a zip member in memory); throws
// ValueError when they are not there (truncated).
using NpyReader = std::function<void(void* dst, uint64_t off, size_t n)>;

// The array of a .npy of [size] bytes read through [read], as a new cpu tensor of [vm] (big-endian
// data swapped, Fortran order made row-major, bools normalised to 0/1). [path] names errors.
Value load_npy(Vm& vm, const NpyReader& read, uint64_t size, const std::string& path);
Value load_npy_file(Vm& vm, const std::string& path);
// A tensor (any device, layout) as the .npy bytes NumPy's np.save writes.
std::string npy_bytes(Vm& vm, const Value& t, const std::string& path);

}  // namespace amps::stdlib::data
