// Helpers the front-end unit tests share: a snippet as a source file, its AST dump, the SyntaxError it raises.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "interp/ast_printer.hpp"
#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"

namespace amps::interp::test {

inline SourceRef src(const std::string& text) { return std::make_shared<SourceFile>("t.amps", text, "."); }
inline std::string ast(const std::string& text) { return dump_ast(parse_program(src(text))); }

// Parses [text], expecting an error; returns it (a test failure, and an empty error, when none is raised).
inline AmpsError syntax_error(const std::string& text) {
  try {
    parse_program(src(text));
  } catch (const AmpsError& e) {
    return e;
  }
  ADD_FAILURE() << "no syntax error for: " << text;
  return AmpsError("", "");
}

}  // namespace amps::interp::test
