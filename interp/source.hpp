// Source files and spans: every AST node and diagnostic points back into a SourceFile.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace amps::interp {

class SourceFile;

// A half-open region of one source file; lines and columns are 1-based.
struct Span {
  const SourceFile* file = nullptr;
  uint32_t line = 0, col = 0;
  uint32_t end_line = 0, end_col = 0;
};

// One unit of source text: a script file, an `-e` string or a REPL entry.
class SourceFile {
 public:
  SourceFile(std::string name, std::string text, std::string dir)
      : name_(std::move(name)), text_(std::move(text)), dir_(std::move(dir)) {}
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // Directory that relative `import "x.amps"` paths start from.
  const std::string& dir() const { return dir_; }
  // The text of 1-based line `n`, without its newline ("" past the end).
  std::string_view line(uint32_t n) const;

 private:
  std::string name_, text_, dir_;
};

using SourceRef = std::shared_ptr<const SourceFile>;

}  // namespace amps::interp
