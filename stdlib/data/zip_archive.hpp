// The subset of the ZIP format that NumPy's .npz files use (APPNOTE.TXT): members stored or deflated
// (np.savez / np.savez_compressed), with zip64 extra fields (NumPy writes them), no encryption, one disk.
#pragma once

#include <string>
#include <vector>

namespace amps::stdlib::data {

struct ZipMember {
  std::string name;
  std::string data;
};

// The members of the archive at [path] in central-directory order, inflated and CRC-checked.
// FileNotFoundError etc. when it cannot be read; ValueError naming [path] and the problem when it is
// not a zip this reader handles or is truncated or corrupt.
std::vector<ZipMember> read_zip(const std::string& path);

// The bytes of a zip archive holding [members] stored uncompressed (as np.savez writes them);
// ValueError for a member of 4 GiB or more (that needs zip64, which this writer does not do).
std::string zip_bytes(const std::vector<ZipMember>& members, const std::string& path);

}  // namespace amps::stdlib::data
