// The amps AST: nouns for every construct of LANGUAGE.md §1-3, each carrying its source span.
// No ANTLR type appears here; the builder is the only place that sees the parse tree.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/atom.hpp"
#include "interp/source.hpp"

namespace amps::interp {

struct Expr;
struct Stmt;
struct FnDecl;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// Where a resolved name lives: `depth` scopes out from the current one, at `slot`.
struct VarRef {
  enum class Kind : uint8_t { Unresolved, Scope, Builtin };
  Kind kind = Kind::Unresolved;
  uint16_t depth = 0;
  uint32_t slot = 0;
};

// ------------------------------------------------------------------ patterns
// A binding target of `let`, `for` and destructuring: a name or a nested tuple.
struct Pattern {
  Span span;
  Atom name = nullptr;               // set for a name pattern
  VarRef ref;                        // resolved slot of `name`
  std::vector<Pattern> elements;     // set for a tuple/list pattern
  bool starred = false;              // `*name` inside a tuple/list pattern: takes the rest as a list
  bool is_name() const { return name != nullptr; }
};

// --------------------------------------------------------------- expressions
enum class ExprKind : uint8_t {
  None, Bool, Int, Float, Str, FStr, List, Tuple, Dict, Set, Starred, ListComp, Name, Attr, Index, Call,
  Unary, Binary, Compare, And, Or, Not, Ternary, Lambda, Scale, Super,
};

struct Expr {
  Expr(ExprKind k, Span s) : kind(k), span(s) {}
  virtual ~Expr() = default;
  ExprKind kind;
  Span span;
};

struct NoneLit : Expr { explicit NoneLit(Span s) : Expr(ExprKind::None, s) {} };
struct BoolLit : Expr { BoolLit(Span s, bool v) : Expr(ExprKind::Bool, s), value(v) {} bool value; };
struct IntLit : Expr { IntLit(Span s, int64_t v) : Expr(ExprKind::Int, s), value(v) {} int64_t value; };
struct FloatLit : Expr { FloatLit(Span s, double v) : Expr(ExprKind::Float, s), value(v) {} double value; };
struct StrLit : Expr { StrLit(Span s, std::string v) : Expr(ExprKind::Str, s), value(std::move(v)) {} std::string value; };

// f"text {expr:spec} more": literal pieces alternate with formatted expressions.
struct FStrPart {
  std::string text;        // literal text (when expr is null)
  ExprPtr expr;            // embedded expression
  std::string spec;        // Python format spec after ':' ("" when none)
  bool repr = false;       // `{x=}` (Python 3.8's self-documenting field): repr(x) when there is no spec
  char conversion = 0;     // `{x!r}` / `{x!s}`: 'r' or 's' (applied before the spec)
};
struct FStr : Expr { explicit FStr(Span s) : Expr(ExprKind::FStr, s) {} std::vector<FStrPart> parts; };

struct ListLit : Expr { explicit ListLit(Span s) : Expr(ExprKind::List, s) {} std::vector<ExprPtr> items; };
struct TupleLit : Expr { explicit TupleLit(Span s) : Expr(ExprKind::Tuple, s) {} std::vector<ExprPtr> items; };
struct DictLit : Expr {
  explicit DictLit(Span s) : Expr(ExprKind::Dict, s) {}
  std::vector<std::pair<ExprPtr, ExprPtr>> entries;   // a null key: `**value` merges a mapping in
};
// {a, b, *c}: built through the `set` builtin (stdlib/py_set.amps).
struct SetLit : Expr { explicit SetLit(Span s) : Expr(ExprKind::Set, s) {} std::vector<ExprPtr> items; };
// `*e` inside a tuple/list/set display (spliced) or an assignment target (takes the rest as a list).
struct StarredExpr : Expr { StarredExpr(Span s, ExprPtr e) : Expr(ExprKind::Starred, s), operand(std::move(e)) {} ExprPtr operand; };
// [elem for pattern in iter if cond], (elem for ...), {key: elem for ...}, {elem for ...}; opens its own scope
// like a Python 3 comprehension; a generator expression is a lazy Iterator stepping the clause.
enum class CompKind : uint8_t { List, Gen, Dict, Set };
struct CompClause {   // for target in iter if conds[0] if conds[1] ...
  Pattern target;
  ExprPtr iter;
  std::vector<ExprPtr> conds;
};
struct ListComp : Expr {
  explicit ListComp(Span s, CompKind k = CompKind::List) : Expr(ExprKind::ListComp, s), comp(k) {}
  CompKind comp;
  ExprPtr key;   // dict comprehensions only
  ExprPtr elem;
  std::vector<CompClause> clauses;   // at least one; the first iterable is evaluated in the enclosing scope
  uint32_t num_slots = 0;
};

struct NameExpr : Expr { NameExpr(Span s, Atom n) : Expr(ExprKind::Name, s), name(n) {} Atom name; VarRef ref; };
struct AttrExpr : Expr {
  AttrExpr(Span s, ExprPtr o, Atom n) : Expr(ExprKind::Attr, s), object(std::move(o)), name(n) {}
  ExprPtr object;
  Atom name;
};

// One subscript of `t[...]`: an expression, a slice lo:hi:step, or `...`.
struct Subscript {
  enum class Kind : uint8_t { Expr, Slice, Ellipsis };
  Kind kind = Kind::Expr;
  ExprPtr value, lo, hi, step;
};
struct IndexExpr : Expr {
  IndexExpr(Span s, ExprPtr o) : Expr(ExprKind::Index, s), object(std::move(o)) {}
  ExprPtr object;
  std::vector<Subscript> subs;
};

struct Arg {
  enum class Kind : uint8_t { Positional, Keyword, Splat, KwSplat };
  Kind kind = Kind::Positional;
  Atom name = nullptr;   // keyword name
  ExprPtr value;
};
struct CallExpr : Expr {
  CallExpr(Span s, ExprPtr c) : Expr(ExprKind::Call, s), callee(std::move(c)) {}
  ExprPtr callee;
  std::vector<Arg> args;
  bool has_splat = false;   // any Splat/KwSplat argument
};

enum class UnaryOp : uint8_t { Neg, Pos, Invert };
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, MatMul, Pow, BitAnd, BitOr, BitXor, LShift, RShift };
enum class CompareOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, Is, IsNot };

struct UnaryExpr : Expr {
  UnaryExpr(Span s, UnaryOp o, ExprPtr e) : Expr(ExprKind::Unary, s), op(o), operand(std::move(e)) {}
  UnaryOp op;
  ExprPtr operand;
};
struct BinaryExpr : Expr {
  BinaryExpr(Span s, BinaryOp o, ExprPtr l, ExprPtr r)
      : Expr(ExprKind::Binary, s), op(o), lhs(std::move(l)), rhs(std::move(r)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
};
// a < b <= c chains like Python: each comparison reads its neighbours once.
struct CompareExpr : Expr {
  CompareExpr(Span s, ExprPtr first) : Expr(ExprKind::Compare, s), first(std::move(first)) {}
  ExprPtr first;
  std::vector<std::pair<CompareOp, ExprPtr>> rest;
};
struct LogicalExpr : Expr {  // And / Or, short-circuit, yields an operand like Python
  LogicalExpr(ExprKind k, Span s, ExprPtr l, ExprPtr r) : Expr(k, s), lhs(std::move(l)), rhs(std::move(r)) {}
  ExprPtr lhs, rhs;
};
struct NotExpr : Expr { NotExpr(Span s, ExprPtr e) : Expr(ExprKind::Not, s), operand(std::move(e)) {} ExprPtr operand; };
struct TernaryExpr : Expr {
  TernaryExpr(Span s, ExprPtr t, ExprPtr c, ExprPtr e)
      : Expr(ExprKind::Ternary, s), then(std::move(t)), cond(std::move(c)), otherwise(std::move(e)) {}
  ExprPtr then, cond, otherwise;
};
struct LambdaExpr : Expr {
  LambdaExpr(Span s, std::unique_ptr<FnDecl> f);
  ~LambdaExpr() override;
  std::unique_ptr<FnDecl> fn;
};
// scale(x): the active GradScaler's scale(x) (LANGUAGE.md §3).
struct ScaleExpr : Expr { ScaleExpr(Span s, ExprPtr e) : Expr(ExprKind::Scale, s), operand(std::move(e)) {} ExprPtr operand; };
// super.name directly inside a method: `name` looked up on the base of the class that defines
// the running method, bound to the method's first parameter (slot 0 of its frame).
struct SuperExpr : Expr {
  SuperExpr(Span s, Atom n) : Expr(ExprKind::Super, s), name(n) {}
  Atom name;
};

// ---------------------------------------------------------------- statements
enum class StmtKind : uint8_t {
  Expr, Let, Assign, AugAssign, Fn, Class, If, While, For, Try, Autocast, GradMode, Import,
  Return, Break, Continue, Assert, Raise, Pass, With, Scope, Del,
};

struct Stmt {
  Stmt(StmtKind k, Span s) : kind(k), span(s) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  Span span;
};

struct ExprStmt : Stmt { ExprStmt(Span s, ExprPtr e) : Stmt(StmtKind::Expr, s), expr(std::move(e)) {} ExprPtr expr; };
struct LetStmt : Stmt {
  LetStmt(Span s, Pattern p, ExprPtr v) : Stmt(StmtKind::Let, s), target(std::move(p)), value(std::move(v)) {}
  Pattern target;
  ExprPtr value;   // null: `let x` binds none
};
// target = value, where target is a name, attribute, index, or a tuple of those.
struct AssignStmt : Stmt {
  AssignStmt(Span s, ExprPtr t, ExprPtr v) : Stmt(StmtKind::Assign, s), target(std::move(t)), value(std::move(v)) {}
  ExprPtr target, value;
  std::vector<ExprPtr> more_targets;   // `a = b = v`: b, ..., assigned the same value after target, left to right
};
struct AugAssignStmt : Stmt {
  AugAssignStmt(Span s, BinaryOp o, ExprPtr t, ExprPtr v)
      : Stmt(StmtKind::AugAssign, s), op(o), target(std::move(t)), value(std::move(v)) {}
  BinaryOp op;
  ExprPtr target, value;
};

struct Param {
  enum class Kind : uint8_t { Plain, Rest, KwRest, Star };   // Star: a bare `*` (no slot is ever read)
  Kind kind = Kind::Plain;
  Atom name = nullptr;
  Span span;
  ExprPtr default_value;
};
struct FnDecl : Stmt {
  FnDecl(Span s, Atom n) : Stmt(StmtKind::Fn, s), name(n) {}
  Atom name;                        // "<lambda>" for anonymous functions
  std::vector<ExprPtr> decorators;
  std::vector<Param> params;
  StmtList body;
  VarRef ref;                       // where the function's name is bound (statements only)
  uint32_t num_slots = 0;           // params first, then every local the body declares
  bool is_method = false;
};
struct ClassDecl : Stmt {
  ClassDecl(Span s, Atom n) : Stmt(StmtKind::Class, s), name(n) {}
  Atom name;
  std::vector<ExprPtr> decorators;
  ExprPtr base;                     // null: no base class
  std::vector<std::unique_ptr<FnDecl>> methods;
  std::vector<std::unique_ptr<LetStmt>> fields;   // class attributes
  VarRef ref;
};

struct IfStmt : Stmt {
  IfStmt(Span s, ExprPtr c) : Stmt(StmtKind::If, s), cond(std::move(c)) {}
  ExprPtr cond;
  StmtList then;
  StmtList otherwise;   // an `else if` is a single IfStmt here
};
struct WhileStmt : Stmt {
  WhileStmt(Span s, ExprPtr c) : Stmt(StmtKind::While, s), cond(std::move(c)) {}
  ExprPtr cond;
  StmtList body;
};
struct ForStmt : Stmt {
  ForStmt(Span s, Pattern p, ExprPtr i) : Stmt(StmtKind::For, s), target(std::move(p)), iter(std::move(i)) {}
  Pattern target;
  ExprPtr iter;
  StmtList body;
};
// One handler of a try statement: `catch e { }` / bare `except { }` (no type: catches everything) or
// `except T as e { }` ([type] evaluates to an exception class or a tuple of them when an error reaches it).
struct TryHandler {
  ExprPtr type;
  Pattern name;   // empty name: no binding
  StmtList body;
  Span span;
};
struct TryStmt : Stmt {
  explicit TryStmt(Span s) : Stmt(StmtKind::Try, s) {}
  StmtList body;
  std::vector<TryHandler> handlers;   // tried in order; only the last may lack a type
  bool has_else = false;
  StmtList else_body;                 // runs when the body ended normally without an error
  StmtList finally;
};
// autocast DEVICE<args> { body }: positional arg = dtype, keywords enabled= / cache=.
struct AutocastStmt : Stmt {
  AutocastStmt(Span s, ExprPtr d) : Stmt(StmtKind::Autocast, s), device(std::move(d)) {}
  ExprPtr device;
  std::vector<Arg> args;
  StmtList body;
};
// no_grad { }, enable_grad { }, set_grad_enabled(mode) { }: grad mode set for the body ([mode] is null for the
// first two: [enabled] says which).
struct GradModeStmt : Stmt {
  explicit GradModeStmt(Span s) : Stmt(StmtKind::GradMode, s) {}
  bool enabled = false;
  ExprPtr mode;
  StmtList body;
};
// One `EXPR (as TARGET)?` of a with statement.
struct WithItem {
  ExprPtr manager;
  bool has_target = false;
  Pattern target;
};
// with EXPR (as TARGET)?, ... { body }: Python's with statement (PEP 343); the items nest left to right, so the
// last one entered is the first one exited.
struct WithStmt : Stmt {
  explicit WithStmt(Span s) : Stmt(StmtKind::With, s) {}
  std::vector<WithItem> items;
  StmtList body;
};
// import nn / import nn.utils as u / import "file.amps" as m
struct ImportStmt : Stmt {
  explicit ImportStmt(Span s) : Stmt(StmtKind::Import, s) {}
  std::vector<Atom> module_path;    // built-in module path (empty for a file import)
  std::string file;                 // file path as written (empty for a module import)
  Pattern alias;                    // the bound name
  bool bind_root = false;           // `import a.b` (no alias) binds module `a`, like Python
  // `from a.b import c, d as e`: each name taken from the module (or its submodule of that name) and the name it
  // is bound to; empty for a plain import (alias unused then).
  std::vector<std::pair<Atom, Pattern>> from_names;
};
struct ReturnStmt : Stmt { ReturnStmt(Span s, ExprPtr v) : Stmt(StmtKind::Return, s), value(std::move(v)) {} ExprPtr value; };
struct AssertStmt : Stmt {
  AssertStmt(Span s, ExprPtr c, ExprPtr m) : Stmt(StmtKind::Assert, s), cond(std::move(c)), message(std::move(m)) {}
  ExprPtr cond, message;
};
// `raise`, `raise v`, `raise v from cause` ([cause] null without `from`).
struct RaiseStmt : Stmt {
  RaiseStmt(Span s, ExprPtr v) : Stmt(StmtKind::Raise, s), value(std::move(v)) {}
  ExprPtr value;
  ExprPtr cause;
};
struct SimpleStmt : Stmt { SimpleStmt(StmtKind k, Span s) : Stmt(k, s) {} };   // break, continue, pass
// `global x, y` / `nonlocal x`: checked by the resolver, nothing to run.
struct ScopeStmt : Stmt {
  ScopeStmt(Span s, bool nl) : Stmt(StmtKind::Scope, s), nonlocal(nl) {}
  bool nonlocal;
  std::vector<Atom> names;
  std::vector<Span> spans;
};

// `del t1, t2, ...`: each target a name, attribute, subscript, or a parenthesised tuple/list of those.
struct DelStmt : Stmt {
  explicit DelStmt(Span s) : Stmt(StmtKind::Del, s) {}
  std::vector<ExprPtr> targets;
};

// A parsed unit: the statements of a file, an `-e` string or one REPL entry.
struct Program {
  SourceRef source;
  StmtList body;
};

const char* binary_op_symbol(BinaryOp op);
const char* compare_op_symbol(CompareOp op);

}  // namespace amps::interp
