// Parse tree → AST (see ast_builder.hpp). One function per grammar rule, named after it.
#include "interp/ast_builder.hpp"

#include <algorithm>
#include <fmt/format.h>

#include <charconv>

#include "interp/diagnostics.hpp"
#include "interp/parser.hpp"

namespace amps::interp {

using P = amps_gen::AmpsParser;

Span AstBuilder::span(antlr4::Token* tok) const {
  uint32_t line = tok->getLine(), col = tok->getCharPositionInLine() + 1;
  const std::string text = tok->getText();
  const size_t last_break = text.rfind('\n');   // a triple-quoted string may span lines
  if (last_break == std::string::npos) return Span{src_.get(), line, col, line, uint32_t(col + text.size())};
  const auto breaks = uint32_t(std::count(text.begin(), text.end(), '\n'));
  return Span{src_.get(), line, col, line + breaks, uint32_t(text.size() - last_break)};
}

Span AstBuilder::span(antlr4::ParserRuleContext* ctx) const {
  Span s = span(ctx->getStart());
  antlr4::Token* stop = ctx->getStop();
  if (stop && stop->getType() != antlr4::Token::EOF && stop->getTokenIndex() >= ctx->getStart()->getTokenIndex()) {
    Span e = span(stop);
    s.end_line = e.end_line;
    s.end_col = e.end_col;
  }
  return s;
}

// program: sep* (statement (sep+ statement)*)? sep* EOF
StmtList AstBuilder::program(P::ProgramContext* ctx) { return statements(ctx->statement()); }

StmtList AstBuilder::statements(const std::vector<P::StatementContext*>& list) {
  StmtList out;
  for (auto* s : list) out.push_back(statement(s));
  return out;
}

// block: '{' statements '}'
StmtList AstBuilder::block(P::BlockContext* ctx) { return statements(ctx->statement()); }

// statement: one of the statement rules (its only child; told apart by rule index rather than by ANTLR's
// accessors, each of which would dynamic_cast the child).
StmtPtr AstBuilder::statement(P::StatementContext* ctx) {
  auto* c = static_cast<antlr4::ParserRuleContext*>(ctx->children[0]);
  switch (c->getRuleIndex()) {
    case P::RuleLetStmt: return let_stmt(static_cast<P::LetStmtContext*>(c));
    case P::RuleFnDecl: {
      auto* f = static_cast<P::FnDeclContext*>(c);
      // `scale(x)` always means the GradScaler keyword, so a function named scale could never be called.
      if (f->attrName()->SCALE())
        throw AmpsError("SyntaxError", "'scale' is a keyword: `scale(x)` multiplies by the active GradScaler's "
                        "scale, so a function of that name could never be called; choose another name", span(f->attrName()));
      return fn_decl(f);
    }
    case P::RuleClassDecl: return class_decl(static_cast<P::ClassDeclContext*>(c));
    case P::RuleIfStmt: return if_stmt(static_cast<P::IfStmtContext*>(c));
    case P::RuleWhileStmt: return while_stmt(static_cast<P::WhileStmtContext*>(c));
    case P::RuleForStmt: return for_stmt(static_cast<P::ForStmtContext*>(c));
    case P::RuleTryStmt: return try_stmt(static_cast<P::TryStmtContext*>(c));
    case P::RuleAutocastStmt: return autocast_stmt(static_cast<P::AutocastStmtContext*>(c));
    case P::RuleImportStmt: return import_stmt(static_cast<P::ImportStmtContext*>(c));
    case P::RuleExprStmt: return expr_stmt(static_cast<P::ExprStmtContext*>(c));
    case P::RuleGradModeStmt: return grad_mode_stmt(static_cast<P::GradModeStmtContext*>(c));
    case P::RuleWithStmt: return with_stmt(static_cast<P::WithStmtContext*>(c));
    default: return simple_stmt(c);
  }
}

// Python's deletable targets: names, attributes, subscripts and tuples/lists of them (`del (a, b)`).
static void check_del_target(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name: case ExprKind::Attr: case ExprKind::Index: return;
    case ExprKind::Tuple: for (auto& i : static_cast<const TupleLit&>(e).items) check_del_target(*i); return;
    case ExprKind::List: for (auto& i : static_cast<const ListLit&>(e).items) check_del_target(*i); return;
    default:
      throw AmpsError("SyntaxError", "cannot delete this expression: `del` takes a name, an attribute (`obj.x`) or a "
                      "subscript (`d[key]`, `xs[i]`, `xs[a:b]`)", e.span);
  }
}

// returnStmt | breakStmt | continueStmt | assertStmt | raiseStmt | passStmt | scopeStmt | delStmt
StmtPtr AstBuilder::simple_stmt(antlr4::ParserRuleContext* ctx) {
  Span s = span(ctx);
  switch (ctx->getRuleIndex()) {
    case P::RuleReturnStmt: {
      auto* c = static_cast<P::ReturnStmtContext*>(ctx);
      if (c->expr().empty()) return std::make_unique<ReturnStmt>(s, nullptr);
      if (c->expr().size() == 1 && !c->trailing) return std::make_unique<ReturnStmt>(s, expr(c->expr(0)));
      Span ts = span(c->expr(0));
      const Span last = span(c->expr().back());
      ts.end_line = last.end_line, ts.end_col = last.end_col;
      auto tuple = std::make_unique<TupleLit>(ts);
      for (auto* e : c->expr()) tuple->items.push_back(expr(e));
      return std::make_unique<ReturnStmt>(s, std::move(tuple));
    }
    case P::RuleDelStmt: {
      auto st = std::make_unique<DelStmt>(s);
      for (auto* e : static_cast<P::DelStmtContext*>(ctx)->expr()) {
        st->targets.push_back(expr(e));
        check_del_target(*st->targets.back());
      }
      return st;
    }
    case P::RuleAssertStmt: {
      auto* c = static_cast<P::AssertStmtContext*>(ctx);
      return std::make_unique<AssertStmt>(s, expr(c->expr(0)), c->expr().size() > 1 ? expr(c->expr(1)) : nullptr);
    }
    case P::RuleRaiseStmt: {
      auto* c = static_cast<P::RaiseStmtContext*>(ctx);
      auto r = std::make_unique<RaiseStmt>(s, c->value ? expr(c->value) : nullptr);
      if (c->from) {
        if (c->from->getText() != "from") throw AmpsError("SyntaxError", "invalid syntax: expected 'from' or the end of the raise statement", span(c->from));
        r->cause = expr(c->cause);
      }
      return r;
    }
    case P::RuleScopeStmt: {
      auto* c = static_cast<P::ScopeStmtContext*>(ctx);
      auto st = std::make_unique<ScopeStmt>(s, c->kw->getType() == P::NONLOCAL);
      for (auto* n : c->name()) st->names.push_back(intern(n->getText())), st->spans.push_back(span(n));
      return st;
    }
    case P::RuleBreakStmt: return std::make_unique<SimpleStmt>(StmtKind::Break, s);
    case P::RuleContinueStmt: return std::make_unique<SimpleStmt>(StmtKind::Continue, s);
    default: return std::make_unique<SimpleStmt>(StmtKind::Pass, s);
  }
}

// letStmt: LET pattern ('=' expr)?
StmtPtr AstBuilder::let_stmt(P::LetStmtContext* ctx) {
  ExprPtr value = ctx->value ? bare_tuple(ctx->value, ctx->values, ctx->vtrail) : nullptr;
  return std::make_unique<LetStmt>(span(ctx), targets(ctx->targets()), std::move(value));
}

// targets: pattern (',' pattern)* ','? — one pattern, or the tuple pattern of several (Python's `for i, x in ...`).
Pattern AstBuilder::targets(P::TargetsContext* ctx) {
  if (ctx->pattern().size() == 1 && !ctx->trailing) return pattern(ctx->pattern(0));
  Pattern p;
  p.span = span(ctx);
  int stars = 0;
  for (auto* part : ctx->pattern()) {
    p.elements.push_back(pattern_part(part));
    stars += p.elements.back().starred;
  }
  if (stars > 1) throw AmpsError("SyntaxError", "multiple starred expressions in assignment", p.span);
  return p;
}

// `e` alone, or the tuple `e, f, ...` (a trailing comma makes a one-tuple), as Python's bare tuple displays.
ExprPtr AstBuilder::bare_tuple(P::ExprContext* first, const std::vector<P::ExprContext*>& rest, antlr4::Token* trail) {
  if (rest.empty() && !trail) return expr(first);
  Span s = span(first);
  const Span last = span(rest.empty() ? first : rest.back());
  s.end_line = last.end_line, s.end_col = last.end_col;
  auto t = std::make_unique<TupleLit>(s);
  t->items.push_back(expr(first));
  for (auto* e : rest) t->items.push_back(expr(e));
  return t;
}

// pattern: name | '(' pattern, ... ')' | '[' pattern, ... ']'
// A whole target (of let, for, with, a comprehension): `*name` only inside a tuple/list, as Python.
Pattern AstBuilder::pattern(P::PatternContext* ctx) {
  Pattern p = pattern_part(ctx);
  if (p.starred) throw AmpsError("SyntaxError", "starred assignment target must be in a list or tuple", p.span);
  return p;
}

Pattern AstBuilder::pattern_part(P::PatternContext* ctx) {
  if (auto* c = dynamic_cast<P::NamePatternContext*>(ctx)) return name_pattern(c->name());
  if (auto* c = dynamic_cast<P::StarPatternContext*>(ctx)) {
    Pattern p = name_pattern(c->name());
    p.starred = true;
    return p;
  }
  Pattern p;
  p.span = span(ctx);
  std::vector<P::PatternContext*> parts;
  if (auto* c = dynamic_cast<P::TuplePatternContext*>(ctx)) parts = c->pattern();
  if (auto* c = dynamic_cast<P::ListPatternContext*>(ctx)) parts = c->pattern();
  int stars = 0;
  for (auto* part : parts) {
    p.elements.push_back(pattern_part(part));
    stars += p.elements.back().starred;
  }
  if (stars > 1) throw AmpsError("SyntaxError", "multiple starred expressions in assignment", p.span);
  return p;
}

Pattern AstBuilder::name_pattern(P::NameContext* ctx) {
  Pattern p;
  p.span = span(ctx);
  p.name = intern(ctx->getText());
  return p;
}

// exprStmt: target=expr (op=('=' | '+=' | ...) value=expr)?
StmtPtr AstBuilder::expr_stmt(P::ExprStmtContext* ctx) {
  ExprPtr target = bare_tuple(ctx->target, ctx->others, ctx->ttrail);
  if (!ctx->op) return std::make_unique<ExprStmt>(span(ctx), std::move(target));
  const bool value_tuple = !ctx->values.empty() || ctx->vtrail;
  if (ctx->op->getText() != "=") {
    if (!ctx->more.empty()) throw AmpsError("SyntaxError", "invalid syntax: an augmented assignment cannot be chained", span(ctx));
    if (!ctx->others.empty() || ctx->ttrail)
      throw AmpsError("SyntaxError", "'tuple' is an illegal expression for augmented assignment", span(ctx));
    return aug_assign_stmt(ctx, value_tuple ? bare_tuple(ctx->value, ctx->values, ctx->vtrail) : expr(ctx->value));
  }
  if (ctx->more.empty())
    return std::make_unique<AssignStmt>(span(ctx), std::move(target), bare_tuple(ctx->value, ctx->values, ctx->vtrail));
  if (value_tuple) throw AmpsError("SyntaxError", "a bare tuple in a chained assignment: write it in parentheses", span(ctx));
  // a = b = c = v: targets a, b, c; the value is the last expression
  auto s = std::make_unique<AssignStmt>(span(ctx), std::move(target), expr(ctx->more.back()));
  s->more_targets.push_back(expr(ctx->value));
  for (size_t i = 0; i + 1 < ctx->more.size(); ++i) s->more_targets.push_back(expr(ctx->more[i]));
  return s;
}

// exprStmt with an augmented operator ('+=', ...)
StmtPtr AstBuilder::aug_assign_stmt(P::ExprStmtContext* ctx, ExprPtr value) {
  static const std::pair<const char*, BinaryOp> ops[] = {
      {"+=", BinaryOp::Add}, {"-=", BinaryOp::Sub}, {"*=", BinaryOp::Mul}, {"/=", BinaryOp::Div},
      {"//=", BinaryOp::FloorDiv}, {"%=", BinaryOp::Mod}, {"**=", BinaryOp::Pow}, {"@=", BinaryOp::MatMul},
      {"&=", BinaryOp::BitAnd}, {"|=", BinaryOp::BitOr}, {"^=", BinaryOp::BitXor}, {"<<=", BinaryOp::LShift},
      {">>=", BinaryOp::RShift}};
  BinaryOp op = BinaryOp::Add;
  for (auto& [text, o] : ops)
    if (ctx->op->getText() == text) op = o;
  return std::make_unique<AugAssignStmt>(span(ctx), op, expr(ctx->target), std::move(value));
}

// gradModeStmt: NO_GRAD block | ENABLE_GRAD block | SET_GRAD_ENABLED '(' expr ')' block
StmtPtr AstBuilder::grad_mode_stmt(P::GradModeStmtContext* ctx) {
  auto n = std::make_unique<GradModeStmt>(span(ctx));
  n->enabled = ctx->ENABLE_GRAD() != nullptr;
  if (ctx->SET_GRAD_ENABLED()) n->mode = expr(ctx->expr());
  n->body = block(ctx->block());
  return n;
}

// withStmt: WITH withItem (',' withItem)* block, withItem: expr (AS pattern)?
StmtPtr AstBuilder::with_stmt(P::WithStmtContext* ctx) {
  auto n = std::make_unique<WithStmt>(span(ctx->WITH()->getSymbol()));
  for (auto* item : ctx->withItem()) {
    WithItem w;
    w.manager = expr(item->expr());
    if ((w.has_target = item->pattern() != nullptr)) w.target = pattern(item->pattern());
    n->items.push_back(std::move(w));
  }
  n->body = block(ctx->block());
  return n;
}

// decorator: '@' postfix (`@no_grad` and `@no_grad()` name the builtin through the atom keywordRef)
std::vector<ExprPtr> AstBuilder::decorators(const std::vector<P::DecoratorContext*>& list) {
  std::vector<ExprPtr> out;
  for (auto* d : list) out.push_back(postfix(d->postfix()));
  return out;
}

// fnDecl: decorator* FN attrName '(' params? ')' block
std::unique_ptr<FnDecl> AstBuilder::fn_decl(P::FnDeclContext* ctx) {
  Span s = span(ctx->attrName());
  auto fn = fn_common(s, intern(ctx->attrName()->getText()), ctx->params(), ctx->block());
  fn->decorators = decorators(ctx->decorator());
  return fn;
}

// params: param (',' param)*  with plain (default), *rest and **kwrest forms
std::unique_ptr<FnDecl> AstBuilder::fn_common(Span s, Atom name, P::ParamsContext* params, P::BlockContext* body) {
  auto fn = std::make_unique<FnDecl>(s, name);
  fill_params(*fn, params);
  fn->body = block(body);
  return fn;
}

// params: plain (default), *rest, a bare `*` (the parameters after it are keyword-only) and **kwrest
void AstBuilder::fill_params(FnDecl& decl, P::ParamsContext* params) {
  FnDecl* fn = &decl;
  for (auto* p : params ? params->param() : std::vector<P::ParamContext*>{}) {
    Param param;
    param.span = span(p);
    if (auto* c = dynamic_cast<P::PlainParamContext*>(p)) {
      param.name = intern(c->name()->getText());
      if (c->value) param.default_value = expr(c->value);
    } else if (auto* c = dynamic_cast<P::RestParamContext*>(p)) {
      param.kind = c->name() ? Param::Kind::Rest : Param::Kind::Star;
      param.name = intern(c->name() ? c->name()->getText() : "*");
    } else if (auto* c = dynamic_cast<P::KwRestParamContext*>(p)) {
      param.kind = Param::Kind::KwRest;
      param.name = intern(c->name()->getText());
    }
    fn->params.push_back(std::move(param));
  }
  check_star_params(fn->params);
}

// Python's SyntaxErrors for `*`: once only, and a bare `*` needs a keyword-only parameter after it.
void AstBuilder::check_star_params(const std::vector<Param>& params) {
  int stars = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind != Param::Kind::Rest && params[i].kind != Param::Kind::Star) continue;
    if (++stars > 1) throw AmpsError("SyntaxError", "* argument may appear only once", params[i].span);
    bool named_after = i + 1 < params.size() && params[i + 1].kind == Param::Kind::Plain;
    if (params[i].kind == Param::Kind::Star && !named_after)
      throw AmpsError("SyntaxError", "named arguments must follow bare *", params[i].span);
  }
}

// Python's constructor `__init__` is amps' `init` (one of the two per class).
static void constructor_name(const ClassDecl& cls, FnDecl& method) {
  if (*method.name != "__init__") return;
  for (const auto& m : cls.methods)
    if (m.get() != &method && *m->name == "init")
      throw AmpsError("SyntaxError", fmt::format("class '{}' defines both init and __init__ (the same constructor): "
                                                 "keep one", *cls.name), method.span);
  method.name = intern("init");
}

// classDecl: decorator* CLASS name ('(' base=expr ')')? classBody
StmtPtr AstBuilder::class_decl(P::ClassDeclContext* ctx) {
  auto cls = std::make_unique<ClassDecl>(span(ctx->name()), intern(ctx->name()->getText()));
  cls->decorators = decorators(ctx->decorator());
  if (ctx->base) cls->base = expr(ctx->base);
  for (auto* m : ctx->classBody()->member()) {
    if (m->passStmt()) continue;   // `class Stop(Exception) { pass }`, Python's empty body
    if (m->fnDecl()) {
      cls->methods.push_back(fn_decl(m->fnDecl()));
      cls->methods.back()->is_method = true;
      constructor_name(*cls, *cls->methods.back());
    } else {
      auto let = let_stmt(m->letStmt());
      cls->fields.emplace_back(static_cast<LetStmt*>(let.release()));
    }
  }
  return cls;
}

// ifStmt: IF expr block (ELSE (ifStmt | block))?
StmtPtr AstBuilder::if_stmt(P::IfStmtContext* ctx) {
  auto s = std::make_unique<IfStmt>(span(ctx->IF()->getSymbol()), expr(ctx->expr()));
  s->then = block(ctx->block(0));
  if (ctx->ifStmt()) s->otherwise.push_back(if_stmt(ctx->ifStmt()));
  else if (ctx->block().size() > 1) s->otherwise = block(ctx->block(1));
  return s;
}

// whileStmt: WHILE expr block
StmtPtr AstBuilder::while_stmt(P::WhileStmtContext* ctx) {
  auto s = std::make_unique<WhileStmt>(span(ctx->WHILE()->getSymbol()), expr(ctx->expr()));
  s->body = block(ctx->block());
  return s;
}

// forStmt: FOR pattern IN expr block
StmtPtr AstBuilder::for_stmt(P::ForStmtContext* ctx) {
  auto s = std::make_unique<ForStmt>(span(ctx->FOR()->getSymbol()), targets(ctx->targets()), expr(ctx->expr()));
  s->body = block(ctx->block());
  return s;
}

// tryStmt: TRY block handler* (ELSE block)? (FINALLY block)?
StmtPtr AstBuilder::try_stmt(P::TryStmtContext* ctx) {
  auto s = std::make_unique<TryStmt>(span(ctx->TRY()->getSymbol()));
  s->body = block(ctx->block(0));
  for (auto* h : ctx->handler()) s->handlers.push_back(handler(h));
  for (size_t i = 0; i + 1 < s->handlers.size(); ++i)
    if (!s->handlers[i].type)
      throw AmpsError("SyntaxError", "default 'except:' must be last (a catch-all `catch`/`except` ends the handlers)",
                      s->handlers[i].span);
  if (ctx->elseBlock) {
    if (s->handlers.empty()) throw AmpsError("SyntaxError", "'else' after 'try' needs an except clause before it", span(ctx->ELSE()->getSymbol()));
    s->has_else = true;
    s->else_body = block(ctx->elseBlock);
  }
  if (ctx->finallyBlock) s->finally = block(ctx->finallyBlock);
  return s;
}

// handler: CATCH name? block | EXCEPT (exceptType (AS name)?)? block
TryHandler AstBuilder::handler(P::HandlerContext* ctx) {
  TryHandler h;
  h.span = span(ctx->getStart());
  P::NameContext* name = nullptr;
  P::BlockContext* body = nullptr;
  if (auto* c = dynamic_cast<P::CatchAllContext*>(ctx)) {
    name = c->name(), body = c->block();
  } else {
    auto* e = static_cast<P::ExceptClauseContext*>(ctx);
    name = e->name(), body = e->block();
    if (e->exceptType()) h.type = except_type(e->exceptType());
  }
  if (name) h.name = name_pattern(name);
  h.body = block(body);
  return h;
}

// exceptType: name ('.' attrName)* | '(' expr (',' expr)* ','? ')'
ExprPtr AstBuilder::except_type(P::ExceptTypeContext* ctx) {
  if (auto* t = dynamic_cast<P::ExceptTupleContext*>(ctx)) {
    std::vector<ExprPtr> items;
    for (auto* e : t->expr()) items.push_back(expr(e));
    if (items.size() == 1 && !t->trailing) return std::move(items[0]);
    auto tuple = std::make_unique<TupleLit>(span(ctx));
    tuple->items = std::move(items);
    return tuple;
  }
  auto* n = static_cast<P::ExceptNameContext*>(ctx);
  ExprPtr e = std::make_unique<NameExpr>(span(n->name()), intern(n->name()->getText()));
  for (auto* a : n->attrName()) e = std::make_unique<AttrExpr>(span(a), std::move(e), intern(a->getText()));
  return e;
}

// autocastStmt: AUTOCAST postfix '<' (autocastArg (',' autocastArg)*)? '>' block
StmtPtr AstBuilder::autocast_stmt(P::AutocastStmtContext* ctx) {
  auto s = std::make_unique<AutocastStmt>(span(ctx->AUTOCAST()->getSymbol()), postfix(ctx->postfix()));
  for (auto* a : ctx->autocastArg()) {
    Arg arg;
    if (a->attrName()) {
      arg.kind = Arg::Kind::Keyword;
      arg.name = intern(a->attrName()->getText());
    }
    arg.value = autocast_or(a->autocastOr());
    s->args.push_back(std::move(arg));
  }
  s->body = block(ctx->block());
  return s;
}

// fromImport: `from` name ('.' attrName)* IMPORT fromName (',' fromName)*, parenthesised or not
StmtPtr AstBuilder::from_import(P::FromImportContext* c, std::unique_ptr<ImportStmt> s) {
  if (c->from->getText() != "from") {
    throw AmpsError("SyntaxError", "unexpected '" + c->from->getText() + "', expected a statement", span(c->from));
  }
  s->module_path.push_back(intern(c->name()->getText()));
  for (auto* part : c->attrName()) s->module_path.push_back(intern(part->getText()));
  for (auto* n : c->fromName()) {
    Pattern target;
    target.name = intern(n->attrName()->getText());
    target.span = span(n->attrName());
    s->from_names.emplace_back(target.name, n->alias ? name_pattern(n->alias) : std::move(target));
  }
  return s;
}

// importStmt: IMPORT name ('.' attrName)* (AS name)? | IMPORT STRING AS name | fromImport
StmtPtr AstBuilder::import_stmt(P::ImportStmtContext* ctx) {
  auto s = std::make_unique<ImportStmt>(span(ctx));
  if (auto* c = dynamic_cast<P::FileImportContext*>(ctx)) {
    s->file = string_token_value(c->STRING()->getSymbol(), span(c->STRING()->getSymbol()));
    s->alias = name_pattern(c->alias);
    return s;
  }
  if (auto* c = dynamic_cast<P::FromImportContext*>(ctx)) return from_import(c, std::move(s));
  auto* c = dynamic_cast<P::ModuleImportContext*>(ctx);
  s->module_path.push_back(intern(c->name(0)->getText()));
  for (auto* part : c->attrName()) s->module_path.push_back(intern(part->getText()));
  s->alias = c->alias ? name_pattern(c->alias) : name_pattern(c->name(0));
  s->bind_root = !c->alias && s->module_path.size() > 1;
  return s;
}

}  // namespace amps::interp
