// TextFile (open()'s engine) against CPython's TextIOWrapper results: multi-byte characters across read(n)
// calls, "\r\n" split between reads, every newline= mode, UTF-8 errors, mode parsing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "amps/amps.hpp"
#include "stdlib/io/text_file.hpp"

namespace amps::stdlib::io {
namespace {

struct TempFile {
  std::string path = (std::filesystem::temp_directory_path() / ("amps_text_" + std::to_string(::getpid()))).string();
  explicit TempFile(const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }
  ~TempFile() { std::filesystem::remove(path); }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ScriptError& e) {
    return e.kind + ": " + e.what();
  }
  return "ok";
}

TEST(TextFile, ReadCountsCharactersAndTranslatesNewlines) {
  TempFile t("a\xc3\xa9\xe2\x82\xac\r\nb\rc\n");   // a é € CRLF b CR c LF
  TextFile f(t.path, "r", std::nullopt);
  EXPECT_EQ(f.read(2), "a\xc3\xa9");
  EXPECT_EQ(f.read(1), "\xe2\x82\xac");
  EXPECT_EQ(f.read(1), "\n");   // "\r\n" is one character
  EXPECT_EQ(f.readline(-1), "b\n");
  EXPECT_EQ(f.readline(-1), "c\n");
  EXPECT_EQ(f.readline(-1), "");
}

TEST(TextFile, NewlineModesSplitAsPython) {
  TempFile t("x\r\ny\rz\n");
  auto lines = [&](std::optional<std::string> nl) {
    TextFile f(t.path, "r", nl);
    std::vector<std::string> out;
    for (std::string l = f.readline(-1); !l.empty(); l = f.readline(-1)) out.push_back(l);
    return out;
  };
  EXPECT_EQ(lines(std::nullopt), (std::vector<std::string>{"x\n", "y\n", "z\n"}));
  EXPECT_EQ(lines(""), (std::vector<std::string>{"x\r\n", "y\r", "z\n"}));
  EXPECT_EQ(lines("\n"), (std::vector<std::string>{"x\r\n", "y\rz\n"}));
  EXPECT_EQ(lines("\r"), (std::vector<std::string>{"x\r", "\ny\r", "z\n"}));
  EXPECT_EQ(lines("\r\n"), (std::vector<std::string>{"x\r\n", "y\rz\n"}));
}

TEST(TextFile, WriteTranslatesAndCounts) {
  TempFile t("");
  {
    TextFile f(t.path, "w", "\r\n");
    EXPECT_EQ(f.write("\xc3\xa9\n"), 2);
  }
  std::ifstream in(t.path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(s, "\xc3\xa9\r\n");
}

TEST(TextFile, InvalidUtf8IsAUnicodeDecodeError) {
  for (const char* bytes : {"ok\xff", "\xc3", "\xe2\x28\xa1", "\xc0\xaf"}) {
    TempFile t(bytes);
    TextFile f(t.path, "r", std::nullopt);
    EXPECT_TRUE(error_of([&] { f.read(-1); }).starts_with("UnicodeDecodeError: 'utf-8' codec can't decode byte")) << bytes;
  }
}

TEST(TextFile, ModesAsPython) {
  EXPECT_EQ(error_of([] { parse_open_mode("r+b"); }), "ok");
  EXPECT_EQ(error_of([] { parse_open_mode(""); }), "ValueError: Must have exactly one of create/read/write/append mode and at most one plus");
  EXPECT_EQ(error_of([] { parse_open_mode("t+"); }), "ValueError: Must have exactly one of create/read/write/append mode and at most one plus");
  EXPECT_EQ(error_of([] { parse_open_mode("r++"); }), "ValueError: invalid mode: 'r++'");
  EXPECT_EQ(error_of([] { parse_open_mode("wx"); }), "ValueError: must have exactly one of create/read/write/append mode");
  EXPECT_TRUE(parse_open_mode("a+").readable());
  EXPECT_FALSE(parse_open_mode("x").readable());
  EXPECT_EQ(errno_message(2, "it's"), "[Errno 2] No such file or directory: \"it's\"");
}

}  // namespace
}  // namespace amps::stdlib::io
