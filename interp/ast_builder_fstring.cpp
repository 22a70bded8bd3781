// f-strings: splits f"text {expr:spec}" into literal and expression parts; each embedded
// expression is parsed with its real source position so errors point inside the string.
#include <cctype>

#include "interp/ast_builder.hpp"
#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"

namespace amps::interp {

// Index just past the expression that starts at `i` (at the ':' of a spec or the closing '}'),
// honouring nested brackets and quotes; npos when the '{' is never closed.
static size_t expr_end(std::string_view body, size_t i) {
  int depth = 0;
  char quote = 0;
  for (; i < body.size(); ++i) {
    char c = body[i];
    if (quote) { if (c == quote) quote = 0; continue; }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']') --depth;
    else if (c == '}' && depth-- == 0) return i;
    else if (c == ':' && depth == 0) return i;
  }
  return std::string_view::npos;
}

// `x=` / `x = ` (but not `a == b`, `a != b`, `a <= b`, `a >= b`): Python 3.8's self-documenting field.
static bool self_documenting(const std::string& code) {
  size_t last = code.find_last_not_of(" \t");
  if (last == std::string::npos || code[last] != '=') return false;
  return last == 0 || std::string_view("=!<>").find(code[last - 1]) == std::string_view::npos;
}

// FSTRING: f"..." with {expr} and {expr:spec}; {{ and }} are literal braces.
ExprPtr AstBuilder::fstring(antlr4::Token* tok) {
  Span s = span(tok);
  std::string text = tok->getText();
  std::string_view body = std::string_view(text).substr(2, text.size() - 3);
  const uint32_t body_col = tok->getCharPositionInLine() + 2;   // 0-based column of body[0]
  auto out = std::make_unique<FStr>(s);
  std::string lit;
  auto flush = [&] {
    if (lit.empty()) return;
    out->parts.push_back({unescape(lit, s), nullptr, ""});
    lit.clear();
  };
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if ((c == '{' || c == '}') && i + 1 < body.size() && body[i + 1] == c) { lit += c; ++i; continue; }
    if (c == '}') throw AmpsError("SyntaxError", "single '}' is not allowed in an f-string (write '}}')", s);
    if (c == '\\' && i + 1 < body.size()) { lit += c; lit += body[++i]; continue; }
    if (c != '{') { lit += c; continue; }
    flush();
    size_t end = expr_end(body, i + 1);
    if (end == std::string_view::npos) throw AmpsError("SyntaxError", "f-string: expected '}'", s);
    std::string code(body.substr(i + 1, end - i - 1));
    if (code.find_first_not_of(" \t") == std::string::npos)
      throw AmpsError("SyntaxError", "f-string: empty expression not allowed", s);
    char conversion = 0;   // `{x!r}`, `{x!s}`: Python's conversions (`a != b` never ends in one)
    if (code.size() >= 2 && code[code.size() - 2] == '!' && std::isalpha(uint8_t(code.back()))) {
      conversion = code.back();
      if (conversion != 'r' && conversion != 's')
        throw AmpsError("SyntaxError", std::string("f-string: invalid conversion character '") + conversion +
                                           "': expected 'r' or 's' (write repr(x) or str(x))", s);
      code.resize(code.size() - 2);
    }
    bool self_doc = self_documenting(code);
    if (self_doc) {   // f"{x = }": the source text itself, '=' and spaces included, then the value
      out->parts.push_back({code, nullptr, ""});
      code.erase(code.find_last_not_of(" \t"));
    }
    FStrPart part{"", parse_embedded_expr(src_, code, tok->getLine(), body_col + i + 1), ""};
    part.repr = self_doc;
    part.conversion = conversion;
    if (body[end] == ':') {
      size_t close = body.find('}', end);
      if (close == std::string_view::npos) throw AmpsError("SyntaxError", "f-string: expected '}'", s);
      part.spec = std::string(body.substr(end + 1, close - end - 1));
      end = close;
    }
    out->parts.push_back(std::move(part));
    i = end;
  }
  flush();
  return out;
}

}  // namespace amps::interp
