// Parse tree → AST. The only file that sees ANTLR contexts; every node gets a source span.
#pragma once

#include "AmpsParser.h"
#include "interp/ast.hpp"

namespace amps::interp {

class AstBuilder {
 public:
  using P = amps_gen::AmpsParser;
  explicit AstBuilder(SourceRef src) : src_(std::move(src)) {}

  StmtList program(P::ProgramContext* ctx);
  ExprPtr expr(P::ExprContext* ctx);

 private:
  Span span(antlr4::ParserRuleContext* ctx) const;
  Span span(antlr4::Token* tok) const;

  StmtList statements(const std::vector<P::StatementContext*>& list);
  StmtList block(P::BlockContext* ctx);
  StmtPtr statement(P::StatementContext* ctx);
  StmtPtr let_stmt(P::LetStmtContext* ctx);
  StmtPtr expr_stmt(P::ExprStmtContext* ctx);
  StmtPtr aug_assign_stmt(P::ExprStmtContext* ctx);
  std::unique_ptr<FnDecl> fn_decl(P::FnDeclContext* ctx);
  std::unique_ptr<FnDecl> fn_common(Span s, Atom name, P::ParamsContext* params, P::BlockContext* body);
  void fill_params(FnDecl& fn, P::ParamsContext* params);
  void check_star_params(const std::vector<Param>& params);
  StmtPtr class_decl(P::ClassDeclContext* ctx);
  StmtPtr if_stmt(P::IfStmtContext* ctx);
  StmtPtr while_stmt(P::WhileStmtContext* ctx);
  StmtPtr for_stmt(P::ForStmtContext* ctx);
  StmtPtr try_stmt(P::TryStmtContext* ctx);
  TryHandler handler(P::HandlerContext* ctx);
  ExprPtr except_type(P::ExceptTypeContext* ctx);
  StmtPtr autocast_stmt(P::AutocastStmtContext* ctx);
  StmtPtr import_stmt(P::ImportStmtContext* ctx);
  StmtPtr simple_stmt(antlr4::ParserRuleContext* ctx);
  StmtPtr grad_mode_stmt(P::GradModeStmtContext* ctx);
  StmtPtr with_stmt(P::WithStmtContext* ctx);
  Pattern pattern(P::PatternContext* ctx);
  Pattern pattern_part(P::PatternContext* ctx);
  Pattern name_pattern(P::NameContext* ctx);
  std::vector<ExprPtr> decorators(const std::vector<P::DecoratorContext*>& list);

  ExprPtr or_expr(P::OrExprContext* ctx);
  ExprPtr and_expr(P::AndExprContext* ctx);
  ExprPtr autocast_or(P::AutocastOrContext* ctx);
  ExprPtr autocast_and(P::AutocastAndContext* ctx);
  ExprPtr autocast_not(P::AutocastNotContext* ctx);
  ExprPtr not_expr(P::NotExprContext* ctx);
  ExprPtr comparison(P::ComparisonContext* ctx);
  ExprPtr bit_or(P::BitOrContext* ctx);
  ExprPtr bit_xor(P::BitXorContext* ctx);
  ExprPtr bit_and(P::BitAndContext* ctx);
  ExprPtr shift(P::ShiftContext* ctx);
  ExprPtr arith(P::ArithContext* ctx);
  ExprPtr term(P::TermContext* ctx);
  ExprPtr unary(P::UnaryContext* ctx);
  ExprPtr power(P::PowerContext* ctx);
  ExprPtr postfix(P::PostfixContext* ctx);
  ExprPtr call(P::CallContext* ctx);
  ExprPtr index(P::IndexContext* ctx);
  Subscript subscript(P::SubscriptContext* ctx);
  Arg arg(P::ArgContext* ctx);
  ExprPtr atom(P::AtomContext* ctx);
  ExprPtr collection(P::AtomContext* ctx);
  ExprPtr literal(P::AtomContext* ctx);
  ExprPtr py_lambda(P::PyLambdaContext* ctx);
  ExprPtr star_item(P::StarItemContext* ctx);
  std::vector<ExprPtr> star_items(const std::vector<P::StarItemContext*>& list);
  ExprPtr comprehension(CompKind kind, Span s, P::ExprContext* key, P::ExprContext* elem, P::CompForContext* clause);
  ExprPtr dict_lit(P::DictLitContext* ctx);
  ExprPtr set_lit(P::DictLitContext* ctx);
  ExprPtr fstring(antlr4::Token* tok);
  std::vector<ExprPtr> exprs(const std::vector<P::ExprContext*>& list);

  SourceRef src_;
};

// Decodes a quoted literal's escapes (\n \t \" \' \\ \0 \r); throws SyntaxError on an unknown one.
std::string unescape(std::string_view quoted_body, const Span& where);

}  // namespace amps::interp
