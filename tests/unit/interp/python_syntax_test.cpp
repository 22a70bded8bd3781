// Front-end units of the Python expression forms (docs/language.md §7.17): generator expressions, dict/set
// comprehensions and displays, starred targets and items, keyword-only parameters, lambda, f"{x=}"; their AST
// (dump_ast) and the SyntaxErrors the builder and the resolver raise.
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

// The error [text] raises, as "Kind: message".
std::string syntax_error(const std::string& text) {
  AmpsError e = test::syntax_error(text);
  return e.kind().empty() ? "" : e.kind() + ": " + e.message();
}

TEST(PythonSyntax, GeneratorExpressions) {
  EXPECT_EQ(ast("sum(x for x in xs if x)"), "(call sum (genexp x x xs x))\n");
  EXPECT_EQ(ast("let g = (x * 2 for (a, b) in xs)"), "(let g (genexp (* x 2) (tuple a b) xs))\n");
  EXPECT_EQ(ast("f((x for x in xs), 1)"), "(call f (genexp x x xs) 1)\n");
  EXPECT_EQ(ast("(x)"), "x\n");   // a parenthesised expression stays itself
  EXPECT_EQ(ast("(x,)"), "(tuple x)\n");
  EXPECT_EQ(syntax_error("f(k=x for x in xs)"),
            "SyntaxError: invalid syntax: a generator expression must be a plain argument");
  EXPECT_EQ(syntax_error("f(a, x for x in xs)").rfind("SyntaxError", 0), 0u);
}

TEST(PythonSyntax, DictAndSetDisplaysAndComprehensions) {
  EXPECT_EQ(ast("{k: v for (k, v) in p if v}"), "(dictcomp k v (tuple k v) p v)\n");
  EXPECT_EQ(ast("{x % 3 for x in xs}"), "(setcomp (% x 3) x xs)\n");
  EXPECT_EQ(ast("{1, *a}"), "(set 1 (* a))\n");
  EXPECT_EQ(ast("{**d, \"k\": 2}"), "(dict (** d) (\"k\" 2))\n");
  EXPECT_EQ(ast("{}"), "(dict)\n");
  EXPECT_EQ(ast("{\n  k: v\n  for k in xs\n}"), "(dictcomp k v k xs)\n");
  EXPECT_EQ(ast("[x for r in m if r for x in r if x if y]"), "(listcomp x r m r (for x r x y))\n");
  EXPECT_EQ(ast("(p for g in gs for p in g)"), "(genexp p g gs (for p g))\n");
  EXPECT_EQ(syntax_error("{1: 2, 3}"), "SyntaxError: ':' expected after dictionary key");
  EXPECT_EQ(syntax_error("{**d for d in ds}"), "SyntaxError: dict unpacking cannot be used in dict comprehension");
  EXPECT_EQ(syntax_error("[*x for x in xs]"), "SyntaxError: iterable unpacking cannot be used in comprehension");
  EXPECT_EQ(syntax_error("{*x for x in xs}"), "SyntaxError: iterable unpacking cannot be used in comprehension");
  EXPECT_EQ(syntax_error("(*x)"), "SyntaxError: cannot use starred expression here");
}

TEST(PythonSyntax, StarredTargetsAndItems) {
  EXPECT_EQ(ast("let (a, *rest) = xs"), "(let (tuple a *rest) xs)\n");
  EXPECT_EQ(ast("(a, *b) = xs"), "(= (tuple a (* b)) xs)\n");
  EXPECT_EQ(ast("[*a, 3]"), "(list (* a) 3)\n");
  EXPECT_EQ(ast("(*a, 1)"), "(tuple (* a) 1)\n");
  EXPECT_EQ(ast("for (h, *t) in rows { }"), "(for (tuple h *t) rows)\n");
  EXPECT_EQ(syntax_error("let (*a, *b) = xs"), "SyntaxError: multiple starred expressions in assignment");
  EXPECT_EQ(syntax_error("let *a = xs"), "SyntaxError: starred assignment target must be in a list or tuple");
  EXPECT_EQ(syntax_error("for *a in xs { }"), "SyntaxError: starred assignment target must be in a list or tuple");
}

TEST(PythonSyntax, KeywordOnlyParametersAndLambda) {
  EXPECT_EQ(ast("fn f(a, *, k=1) { }"), "(fn f (a * k=1))\n");
  EXPECT_EQ(ast("lambda x, y=2: x + y"), "(fn <lambda> (x y=2)\n  (return (+ x y)))\n");
  EXPECT_EQ(ast("lambda: 0"), "(fn <lambda> ()\n  (return 0))\n");
  EXPECT_EQ(ast("f(key=lambda s: s[0])"), "(call f (kw key (fn <lambda> (s)\n  (return (index s 0)))))\n");
  EXPECT_EQ(syntax_error("fn f(a, *) { }"), "SyntaxError: named arguments must follow bare *");
  EXPECT_EQ(syntax_error("fn f(*, **kw) { }"), "SyntaxError: named arguments must follow bare *");
  EXPECT_EQ(syntax_error("fn f(*a, *, k) { }"), "SyntaxError: * argument may appear only once");
  EXPECT_EQ(syntax_error("let lambda = 1").rfind("SyntaxError", 0), 0u);   // `lambda` is a keyword
}

TEST(PythonSyntax, SelfDocumentingFStringFields) {
  EXPECT_EQ(ast("f\"{x=}\""), "(fstr \"x=\" x!r)\n");
  EXPECT_EQ(ast("f\"{lr = :.2e}\""), "(fstr \"lr = \" lr!r:\".2e\")\n");
  EXPECT_EQ(ast("f\"{a == b}\""), "(fstr (compare a == b))\n");
  EXPECT_EQ(ast("f\"{a >= b}\""), "(fstr (compare a >= b))\n");
  EXPECT_EQ(ast("f\"{a != b}\""), "(fstr (compare a != b))\n");
  EXPECT_EQ(ast("f\"{x!s:>8}\""), "(fstr x!s:\">8\")\n");
  EXPECT_EQ(syntax_error("f\"{x!a}\"").rfind("SyntaxError: f-string: invalid conversion character 'a'", 0), 0u);
}

TEST(PythonSyntax, ResolverChecksStarredAssignmentTargets) {
  auto resolve_error = [](const std::string& text) -> std::string {
    Program p = parse_program(src(text));
    ModuleScope scope;
    try {
      resolve(p, scope, BuiltinNames{});
    } catch (const AmpsError& e) {
      return e.message();
    }
    return "";
  };
  EXPECT_EQ(resolve_error("let a = 1; let b = 2\n(*a, *b) = [1]"), "multiple starred expressions in assignment");
  EXPECT_EQ(resolve_error("let a = 1; let b = 2\n(a, *b) = [1]"), "");
  EXPECT_EQ(resolve_error("fn f(a=1, *, k) { }"), "");   // keyword-only parameters need no default
}

}  // namespace
}  // namespace amps::interp
