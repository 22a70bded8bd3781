// Parse tree → AST for expressions (see ast_builder.hpp).
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>

#include "interp/ast_builder.hpp"
#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"

namespace amps::interp {

using P = amps_gen::AmpsParser;

LambdaExpr::LambdaExpr(Span s, std::unique_ptr<FnDecl> f) : Expr(ExprKind::Lambda, s), fn(std::move(f)) {}
LambdaExpr::~LambdaExpr() = default;

namespace {

// The only child of [ctx] when it has exactly one, as rule context T (the grammar fixes its rule), else null.
// A name or literal passes through every precedence level (expr, orExpr, ..., power, postfix) with one child at
// each; ANTLR's accessors would dynamic_cast every child at every level, which made the builder a quarter of
// the time of `import nn`.
template <typename T> T* only_child(antlr4::ParserRuleContext* ctx) {
  return ctx->children.size() == 1 ? static_cast<T*>(ctx->children[0]) : nullptr;
}

}  // namespace

std::vector<ExprPtr> AstBuilder::exprs(const std::vector<P::ExprContext*>& list) {
  std::vector<ExprPtr> out;
  for (auto* e : list) out.push_back(expr(e));
  return out;
}

// expr: orExpr (IF orExpr ELSE expr)? | FN '(' params? ')' block
ExprPtr AstBuilder::expr(P::ExprContext* ctx) {
  if (auto* only = only_child<P::OrExprContext>(ctx)) return or_expr(only);
  if (auto* c = dynamic_cast<P::LambdaContext*>(ctx)) {
    Span s = span(c->FN()->getSymbol());
    return std::make_unique<LambdaExpr>(s, fn_common(s, intern("<lambda>"), c->params(), c->block()));
  }
  if (auto* c = dynamic_cast<P::PyLambdaContext*>(ctx)) return py_lambda(c);
  auto* c = dynamic_cast<P::TernaryContext*>(ctx);
  if (!c->IF()) return or_expr(c->orExpr(0));
  return std::make_unique<TernaryExpr>(span(ctx), or_expr(c->orExpr(0)), or_expr(c->orExpr(1)), expr(c->expr()));
}

// parts[0] OP parts[1] OP ...: a left-leaning chain of [kind] LogicalExprs over build(part).
template <typename Part, typename Build>
static ExprPtr logical_chain(ExprKind kind, const Span& s, const std::vector<Part*>& parts, Build build) {
  ExprPtr e = build(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) e = std::make_unique<LogicalExpr>(kind, s, std::move(e), build(parts[i]));
  return e;
}

// orExpr: andExpr (OR andExpr)*
ExprPtr AstBuilder::or_expr(P::OrExprContext* ctx) {
  if (auto* only = only_child<P::AndExprContext>(ctx)) return and_expr(only);
  return logical_chain(ExprKind::Or, span(ctx), ctx->andExpr(), [&](auto* c) { return and_expr(c); });
}

// andExpr: notExpr (AND notExpr)*
ExprPtr AstBuilder::and_expr(P::AndExprContext* ctx) {
  if (auto* only = only_child<P::NotExprContext>(ctx)) return not_expr(only);
  return logical_chain(ExprKind::And, span(ctx), ctx->notExpr(), [&](auto* c) { return not_expr(c); });
}

// autocastOr: autocastAnd (OR autocastAnd)* -- the comparison-free expressions of autocast arguments
ExprPtr AstBuilder::autocast_or(P::AutocastOrContext* ctx) {
  return logical_chain(ExprKind::Or, span(ctx), ctx->autocastAnd(), [&](auto* c) { return autocast_and(c); });
}

// autocastAnd: autocastNot (AND autocastNot)*
ExprPtr AstBuilder::autocast_and(P::AutocastAndContext* ctx) {
  return logical_chain(ExprKind::And, span(ctx), ctx->autocastNot(), [&](auto* c) { return autocast_not(c); });
}

// autocastNot: NOT autocastNot | arith
ExprPtr AstBuilder::autocast_not(P::AutocastNotContext* ctx) {
  if (ctx->NOT()) return std::make_unique<NotExpr>(span(ctx), autocast_not(ctx->autocastNot()));
  return arith(ctx->arith());
}

// notExpr: NOT notExpr | comparison
ExprPtr AstBuilder::not_expr(P::NotExprContext* ctx) {
  if (auto* only = only_child<P::ComparisonContext>(ctx)) return comparison(only);
  if (auto* c = dynamic_cast<P::NotOpContext*>(ctx)) return std::make_unique<NotExpr>(span(ctx), not_expr(c->notExpr()));
  return comparison(dynamic_cast<P::NotPassContext*>(ctx)->comparison());
}

// comparison: arith (compOp arith)*
ExprPtr AstBuilder::comparison(P::ComparisonContext* ctx) {
  if (auto* only = only_child<P::BitOrContext>(ctx)) return bit_or(only);
  ExprPtr first = bit_or(ctx->bitOr(0));
  if (ctx->compOp().empty()) return first;
  auto cmp = std::make_unique<CompareExpr>(span(ctx), std::move(first));
  for (size_t i = 0; i < ctx->compOp().size(); ++i) {
    auto* op = ctx->compOp(i);
    std::string t = op->getText();
    CompareOp o = t == "==" ? CompareOp::Eq : t == "!=" ? CompareOp::Ne : t == "<" ? CompareOp::Lt
                : t == "<=" ? CompareOp::Le : t == ">" ? CompareOp::Gt : t == ">=" ? CompareOp::Ge
                : t == "in" ? CompareOp::In : t == "notin" ? CompareOp::NotIn
                : t == "is" ? CompareOp::Is : CompareOp::IsNot;
    cmp->rest.emplace_back(o, bit_or(ctx->bitOr(i + 1)));
  }
  return cmp;
}

static BinaryOp binary_op(const std::string& t) {
  if (t == "+") return BinaryOp::Add;
  if (t == "-") return BinaryOp::Sub;
  if (t == "*") return BinaryOp::Mul;
  if (t == "/") return BinaryOp::Div;
  if (t == "//") return BinaryOp::FloorDiv;
  if (t == "%") return BinaryOp::Mod;
  return BinaryOp::MatMul;
}

// bitOr: bitOr '|' bitXor | bitXor
ExprPtr AstBuilder::bit_or(P::BitOrContext* ctx) {
  if (auto* only = only_child<P::BitXorContext>(ctx)) return bit_xor(only);
  Span s = span(static_cast<antlr4::tree::TerminalNode*>(ctx->children[1])->getSymbol());
  return std::make_unique<BinaryExpr>(s, BinaryOp::BitOr, bit_or(ctx->bitOr()), bit_xor(ctx->bitXor()));
}

// bitXor: bitXor '^' bitAnd | bitAnd
ExprPtr AstBuilder::bit_xor(P::BitXorContext* ctx) {
  if (auto* only = only_child<P::BitAndContext>(ctx)) return bit_and(only);
  Span s = span(static_cast<antlr4::tree::TerminalNode*>(ctx->children[1])->getSymbol());
  return std::make_unique<BinaryExpr>(s, BinaryOp::BitXor, bit_xor(ctx->bitXor()), bit_and(ctx->bitAnd()));
}

// bitAnd: bitAnd '&' shift | shift
ExprPtr AstBuilder::bit_and(P::BitAndContext* ctx) {
  if (auto* only = only_child<P::ShiftContext>(ctx)) return shift(only);
  Span s = span(static_cast<antlr4::tree::TerminalNode*>(ctx->children[1])->getSymbol());
  return std::make_unique<BinaryExpr>(s, BinaryOp::BitAnd, bit_and(ctx->bitAnd()), shift(ctx->shift()));
}

// shift: shift ('<<' | '>>') arith | arith
ExprPtr AstBuilder::shift(P::ShiftContext* ctx) {
  if (auto* only = only_child<P::ArithContext>(ctx)) return arith(only);
  BinaryOp op = ctx->op->getText() == "<<" ? BinaryOp::LShift : BinaryOp::RShift;
  return std::make_unique<BinaryExpr>(span(ctx->op), op, shift(ctx->shift()), arith(ctx->arith()));
}

// arith: arith ('+' | '-') term | term
ExprPtr AstBuilder::arith(P::ArithContext* ctx) {
  if (auto* only = only_child<P::TermContext>(ctx)) return term(only);
  if (!ctx->arith()) return term(ctx->term());
  Span s = span(ctx->op);
  return std::make_unique<BinaryExpr>(s, binary_op(ctx->op->getText()), arith(ctx->arith()), term(ctx->term()));
}

// term: term ('*' | '/' | '//' | '%' | '@') unary | unary
ExprPtr AstBuilder::term(P::TermContext* ctx) {
  if (auto* only = only_child<P::UnaryContext>(ctx)) return unary(only);
  if (!ctx->term()) return unary(ctx->unary());
  Span s = span(ctx->op);
  return std::make_unique<BinaryExpr>(s, binary_op(ctx->op->getText()), term(ctx->term()), unary(ctx->unary()));
}

// unary: ('-' | '+') unary | power
ExprPtr AstBuilder::unary(P::UnaryContext* ctx) {
  if (auto* only = only_child<P::PowerContext>(ctx)) return power(only);
  if (!ctx->unary()) return power(ctx->power());
  const std::string t = ctx->op->getText();
  UnaryOp op = t == "-" ? UnaryOp::Neg : t == "+" ? UnaryOp::Pos : UnaryOp::Invert;
  return std::make_unique<UnaryExpr>(span(ctx), op, unary(ctx->unary()));
}

// power: postfix ('**' unary)?
ExprPtr AstBuilder::power(P::PowerContext* ctx) {
  if (auto* only = only_child<P::PostfixContext>(ctx)) return postfix(only);
  if (!ctx->unary()) return postfix(ctx->postfix());
  return std::make_unique<BinaryExpr>(span(ctx), BinaryOp::Pow, postfix(ctx->postfix()), unary(ctx->unary()));
}

// postfix: atom | postfix '(' args? ')' | postfix '[' subscripts ']' | postfix '.' attrName
ExprPtr AstBuilder::postfix(P::PostfixContext* ctx) {
  if (auto* only = only_child<P::AtomContext>(ctx)) return atom(only);
  if (auto* c = dynamic_cast<P::AtomPostfixContext*>(ctx)) return atom(c->atom());
  if (auto* c = dynamic_cast<P::CallContext*>(ctx)) return call(c);
  if (auto* c = dynamic_cast<P::IndexContext*>(ctx)) return index(c);
  auto* c = dynamic_cast<P::AttributeContext*>(ctx);
  return std::make_unique<AttrExpr>(span(c->attrName()), postfix(c->postfix()), intern(c->attrName()->getText()));
}

// postfix '(' args? ')'; the span covers the whole call so errors underline it.
ExprPtr AstBuilder::call(P::CallContext* ctx) {
  auto e = std::make_unique<CallExpr>(span(ctx), postfix(ctx->postfix()));
  if (!ctx->args()) return e;
  if (auto* gen = ctx->args()->compFor()) {   // f(x for x in xs): the generator is the one positional argument
    auto* only = dynamic_cast<P::PosArgContext*>(ctx->args()->arg(0));
    if (!only) throw AmpsError("SyntaxError", "invalid syntax: a generator expression must be a plain argument", span(ctx));
    Arg a;
    a.value = comprehension(CompKind::Gen, span(ctx->args()), nullptr, only->expr(), gen);
    e->args.push_back(std::move(a));
    return e;
  }
  for (auto* a : ctx->args()->arg()) {
    e->args.push_back(arg(a));
    e->has_splat |= e->args.back().kind == Arg::Kind::Splat || e->args.back().kind == Arg::Kind::KwSplat;
  }
  return e;
}

// arg: attrName '=' expr | '*' expr | '**' expr | expr
Arg AstBuilder::arg(P::ArgContext* ctx) {
  Arg a;
  if (auto* c = dynamic_cast<P::KwArgContext*>(ctx)) {
    a.kind = Arg::Kind::Keyword;
    a.name = intern(c->attrName()->getText());
    a.value = expr(c->expr());
  } else if (auto* c = dynamic_cast<P::SplatArgContext*>(ctx)) {
    a.kind = Arg::Kind::Splat;
    a.value = expr(c->expr());
  } else if (auto* c = dynamic_cast<P::KwSplatArgContext*>(ctx)) {
    a.kind = Arg::Kind::KwSplat;
    a.value = expr(c->expr());
  } else {
    a.value = expr(dynamic_cast<P::PosArgContext*>(ctx)->expr());
  }
  return a;
}

// postfix '[' subscripts ']'
ExprPtr AstBuilder::index(P::IndexContext* ctx) {
  auto e = std::make_unique<IndexExpr>(span(ctx), postfix(ctx->postfix()));
  for (auto* s : ctx->subscripts()->subscript()) e->subs.push_back(subscript(s));
  return e;
}

// subscript: lo? ':' hi? (':' step?)? | expr | '...'
Subscript AstBuilder::subscript(P::SubscriptContext* ctx) {
  Subscript s;
  if (auto* c = dynamic_cast<P::ExprSubContext*>(ctx)) {
    s.value = expr(c->expr());
  } else if (auto* c = dynamic_cast<P::SliceSubContext*>(ctx)) {
    s.kind = Subscript::Kind::Slice;
    if (c->lo) s.lo = expr(c->lo);
    if (c->hi) s.hi = expr(c->hi);
    if (c->step) s.step = expr(c->step);
  } else {
    s.kind = Subscript::Kind::Ellipsis;
  }
  return s;
}

// Python's super(Cls, self) is amps' super when Cls is the enclosing class and self the method's first parameter
// (Python would start after another class in self's MRO); outside a method the resolver reports the misplaced super.
static void check_super_args(AstBuilder::P::SuperRefContext* c, const Span& s) {
  antlr4::tree::ParseTree* t = c->parent;
  while (t && !dynamic_cast<AstBuilder::P::FnDeclContext*>(t) && !dynamic_cast<AstBuilder::P::LambdaContext*>(t) &&
         !dynamic_cast<AstBuilder::P::PyLambdaContext*>(t))
    t = t->parent;
  auto* fn = dynamic_cast<AstBuilder::P::FnDeclContext*>(t);
  auto* member = fn ? dynamic_cast<AstBuilder::P::MemberContext*>(fn->parent) : nullptr;
  if (!member) return;
  auto* cls = dynamic_cast<AstBuilder::P::ClassDeclContext*>(member->parent->parent);
  const std::string want_cls = cls->name()->getText(), got_cls = c->supCls->getText(), got_self = c->supSelf->getText();
  auto* first = fn->params() ? dynamic_cast<AstBuilder::P::PlainParamContext*>(fn->params()->param(0)) : nullptr;
  const std::string self = first ? first->name()->getText() : "";
  if (got_cls != want_cls || got_self != self)
    throw AmpsError("SyntaxError", fmt::format("super({}, {}): amps' super is that of the enclosing class and method, "
                                               "super({}, {}); write super() or super.name", got_cls, got_self,
                                               want_cls, self.empty() ? "self" : self), s);
}

// atom: literals, names (also the keywords no_grad, enable_grad, set_grad_enabled and autocast as the builtins
// of those names), super.x, scale(x), tuples, lists, comprehensions, dicts
ExprPtr AstBuilder::atom(P::AtomContext* ctx) {
  Span s = span(ctx);
  if (dynamic_cast<P::NameRefContext*>(ctx) || dynamic_cast<P::KeywordRefContext*>(ctx))
    return std::make_unique<NameExpr>(s, intern(ctx->getText()));
  if (auto* c = dynamic_cast<P::SuperRefContext*>(ctx)) {
    const std::string attr = c->attrName()->getText();
    if (c->supCls) check_super_args(c, s);
    return std::make_unique<SuperExpr>(s, intern(attr == "__init__" ? "init" : attr));  // Python's constructor name
  }
  if (auto* c = dynamic_cast<P::ScaleExprContext*>(ctx)) return std::make_unique<ScaleExpr>(s, expr(c->expr()));
  if (auto* c = dynamic_cast<P::StrLitContext*>(ctx)) return string_lit(c);
  if (ExprPtr e = collection(ctx)) return e;
  return literal(ctx);
}

static int64_t parse_int(std::string text, const Span& s) {
  std::erase(text, '_');
  int base = 10;
  std::string_view digits = text;
  if (text.size() > 2 && (text[1] == 'x' || text[1] == 'X')) base = 16, digits.remove_prefix(2);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (ec != std::errc() || p != digits.data() + digits.size())
    throw AmpsError("SyntaxError", "integer literal '" + text + "' is too large for int64", s);
  return v;
}

// INT | FLOAT | TRUE | FALSE | NONE
ExprPtr AstBuilder::literal(P::AtomContext* ctx) {
  Span s = span(ctx);
  std::string text = ctx->getText();
  if (dynamic_cast<P::IntLitContext*>(ctx)) return std::make_unique<IntLit>(s, parse_int(text, s));
  if (dynamic_cast<P::FloatLitContext*>(ctx)) {
    std::erase(text, '_');
    return std::make_unique<FloatLit>(s, std::strtod(text.c_str(), nullptr));
  }
  if (dynamic_cast<P::TrueLitContext*>(ctx)) return std::make_unique<BoolLit>(s, true);
  if (dynamic_cast<P::FalseLitContext*>(ctx)) return std::make_unique<BoolLit>(s, false);
  return std::make_unique<NoneLit>(s);
}

// Appends code point [cp] to [out] as UTF-8 (amps strings hold UTF-8).
static void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F)), out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The code point of Python's \xhh, \uXXXX or \UXXXXXXXX escape whose [digits] hex digits start at body[i + 1]; i
// moves to the last digit.
static uint32_t hex_escape(std::string_view body, size_t& i, int digits, const Span& where) {
  uint32_t cp = 0;
  for (int k = 0; k < digits; ++k) {
    const char h = i + 1 < body.size() ? body[i + 1] : '\0';
    if (!std::isxdigit(static_cast<unsigned char>(h)))
      throw AmpsError("SyntaxError", fmt::format("truncated \\{}{} escape", body[i - size_t(k)],
                                                 std::string(size_t(digits), 'X')), where);
    cp = cp * 16 + uint32_t(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
    ++i;
  }
  if (cp > 0x10FFFF) throw AmpsError("SyntaxError", "illegal Unicode character (above U+10FFFF)", where);
  if (cp >= 0xD800 && cp <= 0xDFFF)
    throw AmpsError("SyntaxError", fmt::format("surrogate U+{:04X} cannot be in an amps string (UTF-8)", cp), where);
  return cp;
}

// A string literal's body with Python's escapes decoded: \n \t \r \a \b \f \v, quotes, backslash, braces,
// octal \ooo (1-3 digits, \0 among them), \xhh, \uXXXX, \UXXXXXXXX (as UTF-8), a backslash-newline joins lines.
std::string unescape(std::string_view body, const Span& where) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') { out += body[i]; continue; }
    char c = body[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case 'x': append_utf8(out, hex_escape(body, i, 2, where)); break;
      case 'u': append_utf8(out, hex_escape(body, i, 4, where)); break;
      case 'U': append_utf8(out, hex_escape(body, i, 8, where)); break;
      case '"': case '\'': case '\\': case '{': case '}': out += c; break;
      case '\n': break;
      case '\r': if (i + 1 < body.size() && body[i + 1] == '\n') ++i; break;
      default: {
        if (c < '0' || c > '7') throw AmpsError("SyntaxError", std::string("unknown escape sequence '\\") + c + "'", where);
        uint32_t cp = uint32_t(c - '0');
        for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
          cp = cp * 8 + uint32_t(body[++i] - '0');
        append_utf8(out, cp);
      }
    }
  }
  return out;
}

}  // namespace amps::interp
