// Newline filtering between the ANTLR lexer and parser (see token_filter.hpp).
#include "interp/token_filter.hpp"

#include <string_view>
#include <unordered_set>

namespace amps::interp {

// Tokens after which a line break does not end the statement.
static bool is_continuation(const antlr4::Token& t) {
  static const std::unordered_set<std::string_view> ops = {
      "+", "-", "*", "/", "//", "%", "@", "**", "==", "!=", "<", "<=", ">", ">=", "=", "+=",
      "-=", "*=", "/=", "//=", "%=", "**=", "@=", ",", ".", "(", "[", "{", "and", "or", "not",
      "in", "is", ";", "&", "|", "^", "<<", ">>", "~", "&=", "|=", "^=", "<<=", ">>="};
  const std::string text = t.getText();
  return ops.count(text) > 0 && t.getType() != amps_gen::AmpsLexer::STRING;
}

bool TokenFilter::keep_newline() const {
  if (continues_) return false;
  return open_.empty() || open_.back().bracket == '{';
}

void TokenFilter::track(const antlr4::Token& t) {
  const std::string text = t.getText();
  if (text == "(" || text == "[" || text == "{") {
    open_.push_back({text[0], t.getLine(), t.getCharPositionInLine() + 1});
    if (open_.size() > kMaxNesting) throw NestingTooDeep{t.getLine(), t.getCharPositionInLine() + 1};
  } else if ((text == ")" || text == "]" || text == "}") && !open_.empty()) {
    open_.pop_back();
  }
  bool newline = t.getType() == amps_gen::AmpsLexer::NEWLINE;
  continues_ = newline || is_continuation(t);
  if (!newline) last_continues_ = is_continuation(t) && text != ";";
}

std::unique_ptr<antlr4::Token> TokenFilter::nextToken() {
  for (;;) {
    auto t = lexer_.nextToken();
    if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
    if (t->getType() == amps_gen::AmpsLexer::NEWLINE && !keep_newline()) continue;
    if (t->getType() != antlr4::Token::EOF) track(*t);
    return t;
  }
}

}  // namespace amps::interp
