// Front-end units of the with statement: its AST (dump_ast), the grad-mode / autocast keywords as values next to
// their statement forms, syntax errors, and the resolver binding `as` targets in the enclosing scope.
#include <gtest/gtest.h>

#include "interp/ast_printer.hpp"
#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"
#include "tests/unit/interp/parse_helpers.hpp"
#include "interp/resolver.hpp"

namespace amps::interp {
namespace {

using test::ast;
using test::src;
using test::syntax_error;

TEST(WithSyntax, ItemsTargetsAndBody) {
  EXPECT_EQ(ast("with m { f() }"), "(with m\n  (call f))\n");
  EXPECT_EQ(ast("with open(p) as f { }"), "(with (as (call open p) f))\n");
  EXPECT_EQ(ast("with a as x, b, c.d() as (y, [z, w]) { }"),
            "(with (as a x) b (as (call (. c d)) (tuple y (tuple z w))))\n");
  EXPECT_EQ(ast("with a if c else b {\n  x = 1\n  y = 2\n}"), "(with (if c a b)\n  (= x 1)\n  (= y 2))\n");
  EXPECT_EQ(ast("with a,\n  b { }"), "(with a b)\n");   // a line may break after the comma
}

TEST(WithSyntax, KeywordsAreValuesWhereAStatementFormCannotStart) {
  EXPECT_EQ(ast("with no_grad(), enable_grad() { }"), "(with (call no_grad) (call enable_grad))\n");
  EXPECT_EQ(ast("with set_grad_enabled(false) { }"), "(with (call set_grad_enabled false))\n");
  EXPECT_EQ(ast("with autocast(\"cpu\", dtype=bfloat16) { }"), "(with (call autocast \"cpu\" (kw dtype bfloat16)))\n");
  EXPECT_EQ(ast("let g = no_grad"), "(let g no_grad)\n");
  EXPECT_EQ(ast("no_grad()"), "(call no_grad)\n");
  EXPECT_EQ(ast("autocast(\"cpu\").__enter__()"), "(call (. (call autocast \"cpu\") __enter__))\n");
  // the statement forms are unchanged: the token after the keyword tells them apart
  EXPECT_EQ(ast("no_grad { }"), "(no_grad)\n");
  EXPECT_EQ(ast("enable_grad { x }"), "(enable_grad\n  x)\n");
  EXPECT_EQ(ast("set_grad_enabled(a == b) { }"), "(set_grad_enabled (compare a == b))\n");
  EXPECT_EQ(ast("set_grad_enabled(a == b)"), "(call set_grad_enabled (compare a == b))\n");
  EXPECT_EQ(ast("autocast cpu<bfloat16> { }"), "(autocast cpu (bfloat16))\n");
  EXPECT_EQ(ast("@no_grad\nfn f() { }"), "(fn f () (@ no_grad))\n");
  EXPECT_EQ(ast("@no_grad()\nfn f() { }"), "(fn f () (@ (call no_grad)))\n");
  EXPECT_EQ(ast("@autocast(\"cpu\")\nfn f() { }"), "(fn f () (@ (call autocast \"cpu\")))\n");
}

TEST(WithSyntax, NodeAndSpans) {
  Program p = parse_program(src("let a = 1\n  with m as (x, y), n { }"));
  ASSERT_EQ(p.body.size(), 2u);
  ASSERT_EQ(p.body[1]->kind, StmtKind::With);
  auto& w = static_cast<const WithStmt&>(*p.body[1]);
  EXPECT_EQ(w.span.line, 2u);
  EXPECT_EQ(w.span.col, 3u);
  ASSERT_EQ(w.items.size(), 2u);
  EXPECT_TRUE(w.items[0].has_target);
  EXPECT_EQ(w.items[0].target.elements.size(), 2u);
  EXPECT_FALSE(w.items[1].has_target);
  EXPECT_EQ(w.items[1].manager->span.col, 21u);
}

TEST(WithSyntax, Errors) {
  EXPECT_EQ(syntax_error("with { }").kind(), "SyntaxError");
  EXPECT_EQ(syntax_error("with m").message(), "unexpected end of input, expected '{' or ','");
  AmpsError e = syntax_error("with m as 1 { }");
  EXPECT_EQ(e.message().rfind("unexpected '1'", 0), 0u);
  EXPECT_EQ(e.span().col, 11u);
  EXPECT_EQ(syntax_error("with m as f.x { }").kind(), "SyntaxError");
  EXPECT_EQ(syntax_error("let with = 1").kind(), "SyntaxError");   // `with` is a keyword now
  EXPECT_EQ(syntax_error("let no_grad = 1").kind(), "SyntaxError");
}

TEST(WithSyntax, TargetsBindInTheEnclosingScope) {
  Program prog = parse_program(src("fn f(m) { with m as (a, b), m as c { let d = a }\n return c }\nwith f as g { }"));
  ModuleScope module;
  BuiltinNames builtins;
  resolve(prog, module, builtins);
  std::vector<std::string> names;
  for (Atom a : module.order) names.push_back(*a);
  EXPECT_EQ(names, (std::vector<std::string>{"f", "g"}));
  auto& fn = static_cast<const FnDecl&>(*prog.body[0]);
  EXPECT_EQ(fn.num_slots, 5u);   // m, a, b, c, d
  auto& w = static_cast<const WithStmt&>(*fn.body[0]);
  EXPECT_EQ(w.items[1].target.ref.slot, 3u);
  EXPECT_EQ(w.items[1].target.ref.depth, 0);
}

}  // namespace
}  // namespace amps::interp
