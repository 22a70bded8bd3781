// --dump-ast: the AST as s-expressions, one statement per line (stage test printer).
#pragma once

#include <string>

#include "interp/ast.hpp"

namespace amps::interp {

std::string dump_ast(const Program& prog);
std::string dump_expr(const Expr& e);

}  // namespace amps::interp
