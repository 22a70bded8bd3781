// Runs the ANTLR lexer/parser with amps' newline filter and error reporting, then the builder.
#include "interp/parser.hpp"

#include <fmt/format.h>

#include "AmpsLexer.h"
#include "AmpsParser.h"
#include "antlr4-runtime.h"
#include "interp/ast_builder.hpp"
#include "interp/diagnostics.hpp"
#include "interp/token_filter.hpp"

namespace amps::interp {
namespace {

// How a token reads in a message: 'text', "end of input" or "a line break".
std::string describe(const antlr4::Token* t) {
  if (!t || t->getType() == antlr4::Token::EOF) return "end of input";
  if (t->getType() == amps_gen::AmpsLexer::NEWLINE) return "a line break";
  return fmt::format("'{}'", t->getText());
}

// The expected-token set as "'a', 'b' or 'c'" when it is short enough to help.
std::string expected_list(antlr4::Parser* p) {
  auto set = p->getExpectedTokens();
  if (set.size() == 0 || set.size() > 4) return {};
  std::vector<std::string> names;
  for (ssize_t t : set.toList()) {
    if (t == amps_gen::AmpsLexer::NEWLINE) continue;
    names.push_back(p->getVocabulary().getDisplayName(t));
  }
  if (names.empty()) return {};
  std::string out = names[0];
  for (size_t i = 1; i < names.size(); ++i) out += (i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

// Replaces ANTLR's console listener: the first syntax error becomes an AmpsError.
class ErrorListener : public antlr4::BaseErrorListener {
 public:
  ErrorListener(const SourceRef& src, const TokenFilter& filter) : src_(src), filter_(filter) {}

  void syntaxError(antlr4::Recognizer* rec, antlr4::Token* bad, size_t line, size_t col,
                   const std::string&, std::exception_ptr) override {
    Span at{src_.get(), uint32_t(line), uint32_t(col + 1), uint32_t(line), uint32_t(col + 2)};
    if (bad && bad->getType() != antlr4::Token::EOF)
      at.end_col = at.col + std::max<uint32_t>(1, bad->getText().size());
    throw error_for(dynamic_cast<antlr4::Parser*>(rec), bad, at);
  }

 private:
  AmpsError error_for(antlr4::Parser* parser, antlr4::Token* bad, Span at) const {
    std::string text = bad ? bad->getText() : "";
    if (text == "\"" || text == "'") return AmpsError("SyntaxError", "unterminated string literal", at);
    if ((!bad || bad->getType() == antlr4::Token::EOF) && !filter_.open_brackets().empty()) {
      auto o = filter_.open_brackets().back();
      Span open{src_.get(), uint32_t(o.line), uint32_t(o.col), uint32_t(o.line), uint32_t(o.col + 1)};
      return AmpsError("SyntaxError", fmt::format("'{}' is never closed", o.bracket), open);
    }
    std::string msg = "unexpected " + describe(bad);
    std::string want = parser ? expected_list(parser) : "";
    if (!want.empty()) msg += ", expected " + want;
    return AmpsError("SyntaxError", msg, at);
  }

  const SourceRef& src_;
  const TokenFilter& filter_;
};

// Everything one parse needs, kept alive together (the parse tree points into the tokens).
struct ParseSession {
  ParseSession(const SourceRef& src, const std::string& text, uint32_t line, uint32_t col)
      : input(text), lexer(&input), filter(lexer), tokens(&filter), parser(&tokens),
        listener(src, filter) {
    lexer.removeErrorListeners();
    lexer.setLine(line);
    lexer.setCharPositionInLine(col);
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
  }
  antlr4::ANTLRInputStream input;
  amps_gen::AmpsLexer lexer;
  TokenFilter filter;
  antlr4::CommonTokenStream tokens;
  amps_gen::AmpsParser parser;
  ErrorListener listener;
};

// SyntaxError unless [text] is valid UTF-8 without NUL bytes (ANTLR's decoder would throw without a position, a
// NUL would cut messages short); the position counts code points, as the lexer's columns do.
void check_source_text(const SourceRef& src, const std::string& text) {
  uint32_t line = 1, col = 1;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= text.size() && c != 0 && !(n == 2 && c < 0xC2);
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!ok) {
      Span at{src.get(), line, col, line, col + 1};
      if (c == 0) throw AmpsError("SyntaxError", "the source contains a NUL byte; remove it (is this a text file?)", at);
      throw AmpsError("SyntaxError", fmt::format("invalid UTF-8 byte 0x{:02x} in the source; save the file as UTF-8", c), at);
    }
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
    i += n;
  }
}

// Runs [parse] on a session over [text]; brackets nested past TokenFilter::kMaxNesting are a SyntaxError.
template <typename F> auto with_nesting_limit(const SourceRef& src, F&& parse) {
  try {
    return parse();
  } catch (const NestingTooDeep& e) {
    Span at{src.get(), uint32_t(e.line), uint32_t(e.col), uint32_t(e.line), uint32_t(e.col + 1)};
    throw AmpsError("SyntaxError", fmt::format("too many nested brackets (more than {}); split the expression into "
                                               "named parts", TokenFilter::kMaxNesting), at);
  }
}

}  // namespace

Program parse_program(SourceRef src) {
  check_source_text(src, src->text());
  return with_nesting_limit(src, [&] {
    ParseSession s(src, src->text(), 1, 0);
    auto* tree = s.parser.program();
    Program prog{src, {}};
    prog.body = AstBuilder(src).program(tree);
    return prog;
  });
}

ExprPtr parse_embedded_expr(const SourceRef& src, const std::string& text, uint32_t line, uint32_t col) {
  return with_nesting_limit(src, [&] {
    ParseSession s(src, text, line, col);
    auto* tree = s.parser.exprOnly();
    return AstBuilder(src).expr(tree->expr());
  });
}

std::string dump_tokens(const SourceRef& src) {
  check_source_text(src, src->text());
  return with_nesting_limit(src, [&] {
    antlr4::ANTLRInputStream input(src->text());
    amps_gen::AmpsLexer lexer(&input);
    lexer.removeErrorListeners();
    TokenFilter filter(lexer);
    std::string out;
    for (auto t = filter.nextToken(); t->getType() != antlr4::Token::EOF; t = filter.nextToken()) {
      std::string name(lexer.getVocabulary().getSymbolicName(t->getType()));
      if (name.empty()) name = "PUNCT";
      std::string text = t->getType() == amps_gen::AmpsLexer::NEWLINE ? "\\n" : t->getText();
      out += fmt::format("{}:{} {} '{}'\n", t->getLine(), t->getCharPositionInLine() + 1, name, text);
    }
    return out;
  });
}

bool needs_more_input(const std::string& text) {
  try {
    antlr4::ANTLRInputStream input(text);
    amps_gen::AmpsLexer lexer(&input);
    lexer.removeErrorListeners();
    TokenFilter filter(lexer);
    bool any = false;
    while (filter.nextToken()->getType() != antlr4::Token::EOF) any = true;
    if (!any) return false;
    return !filter.open_brackets().empty() || filter.continues_after_text();
  } catch (const NestingTooDeep&) {
    return false;  // complete enough: the parse reports it
  } catch (const std::exception&) {
    return false;  // invalid UTF-8: the parse reports it with its position
  }
}

}  // namespace amps::interp
