// String literals: Python's prefixes (r, f, rf) and quotes (one or three of either kind), adjacent literals
// concatenated; f-strings split into literal and expression parts, each embedded expression parsed with its real
// source position so errors point inside the string.
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

StringToken split_string_token(std::string_view text) {
  StringToken t;
  size_t p = 0;
  for (; p < text.size() && text[p] != '"' && text[p] != '\''; ++p) {
    t.raw = t.raw || text[p] == 'r' || text[p] == 'R';
    t.f = t.f || text[p] == 'f' || text[p] == 'F';
  }
  const bool triple = text.size() - p >= 6 && text[p + 1] == text[p] && text[p + 2] == text[p];
  t.open = p + (triple ? 3 : 1);
  t.body = text.substr(t.open, text.size() - t.open - (triple ? 3 : 1));
  return t;
}

// A literal part's text: escapes decoded unless raw; a line break in the source (\r\n too) is "\n", as Python's.
static std::string literal_text(std::string_view body, bool raw, const Span& where) {
  std::string text;
  for (size_t i = 0; i < body.size(); ++i)
    if (!(body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n')) text += body[i];
  return raw ? text : unescape(text, where);
}

std::string string_token_value(antlr4::Token* tok, const Span& where) {
  const std::string text = tok->getText();
  const StringToken t = split_string_token(text);
  return literal_text(t.body, t.raw, where);
}

// Line and 0-based column of body[i] in the source: a triple-quoted body may span lines.
static std::pair<uint32_t, uint32_t> body_position(antlr4::Token* tok, const StringToken& t, size_t i) {
  uint32_t line = uint32_t(tok->getLine()), col = uint32_t(tok->getCharPositionInLine() + t.open);
  for (size_t k = 0; k < i; ++k) {
    if (t.body[k] == '\n') ++line, col = 0;
    else ++col;
  }
  return {line, col};
}

// strLit: (STRING | FSTRING)+ — adjacent literals concatenate, as Python's; with an f-string among them the whole
// is one f-string.
ExprPtr AstBuilder::string_lit(P::StrLitContext* ctx) {
  Span s = span(ctx);
  std::vector<antlr4::Token*> toks;
  bool any_f = false;
  for (auto* node : ctx->children) {
    toks.push_back(static_cast<antlr4::tree::TerminalNode*>(node)->getSymbol());
    any_f = any_f || toks.back()->getType() == P::FSTRING;
  }
  if (!any_f) {
    std::string value;
    for (antlr4::Token* tok : toks) value += string_token_value(tok, span(tok));
    return std::make_unique<StrLit>(s, std::move(value));
  }
  auto out = std::make_unique<FStr>(s);
  for (antlr4::Token* tok : toks) {
    if (tok->getType() == P::FSTRING) fstring(tok, *out);
    else out->parts.push_back({string_token_value(tok, span(tok)), nullptr, ""});
  }
  return out;
}

// FSTRING: f"..." with {expr} and {expr:spec}; {{ and }} are literal braces. Appends its parts to [out].
void AstBuilder::fstring(antlr4::Token* tok, FStr& out) {
  Span s = span(tok);
  const std::string text = tok->getText();
  const StringToken t = split_string_token(text);
  std::string_view body = t.body;
  std::string lit;
  auto flush = [&] {
    if (lit.empty()) return;
    out.parts.push_back({literal_text(lit, t.raw, s), nullptr, ""});
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
      out.parts.push_back({code, nullptr, ""});
      code.erase(code.find_last_not_of(" \t"));
    }
    const auto [line, col] = body_position(tok, t, i + 1);
    FStrPart part{"", parse_embedded_expr(src_, code, line, col), ""};
    part.repr = self_doc;
    part.conversion = conversion;
    if (body[end] == ':') {
      size_t close = body.find('}', end);
      if (close == std::string_view::npos) throw AmpsError("SyntaxError", "f-string: expected '}'", s);
      part.spec = std::string(body.substr(end + 1, close - end - 1));
      end = close;
    }
    out.parts.push_back(std::move(part));
    i = end;
  }
  flush();
}

}  // namespace amps::interp
