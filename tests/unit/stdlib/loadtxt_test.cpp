// numpy.loadtxt's parsing rules (results checked against NumPy 1.24) and posixpath's string functions.
#include <gtest/gtest.h>

#include <cmath>

#include "amps/amps.hpp"
#include "stdlib/data/loadtxt.hpp"
#include "stdlib/io/os_path.hpp"

namespace amps::stdlib::data {
namespace {

std::string error_of(const std::string& text, const LoadtxtOptions& o) {
  try {
    parse_loadtxt(text, "f.txt", o);
  } catch (const ScriptError& e) {
    return e.kind + ": " + e.what();
  }
  return "ok";
}

TEST(Loadtxt, ShapesSqueezeAsNumpy) {
  LoadtxtOptions o;
  EXPECT_EQ(parse_loadtxt("1 2\n3 4\n", "f", o).shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(parse_loadtxt("1 2\n", "f", o).shape, std::vector<int64_t>{2});
  EXPECT_EQ(parse_loadtxt("1\n2\n3\n", "f", o).shape, std::vector<int64_t>{3});
  EXPECT_TRUE(parse_loadtxt("5\n", "f", o).shape.empty());
  EXPECT_EQ(parse_loadtxt("", "f", o).shape, std::vector<int64_t>{0});
  o.ndmin = 2;
  EXPECT_EQ(parse_loadtxt("1 2\n", "f", o).shape, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(parse_loadtxt("1\n2\n", "f", o).shape, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(parse_loadtxt("", "f", o).shape, (std::vector<int64_t>{0, 1}));
  o.ndmin = 1;
  EXPECT_EQ(parse_loadtxt("1\n", "f", o).shape, std::vector<int64_t>{1});
}

TEST(Loadtxt, CellsCommentsAndRows) {
  LoadtxtOptions o;
  o.delimiter = ',';
  LoadtxtTable t = parse_loadtxt("# h\n1, 2 # c\r\n\n  \n-0,1e400\n", "f", o);
  ASSERT_EQ(t.values.size(), 4u);
  EXPECT_EQ(t.values[1], 2.0);
  EXPECT_TRUE(std::signbit(t.values[2]));
  EXPECT_TRUE(std::isinf(t.values[3]));
  o.max_rows = 1;
  EXPECT_EQ(parse_loadtxt("# h\n\n1,2\n3,4\n", "f", o).values.size(), 2u);
  o.max_rows = -1;
  o.skiprows = 2;
  EXPECT_EQ(parse_loadtxt("# h\n1,2\n3,4\n", "f", o).values, (std::vector<double>{3, 4}));
  o.skiprows = 0;
  o.integer = true;
  EXPECT_EQ(parse_loadtxt("1, -2\n3.9, 4\n", "f", o).ints, (std::vector<int64_t>{1, -2, 3, 4}));
}

TEST(Loadtxt, ErrorsNameFileLineAndCell) {
  LoadtxtOptions o;
  EXPECT_EQ(error_of("1 2\n3 0x10\n", o), "ValueError: f.txt:2: could not convert string '0x10' to float32 (column 2)");
  EXPECT_EQ(error_of("1 1_0\n", o), "ValueError: f.txt:1: could not convert string '1_0' to float32 (column 2)");
  EXPECT_EQ(error_of("1 2 3\n# c\n4 5\n", o),
            "ValueError: f.txt:3: the number of columns changed from 3 to 2; use `usecols` to select a subset and avoid this error");
  o.delimiter = ',';
  EXPECT_EQ(error_of("1,,2\n", o), "ValueError: f.txt:1: could not convert string '' to float32 (column 2)");
  o.usecols = std::vector<int64_t>{-4};
  EXPECT_EQ(error_of("1,2,3\n", o), "ValueError: f.txt:1: invalid column index -4 with 3 columns");
}

}  // namespace
}  // namespace amps::stdlib::data

namespace amps::stdlib::io {
namespace {

// Expected values from CPython 3's posixpath.
TEST(OsPath, PosixpathStringFunctions) {
  EXPECT_EQ(path_join({"a", "b", "c"}), "a/b/c");
  EXPECT_EQ(path_join({"a/", "/abs", "x"}), "/abs/x");
  EXPECT_EQ(path_join({"a", ""}), "a/");
  EXPECT_EQ(path_dirname("/x//y"), "/x");
  EXPECT_EQ(path_dirname("//"), "//");
  EXPECT_EQ(path_basename("/x/"), "");
  EXPECT_EQ(path_splitext("..."), (std::pair<std::string, std::string>{"...", ""}));
  EXPECT_EQ(path_splitext("a/.b.c"), (std::pair<std::string, std::string>{"a/.b", ".c"}));
  EXPECT_EQ(path_normpath("///a/../../b"), "/b");
  EXPECT_EQ(path_normpath("a/../.."), "..");
  EXPECT_EQ(path_normpath("./"), ".");
  EXPECT_EQ(path_expand_home("~", "/home/u/"), "/home/u");
  EXPECT_EQ(path_expand_home("~/x", "/"), "/x");
  EXPECT_EQ(path_expand_home("~", "/"), "/");
}

}  // namespace
}  // namespace amps::stdlib::io
