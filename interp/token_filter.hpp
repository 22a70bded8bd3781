// Statement-ending newlines: drops NEWLINE tokens inside ( ) and [ ], after a binary operator
// or comma, and repeats, so the grammar only sees newlines that end statements (LANGUAGE §1).
#pragma once

#include <memory>
#include <vector>

#include "AmpsLexer.h"
#include "antlr4-runtime.h"

namespace amps::interp {

// Thrown by TokenFilter when brackets nest deeper than kMaxNesting (as Python's parser limit): deeper input
// would make the parser's recursion slow and memory-hungry. The parser turns it into a SyntaxError.
struct NestingTooDeep {
  size_t line, col;
};

class TokenFilter : public antlr4::TokenSource {
 public:
  static constexpr size_t kMaxNesting = 200;

  explicit TokenFilter(amps_gen::AmpsLexer& lexer) : lexer_(lexer) {}

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return lexer_.getLine(); }
  size_t getCharPositionInLine() override { return lexer_.getCharPositionInLine(); }
  antlr4::CharStream* getInputStream() override { return lexer_.getInputStream(); }
  std::string getSourceName() override { return lexer_.getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override { return lexer_.getTokenFactory(); }

  // Open brackets at the current point, innermost last: (char, line, col).
  struct Open { char bracket; size_t line, col; };
  const std::vector<Open>& open_brackets() const { return open_; }
  // True when the last significant token asks for the statement to go on.
  bool continues() const { return continues_; }
  // True when the last token other than a line break asks for the statement to go on.
  bool continues_after_text() const { return last_continues_; }

 private:
  bool keep_newline() const;
  void track(const antlr4::Token& t);

  amps_gen::AmpsLexer& lexer_;
  std::vector<Open> open_;
  bool continues_ = true;       // start of input: leading newlines are dropped
  bool last_continues_ = false;
};

}  // namespace amps::interp
