// Resolver units: slots and scope depths of names, hoisting, slot counts and the static errors.
#include <gtest/gtest.h>

#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"
#include "interp/resolver.hpp"

namespace amps::interp {
namespace {

struct Resolved {
  Program prog;
  ModuleScope module;
};

BuiltinNames builtins() {
  BuiltinNames b;
  b.add(intern("print"));
  b.add(intern("len"));
  return b;
}

std::unique_ptr<Resolved> resolve_text(const std::string& text, ModuleScope* module = nullptr) {
  auto r = std::make_unique<Resolved>();
  r->prog = parse_program(std::make_shared<SourceFile>("t.amps", text, "."));
  BuiltinNames b = builtins();
  resolve(r->prog, module ? *module : r->module, b);
  return r;
}

AmpsError static_error(const std::string& text) {
  try {
    resolve_text(text);
  } catch (const AmpsError& e) {
    return e;
  }
  ADD_FAILURE() << "no static error for: " << text;
  return AmpsError("", "");
}

const Expr& expr_of(const Stmt& s) { return *static_cast<const ExprStmt&>(s).expr; }
const VarRef& ref_of(const Expr& e) { return static_cast<const NameExpr&>(e).ref; }

TEST(Resolver, ModuleNamesGetSlotsInDeclarationOrder) {
  auto r = resolve_text("let a = 1\nlet b = 2\nb\na\nprint");
  ASSERT_EQ(r->module.order.size(), 2u);
  EXPECT_EQ(*r->module.order[0], "a");
  EXPECT_EQ(*r->module.order[1], "b");
  const VarRef& b = ref_of(expr_of(*r->prog.body[2]));
  EXPECT_EQ(b.kind, VarRef::Kind::Scope);
  EXPECT_EQ(b.depth, 0);
  EXPECT_EQ(b.slot, 1u);
  const VarRef& p = ref_of(expr_of(*r->prog.body[4]));
  EXPECT_EQ(p.kind, VarRef::Kind::Builtin);
  EXPECT_EQ(p.slot, 0u);
}

TEST(Resolver, FunctionParamsComeFirstThenLocalsAndOuterNamesHaveDepth) {
  auto r = resolve_text("let g = 1\nfn f(a, b) { let c = a; return g }");
  auto& fn = static_cast<const FnDecl&>(*r->prog.body[1]);
  EXPECT_EQ(fn.num_slots, 3u);   // a, b, c
  auto& let = static_cast<const LetStmt&>(*fn.body[0]);
  EXPECT_EQ(let.target.ref.slot, 2u);
  EXPECT_EQ(let.target.ref.depth, 0);
  EXPECT_EQ(ref_of(*let.value).slot, 0u);   // a
  auto& ret = static_cast<const ReturnStmt&>(*fn.body[1]);
  EXPECT_EQ(ref_of(*ret.value).depth, 1);   // g, one scope out
  EXPECT_EQ(ref_of(*ret.value).slot, 0u);
}

TEST(Resolver, BlocksDoNotOpenScopesAndDeclarationsAreHoisted) {
  auto r = resolve_text("if true { let inner = 1 }\nfor i in [1] { let j = i }\ninner\nfn f() { return later() }\nfn later() { }");
  std::vector<std::string> names;
  for (Atom a : r->module.order) names.push_back(*a);
  EXPECT_EQ(names, (std::vector<std::string>{"inner", "i", "j", "f", "later"}));
  EXPECT_EQ(ref_of(expr_of(*r->prog.body[2])).slot, 0u);
}

TEST(Resolver, ModuleScopePersistsAcrossUnits) {   // the REPL resolves entry after entry
  ModuleScope module;
  resolve_text("let x = 1", &module);
  auto r = resolve_text("let y = 2\nx", &module);
  EXPECT_EQ(module.order.size(), 2u);
  EXPECT_EQ(ref_of(expr_of(*r->prog.body[1])).slot, 0u);
}

TEST(Resolver, ComprehensionOpensItsOwnScope) {
  auto r = resolve_text("let x = 5\nlet ys = [x for x in [1]]");
  EXPECT_EQ(r->module.order.size(), 2u);   // the comprehension's x is not a module name
  auto& comp = static_cast<const ListComp&>(*static_cast<const LetStmt&>(*r->prog.body[1]).value);
  EXPECT_EQ(comp.num_slots, 1u);
  EXPECT_EQ(ref_of(*comp.elem).depth, 0);
}

TEST(Resolver, UndefinedNameSuggestsACloseOne) {
  AmpsError e = static_error("let loss = 1\nprint(lsos)");
  EXPECT_EQ(e.kind(), "NameError");
  EXPECT_EQ(e.message(), "name 'lsos' is not defined; did you mean 'loss'?");
  EXPECT_EQ(e.span().line, 2u);
  EXPECT_EQ(e.span().col, 7u);
  EXPECT_EQ(static_error("lem(1)").message(), "name 'lem' is not defined; did you mean 'len'?");
  EXPECT_EQ(static_error("qqqqqq").message(), "name 'qqqqqq' is not defined");
}

TEST(Resolver, AssignmentNeedsADeclaration) {
  AmpsError e = static_error("x = 1");
  EXPECT_EQ(e.kind(), "NameError");
  EXPECT_EQ(e.message(), "cannot assign to 'x' before it is declared; declare it with `let x = ...`");
  EXPECT_EQ(static_error("len = 1").message().rfind("cannot assign to built-in 'len'", 0), 0u);
}

TEST(Resolver, MisplacedControlFlow) {
  AmpsError e = static_error("let a = 1\n  return a");
  EXPECT_EQ(e.kind(), "SyntaxError");
  EXPECT_EQ(e.message(), "'return' outside a function");
  EXPECT_EQ(e.span().line, 2u);
  EXPECT_EQ(e.span().col, 3u);
  EXPECT_EQ(static_error("break").message(), "'break' outside a loop");
  EXPECT_EQ(static_error("while true { fn f() { continue } }").message(), "'continue' outside a loop");
  EXPECT_EQ(static_error("fn f() { super.init() }").message(), "'super' is only valid directly inside a method");
  EXPECT_EQ(static_error("class C { fn m(self) { return fn() { return super.x } } }").message(),
            "'super' is only valid directly inside a method");
}

TEST(Resolver, ParameterAndArgumentChecks) {
  EXPECT_EQ(static_error("fn f(a, a) { }").message(), "duplicate parameter 'a'");
  EXPECT_EQ(static_error("fn f(a=1, b) { }").message(), "parameter 'b' without a default follows one with a default");
  EXPECT_EQ(static_error("class C { fn m() { } }").message(), "method 'm' needs `self` as its first parameter");
  AmpsError e = static_error("print(end=\"\", 1)");
  EXPECT_EQ(e.message(), "positional argument follows keyword argument");
  EXPECT_EQ(e.span().col, 15u);
  EXPECT_EQ(static_error("let x = 1\n(x, 1) = (1, 2)").message(), "cannot assign to this expression");
}

TEST(Resolver, ResolvedProgramStillRuns) {   // resolving is idempotent on valid code: no throw
  EXPECT_NO_THROW(resolve_text("fn f(n, *a, **k) { let t = [v for v in a]; return len(t) + n }\nf(1)"));
}

}  // namespace
}  // namespace amps::interp
