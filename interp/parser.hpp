// Front end entry points: source text → tokens → ANTLR parse tree → AST (via the builder).
#pragma once

#include <string>

#include "interp/ast.hpp"

namespace amps::interp {

// Parses a whole unit; throws AmpsError(kind "SyntaxError") at the first syntax error.
Program parse_program(SourceRef src);

// Parses one embedded f-string expression that starts at (line, col) of `src`.
ExprPtr parse_embedded_expr(const SourceRef& src, const std::string& text, uint32_t line, uint32_t col);

// One token per line, `LINE:COL KIND 'text'`, after newline filtering (--dump-tokens).
std::string dump_tokens(const SourceRef& src);

// True when `text` ends inside an open bracket or after a continuation token, so the REPL
// should read another line before parsing.
bool needs_more_input(const std::string& text);

}  // namespace amps::interp
