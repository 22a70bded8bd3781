// Front-end units: parse snippets, check the AST's shape (dump_ast, node kinds) and spans.
#include <gtest/gtest.h>

#include "interp/ast_printer.hpp"
#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"
#include "tests/unit/interp/parse_helpers.hpp"

namespace amps::interp {
namespace {

using test::ast;
using test::src;
using test::syntax_error;

TEST(Builder, PrecedenceShapesTheTree) {
  EXPECT_EQ(ast("let x = 1 + 2 * 3"), "(let x (+ 1 (* 2 3)))\n");
  EXPECT_EQ(ast("-2 ** 2"), "(neg (** 2 2))\n");
  EXPECT_EQ(ast("2 ** 3 ** 2"), "(** 2 (** 3 2))\n");
  EXPECT_EQ(ast("a or b and not c == d"), "(or a (and b (not (compare c == d))))\n");
  EXPECT_EQ(ast("x if a or b else y"), "(if (or a b) x y)\n");
  EXPECT_EQ(ast("10 - 4 - 3"), "(- (- 10 4) 3)\n");
}

TEST(Builder, StatementsAndLiteralsDump) {
  EXPECT_EQ(ast("let (a, (b, c)) = t"), "(let (tuple a (tuple b c)) t)\n");
  EXPECT_EQ(ast("x += 1; y = (1,)"), "(+= x 1)\n(= y (tuple 1))\n");
  EXPECT_EQ(ast("f(1, k=2, *a, **b)"), "(call f 1 (kw k 2) (* a) (** b))\n");
  EXPECT_EQ(ast("t[0, 1:3, :, ...]"), "(index t 0 (slice 1 3 _) (slice _ _ _) ...)\n");
  EXPECT_EQ(ast("{\"a\": [1, 2.5], 3: none}"), "(dict (\"a\" (list 1 2.5)) (3 none))\n");
  EXPECT_EQ(ast("[x for (x, y) in z if x]"), "(listcomp x (tuple x y) z x)\n");
}

TEST(Builder, NodeKinds) {
  Program p = parse_program(src("let a = 1\nfn f() { }\nclass C { }\nif a { } else { }\nwhile a { }\nimport math"));
  ASSERT_EQ(p.body.size(), 6u);
  EXPECT_EQ(p.body[0]->kind, StmtKind::Let);
  EXPECT_EQ(p.body[1]->kind, StmtKind::Fn);
  EXPECT_EQ(p.body[2]->kind, StmtKind::Class);
  EXPECT_EQ(p.body[3]->kind, StmtKind::If);
  EXPECT_EQ(p.body[4]->kind, StmtKind::While);
  EXPECT_EQ(p.body[5]->kind, StmtKind::Import);
  auto& let = static_cast<const LetStmt&>(*p.body[0]);
  EXPECT_EQ(let.value->kind, ExprKind::Int);
  EXPECT_EQ(static_cast<const IntLit&>(*let.value).value, 1);
}

TEST(Builder, SpansAreOneBasedLineAndColumn) {
  Program p = parse_program(src("let x = 1\n\n   print(x)"));
  ASSERT_EQ(p.body.size(), 2u);
  EXPECT_EQ(p.body[0]->span.line, 1u);
  EXPECT_EQ(p.body[0]->span.col, 1u);
  EXPECT_EQ(p.body[1]->span.line, 3u);
  EXPECT_EQ(p.body[1]->span.col, 4u);
  auto& call = static_cast<const CallExpr&>(*static_cast<const ExprStmt&>(*p.body[1]).expr);
  EXPECT_EQ(call.args[0].value->span.line, 3u);
  EXPECT_EQ(call.args[0].value->span.col, 10u);
  EXPECT_EQ(call.span.end_col, 12u);   // half-open: just past ')'
}

TEST(Builder, StringEscapesAreDecoded) {
  Program p = parse_program(src(R"(let s = "a\tb\n\"q\"\\")"));
  auto& let = static_cast<const LetStmt&>(*p.body[0]);
  ASSERT_EQ(let.value->kind, ExprKind::Str);
  EXPECT_EQ(static_cast<const StrLit&>(*let.value).value, "a\tb\n\"q\"\\");
}

TEST(Builder, FStringPartsAndSpecs) {
  Program p = parse_program(src("f\"loss {loss:.3f} at {step}\""));
  auto& fs = static_cast<const FStr&>(*static_cast<const ExprStmt&>(*p.body[0]).expr);
  ASSERT_EQ(fs.parts.size(), 4u);
  EXPECT_EQ(fs.parts[0].text, "loss ");
  ASSERT_TRUE(fs.parts[1].expr);
  EXPECT_EQ(fs.parts[1].spec, ".3f");
  EXPECT_EQ(fs.parts[1].expr->span.col, 9u);   // the embedded expression keeps its column
  EXPECT_EQ(fs.parts[2].text, " at ");
  EXPECT_EQ(fs.parts[3].spec, "");
}

TEST(Builder, NewlineRules) {
  EXPECT_EQ(ast("let x = (1\n+ 2)"), "(let x (+ 1 2))\n");
  EXPECT_EQ(ast("let x = 1 +\n 2"), "(let x (+ 1 2))\n");
  EXPECT_EQ(ast("f(1,\n 2)"), "(call f 1 2)\n");
  EXPECT_EQ(ast("let x = [1,\n2]\nlet y = 3"), "(let x (list 1 2))\n(let y 3)\n");
  EXPECT_EQ(ast("if a {\n} \n else {\n b }"), "(if a\n  (else\n    b))\n");
  EXPECT_EQ(ast("a\nb"), "a\nb\n");   // a newline outside brackets does end a statement
}

TEST(Builder, MixedPrecisionSyntax) {
  EXPECT_EQ(ast("autocast cuda<float16, enabled=false> { }"), "(autocast cuda (float16 (kw enabled false)))\n");
  EXPECT_EQ(ast("autocast d<> { no_grad { } }"), "(autocast d ()\n  (no_grad))\n");
  EXPECT_EQ(ast("scale(loss).backward()"), "(call (. (scale loss) backward))\n");
  EXPECT_EQ(ast("s.scale(x)"), "(call (. s scale) x)\n");
}

TEST(Builder, SyntaxErrorsCarryPositions) {
  AmpsError e = syntax_error("let x = 1\nlet y = (2 +\n");
  EXPECT_EQ(e.kind(), "SyntaxError");
  EXPECT_EQ(e.message(), "'(' is never closed");
  EXPECT_EQ(e.span().line, 2u);
  EXPECT_EQ(e.span().col, 9u);

  e = syntax_error("print(\"abc");
  EXPECT_EQ(e.message(), "unterminated string literal");
  EXPECT_EQ(e.span().col, 7u);

  e = syntax_error("let s = \"\\q\"");
  EXPECT_EQ(e.message(), "unknown escape sequence '\\q'");

  e = syntax_error("let x = 1 +* 2");
  EXPECT_EQ(e.message().rfind("unexpected '*'", 0), 0u);
  EXPECT_EQ(e.span().col, 12u);
}

TEST(Builder, NeedsMoreInput) {
  EXPECT_TRUE(needs_more_input("fn f() {"));
  EXPECT_TRUE(needs_more_input("let x = (1,"));
  EXPECT_TRUE(needs_more_input("let x = 1 +"));
  EXPECT_FALSE(needs_more_input("let x = 1"));
  EXPECT_FALSE(needs_more_input("fn f() { }"));
  EXPECT_FALSE(needs_more_input(""));
}

TEST(Builder, DumpTokensFiltersNewlines) {
  std::string toks = dump_tokens(src("f(1,\n2)\nx"));
  EXPECT_NE(toks.find("1:1 NAME 'f'"), std::string::npos);
  EXPECT_NE(toks.find("2:1 INT '2'"), std::string::npos);
  // exactly one NEWLINE survives: the one after ')'
  size_t first = toks.find("NEWLINE");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(toks.find("NEWLINE", first + 1), std::string::npos);
}

}  // namespace
}  // namespace amps::interp
