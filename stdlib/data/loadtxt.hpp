// numpy.loadtxt's parser (NumPy 1.24): whitespace- or delimiter-separated numbers, comments, skiprows,
// usecols, max_rows and ndmin, with its squeezing of the result's shape. Pure (no vm) for unit tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace amps::stdlib::data {

struct LoadtxtOptions {
  std::optional<char> delimiter;              // none: runs of whitespace
  std::vector<std::string> comments{"#"};     // each starts a comment that runs to the end of the line
  int64_t skiprows = 0;                       // lines skipped first (comment and blank lines count)
  std::optional<std::vector<int64_t>> usecols;   // negative counts from the end
  int64_t max_rows = -1;                      // data rows read (blank and comment lines do not count); -1 all
  int ndmin = 0;                              // 0, 1 or 2
  bool integer = false;                       // cells as integers (a float with its fraction dropped is accepted)
  std::string dtype_name = "float32";         // for messages
};

struct LoadtxtTable {
  std::vector<double> values;                 // row-major; integers are exact up to 2^53 (see ints)
  std::vector<int64_t> ints;                  // the cells when options.integer
  std::vector<int64_t> shape;                 // after NumPy's squeeze / ndmin
};

// Parses [text] (the file's content; [name] for messages). ValueError "NAME:LINE: could not convert
// string 'x' to float32 (column 2)", ragged rows and bad usecols likewise.
LoadtxtTable parse_loadtxt(const std::string& text, const std::string& name, const LoadtxtOptions& o);

}  // namespace amps::stdlib::data
