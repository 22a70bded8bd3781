// Parse tree → AST for displays and comprehensions: tuples, lists, dicts, sets (with Python's starred items and
// `**` entries), list/dict/set comprehensions and generator expressions, and Python's `lambda`.
#include "interp/ast_builder.hpp"
#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"

namespace amps::interp {

using P = amps_gen::AmpsParser;

static void syntax_error(const std::string& msg, const Span& where) { throw AmpsError("SyntaxError", msg, where); }

// lambda params: expr — a function whose body returns the expression; defaults are evaluated at creation.
ExprPtr AstBuilder::py_lambda(P::PyLambdaContext* ctx) {
  Span s = span(ctx->LAMBDA()->getSymbol());
  auto fn = std::make_unique<FnDecl>(s, intern("<lambda>"));
  fill_params(*fn, ctx->params());
  ExprPtr body = expr(ctx->expr());
  Span bs = body->span;
  fn->body.push_back(std::make_unique<ReturnStmt>(bs, std::move(body)));
  return std::make_unique<LambdaExpr>(s, std::move(fn));
}

// starItem: '*' bitOr | expr
ExprPtr AstBuilder::star_item(P::StarItemContext* ctx) {
  if (ctx->expr()) return expr(ctx->expr());
  return std::make_unique<StarredExpr>(span(ctx), bit_or(ctx->bitOr()));
}

std::vector<ExprPtr> AstBuilder::star_items(const std::vector<P::StarItemContext*>& list) {
  std::vector<ExprPtr> out;
  for (auto* e : list) out.push_back(star_item(e));
  return out;
}

// [elem clauses], (elem clauses), {key: elem clauses}, {elem clauses}; a clause: FOR pattern IN orExpr (IF orExpr)*
ExprPtr AstBuilder::comprehension(CompKind kind, Span s, P::ExprContext* key, P::ExprContext* elem,
                                  P::CompForContext* clause) {
  auto l = std::make_unique<ListComp>(s, kind);
  if (key) l->key = expr(key);
  l->elem = expr(elem);
  for (auto* c : clause->compClause()) {
    CompClause cl;
    cl.target = targets(c->targets());
    auto parts = c->orExpr();
    cl.iter = or_expr(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) cl.conds.push_back(or_expr(parts[i]));
    l->clauses.push_back(std::move(cl));
  }
  return l;
}

// The element of a comprehension: a starred item is Python's SyntaxError.
static P::ExprContext* comp_elem(P::StarItemContext* item, const Span& s) {
  if (!item->expr()) syntax_error("iterable unpacking cannot be used in comprehension", s);
  return item->expr();
}

// '(' ... ')': `(e)` is e itself; `()`, `(e,)` and `(e, f, ...)` are tuples; `(e for ...)` a generator.
// '[' ... ']' | '{' ... '}'
ExprPtr AstBuilder::collection(P::AtomContext* ctx) {
  Span s = span(ctx);
  if (auto* c = dynamic_cast<P::ParenOrTupleContext*>(ctx)) {
    auto items = c->starItem();
    if (c->compFor()) return comprehension(CompKind::Gen, s, nullptr, comp_elem(items[0], s), c->compFor());
    if (items.size() == 1 && !c->trailing) {
      if (!items[0]->expr()) syntax_error("cannot use starred expression here", s);
      return expr(items[0]->expr());
    }
    auto t = std::make_unique<TupleLit>(s);
    t->items = star_items(items);
    return t;
  }
  if (auto* c = dynamic_cast<P::ListLitContext*>(ctx)) {
    if (c->compFor()) return comprehension(CompKind::List, s, nullptr, comp_elem(c->starItem(0), s), c->compFor());
    auto l = std::make_unique<ListLit>(s);
    l->items = star_items(c->starItem());
    return l;
  }
  if (auto* c = dynamic_cast<P::DictLitContext*>(ctx)) {
    auto entries = c->dictEntry();
    if (!entries.empty() && (entries[0]->star || (entries[0]->key && !entries[0]->value))) return set_lit(c);
    return dict_lit(c);
  }
  return nullptr;
}

// '{' dictEntry (compFor | (',' dictEntry)* ','?) '}' with entries `k: v` or `**d`
ExprPtr AstBuilder::dict_lit(P::DictLitContext* ctx) {
  Span s = span(ctx);
  auto entries = ctx->dictEntry();
  if (ctx->compFor()) {
    if (entries[0]->dstar) syntax_error("dict unpacking cannot be used in dict comprehension", s);
    return comprehension(CompKind::Dict, s, entries[0]->key, entries[0]->value, ctx->compFor());
  }
  auto d = std::make_unique<DictLit>(s);
  for (auto* e : entries) {
    if (e->dstar) { d->entries.emplace_back(nullptr, bit_or(e->bitOr())); continue; }
    if (!e->value) syntax_error("':' expected after dictionary key", span(e));
    d->entries.emplace_back(expr(e->key), expr(e->value));
  }
  return d;
}

// '{' e (compFor | (',' e)* ','?) '}' with items `e` or `*xs`
ExprPtr AstBuilder::set_lit(P::DictLitContext* ctx) {
  Span s = span(ctx);
  auto entries = ctx->dictEntry();
  if (ctx->compFor()) {
    if (entries[0]->star) syntax_error("iterable unpacking cannot be used in comprehension", s);
    return comprehension(CompKind::Set, s, nullptr, entries[0]->key, ctx->compFor());
  }
  auto set = std::make_unique<SetLit>(s);
  for (auto* e : entries) {
    if (e->dstar || e->value) syntax_error("invalid syntax: a set display mixes `k: v` entries in", span(e));
    if (e->star) set->items.push_back(std::make_unique<StarredExpr>(span(e), bit_or(e->bitOr())));
    else set->items.push_back(expr(e->key));
  }
  return set;
}

}  // namespace amps::interp
