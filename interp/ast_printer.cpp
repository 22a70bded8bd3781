// S-expression printer for the AST (see ast_printer.hpp).
#include "interp/ast_printer.hpp"

#include <fmt/format.h>

namespace amps::interp {
namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '"' || c == '\\') out += std::string("\\") + c;
    else out += c;
  }
  return out + "\"";
}

std::string pattern(const Pattern& p) {
  if (p.is_name()) return (p.starred ? "*" : "") + *p.name;
  std::string out = "(tuple";
  for (auto& e : p.elements) out += " " + pattern(e);
  return out + ")";
}

std::string list(const std::vector<ExprPtr>& items) {
  std::string out;
  for (auto& e : items) out += " " + dump_expr(*e);
  return out;
}

std::string block(const StmtList& body, int indent);

std::string args(const std::vector<Arg>& list) {
  std::string out;
  for (auto& a : list) {
    switch (a.kind) {
      case Arg::Kind::Positional: out += " " + dump_expr(*a.value); break;
      case Arg::Kind::Keyword: out += fmt::format(" (kw {} {})", *a.name, dump_expr(*a.value)); break;
      case Arg::Kind::Splat: out += " (* " + dump_expr(*a.value) + ")"; break;
      case Arg::Kind::KwSplat: out += " (** " + dump_expr(*a.value) + ")"; break;
    }
  }
  return out;
}

std::string subscript(const Subscript& s) {
  auto opt = [](const ExprPtr& e) { return e ? dump_expr(*e) : std::string("_"); };
  if (s.kind == Subscript::Kind::Ellipsis) return "...";
  if (s.kind == Subscript::Kind::Expr) return dump_expr(*s.value);
  return fmt::format("(slice {} {} {})", opt(s.lo), opt(s.hi), opt(s.step));
}

std::string fn(const FnDecl& f, int indent) {
  std::string out = "(fn " + *f.name + " (";
  for (size_t i = 0; i < f.params.size(); ++i) {
    auto& p = f.params[i];
    std::string prefix = p.kind == Param::Kind::Rest ? "*" : p.kind == Param::Kind::KwRest ? "**" : "";
    out += (i ? " " : "") + prefix + *p.name;
    if (p.default_value) out += "=" + dump_expr(*p.default_value);
  }
  out += ")";
  for (auto& d : f.decorators) out += " (@ " + dump_expr(*d) + ")";
  return out + block(f.body, indent) + ")";
}

std::string stmt(const Stmt& s, int indent);

std::string block(const StmtList& body, int indent) {
  std::string out;
  for (auto& s : body) out += "\n" + std::string(indent + 2, ' ') + stmt(*s, indent + 2);
  return out;
}

std::string stmt_control(const Stmt& s, int indent) {
  switch (s.kind) {
    case StmtKind::If: {
      auto& n = static_cast<const IfStmt&>(s);
      std::string out = "(if " + dump_expr(*n.cond) + block(n.then, indent);
      if (!n.otherwise.empty()) out += "\n" + std::string(indent + 2, ' ') + "(else" + block(n.otherwise, indent + 2) + ")";
      return out + ")";
    }
    case StmtKind::While: {
      auto& n = static_cast<const WhileStmt&>(s);
      return "(while " + dump_expr(*n.cond) + block(n.body, indent) + ")";
    }
    case StmtKind::For: {
      auto& n = static_cast<const ForStmt&>(s);
      return "(for " + pattern(n.target) + " " + dump_expr(*n.iter) + block(n.body, indent) + ")";
    }
    case StmtKind::Try: {
      auto& n = static_cast<const TryStmt&>(s);
      std::string out = "(try" + block(n.body, indent);
      std::string pad(indent + 2, ' ');
      for (auto& h : n.handlers) {
        out += "\n" + pad + (h.type ? "(except " + dump_expr(*h.type) + " " : std::string("(catch "));
        out += (h.name.name ? *h.name.name : "_") + block(h.body, indent + 2) + ")";
      }
      if (n.has_else) out += "\n" + pad + "(else" + block(n.else_body, indent + 2) + ")";
      if (!n.finally.empty()) out += "\n" + pad + "(finally" + block(n.finally, indent + 2) + ")";
      return out + ")";
    }
    case StmtKind::Autocast: {
      auto& n = static_cast<const AutocastStmt&>(s);
      return "(autocast " + dump_expr(*n.device) + " (" + args(n.args).substr(n.args.empty() ? 0 : 1) + ")" + block(n.body, indent) + ")";
    }
    case StmtKind::GradMode: {
      auto& n = static_cast<const GradModeStmt&>(s);
      std::string head = n.mode ? "(set_grad_enabled " + dump_expr(*n.mode) : n.enabled ? "(enable_grad" : "(no_grad";
      return head + block(n.body, indent) + ")";
    }
    // (with ITEM ... body): an item is EXPR, or (as EXPR TARGET) when it binds a target
    case StmtKind::With: {
      auto& n = static_cast<const WithStmt&>(s);
      std::string out = "(with";
      for (auto& item : n.items)
        out += item.has_target ? " (as " + dump_expr(*item.manager) + " " + pattern(item.target) + ")"
                               : " " + dump_expr(*item.manager);
      return out + block(n.body, indent) + ")";
    }
    default: return "";
  }
}

std::string stmt_decl(const Stmt& s, int indent) {
  switch (s.kind) {
    case StmtKind::Fn: return fn(static_cast<const FnDecl&>(s), indent);
    case StmtKind::Class: {
      auto& n = static_cast<const ClassDecl&>(s);
      std::string out = "(class " + *n.name + (n.base ? " " + dump_expr(*n.base) : std::string(" _"));
      std::string pad(indent + 2, ' ');
      for (auto& f : n.fields) out += "\n" + pad + stmt(*f, indent + 2);
      for (auto& m : n.methods) out += "\n" + pad + fn(*m, indent + 2);
      return out + ")";
    }
    case StmtKind::Import: {
      auto& n = static_cast<const ImportStmt&>(s);
      if (!n.file.empty()) return "(import " + quote(n.file) + " " + *n.alias.name + ")";
      std::string path;
      for (size_t i = 0; i < n.module_path.size(); ++i) path += (i ? "." : "") + *n.module_path[i];
      if (n.from_names.empty()) return "(import " + path + " " + *n.alias.name + ")";
      std::string names;
      for (auto& [member, target] : n.from_names) names += " (" + *member + " " + *target.name + ")";
      return "(from " + path + names + ")";
    }
    default: return stmt_control(s, indent);
  }
}

std::string stmt(const Stmt& s, int indent) {
  auto opt = [](const ExprPtr& e) { return e ? " " + dump_expr(*e) : std::string(); };
  switch (s.kind) {
    case StmtKind::Expr: return dump_expr(*static_cast<const ExprStmt&>(s).expr);
    case StmtKind::Let: {
      auto& n = static_cast<const LetStmt&>(s);
      return "(let " + pattern(n.target) + opt(n.value) + ")";
    }
    case StmtKind::Assign: {
      auto& n = static_cast<const AssignStmt&>(s);
      std::string targets = dump_expr(*n.target);
      for (auto& t : n.more_targets) targets += " " + dump_expr(*t);
      return "(= " + targets + " " + dump_expr(*n.value) + ")";
    }
    case StmtKind::AugAssign: {
      auto& n = static_cast<const AugAssignStmt&>(s);
      return fmt::format("({}= {} {})", binary_op_symbol(n.op), dump_expr(*n.target), dump_expr(*n.value));
    }
    case StmtKind::Return: return "(return" + opt(static_cast<const ReturnStmt&>(s).value) + ")";
    case StmtKind::Raise: {
      auto& n = static_cast<const RaiseStmt&>(s);
      return "(raise" + opt(n.value) + (n.cause ? " (from " + dump_expr(*n.cause) + ")" : std::string()) + ")";
    }
    case StmtKind::Assert: {
      auto& n = static_cast<const AssertStmt&>(s);
      return "(assert " + dump_expr(*n.cond) + opt(n.message) + ")";
    }
    case StmtKind::Del: {
      std::string out = "(del";
      for (auto& t : static_cast<const DelStmt&>(s).targets) out += " " + dump_expr(*t);
      return out + ")";
    }
    case StmtKind::Scope: {
      auto& n = static_cast<const ScopeStmt&>(s);
      std::string out = n.nonlocal ? "(nonlocal" : "(global";
      for (Atom a : n.names) out += " " + *a;
      return out + ")";
    }
    case StmtKind::Break: return "(break)";
    case StmtKind::Continue: return "(continue)";
    case StmtKind::Pass: return "(pass)";
    default: return stmt_decl(s, indent);
  }
}

std::string expr_compound(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Call: {
      auto& n = static_cast<const CallExpr&>(e);
      return "(call " + dump_expr(*n.callee) + args(n.args) + ")";
    }
    case ExprKind::Index: {
      auto& n = static_cast<const IndexExpr&>(e);
      std::string out = "(index " + dump_expr(*n.object);
      for (auto& s : n.subs) out += " " + subscript(s);
      return out + ")";
    }
    case ExprKind::Compare: {
      auto& n = static_cast<const CompareExpr&>(e);
      std::string out = "(compare " + dump_expr(*n.first);
      for (auto& [op, rhs] : n.rest) out += fmt::format(" {} {}", compare_op_symbol(op), dump_expr(*rhs));
      return out + ")";
    }
    case ExprKind::ListComp: {
      auto& n = static_cast<const ListComp&>(e);
      static const char* const kNames[] = {"(listcomp ", "(genexp ", "(dictcomp ", "(setcomp "};
      std::string out = kNames[int(n.comp)] + (n.key ? dump_expr(*n.key) + " " : std::string()) + dump_expr(*n.elem);
      for (size_t k = 0; k < n.clauses.size(); ++k) {   // the first clause inline, later ones as (for ...)
        auto& c = n.clauses[k];
        out += (k ? " (for " : " ") + pattern(c.target) + " " + dump_expr(*c.iter);
        for (auto& cond : c.conds) out += " " + dump_expr(*cond);
        if (k) out += ")";
      }
      return out + ")";
    }
    case ExprKind::FStr: {
      std::string out = "(fstr";
      for (auto& p : static_cast<const FStr&>(e).parts)
        out += p.expr ? " " + dump_expr(*p.expr) + (p.conversion == 's' ? "!s" : p.repr || p.conversion == 'r' ? "!r" : "") + (p.spec.empty() ? "" : ":" + quote(p.spec))
                      : " " + quote(p.text);
      return out + ")";
    }
    case ExprKind::Dict: {
      std::string out = "(dict";
      for (auto& [k, v] : static_cast<const DictLit&>(e).entries)
        out += k ? " (" + dump_expr(*k) + " " + dump_expr(*v) + ")" : " (** " + dump_expr(*v) + ")";
      return out + ")";
    }
    case ExprKind::Set: return "(set" + list(static_cast<const SetLit&>(e).items) + ")";
    case ExprKind::Starred: return "(* " + dump_expr(*static_cast<const StarredExpr&>(e).operand) + ")";
    case ExprKind::Lambda: return fn(*static_cast<const LambdaExpr&>(e).fn, 0);
    default: return "(?)";
  }
}

}  // namespace

std::string dump_expr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::None: return "none";
    case ExprKind::Bool: return static_cast<const BoolLit&>(e).value ? "true" : "false";
    case ExprKind::Int: return std::to_string(static_cast<const IntLit&>(e).value);
    case ExprKind::Float: return fmt::format("{}", static_cast<const FloatLit&>(e).value);
    case ExprKind::Str: return quote(static_cast<const StrLit&>(e).value);
    case ExprKind::Name: return *static_cast<const NameExpr&>(e).name;
    case ExprKind::Attr: {
      auto& n = static_cast<const AttrExpr&>(e);
      return "(. " + dump_expr(*n.object) + " " + *n.name + ")";
    }
    case ExprKind::List: return "(list" + list(static_cast<const ListLit&>(e).items) + ")";
    case ExprKind::Tuple: return "(tuple" + list(static_cast<const TupleLit&>(e).items) + ")";
    case ExprKind::Unary: {
      auto& n = static_cast<const UnaryExpr&>(e);
      return std::string(n.op == UnaryOp::Neg ? "(neg " : n.op == UnaryOp::Pos ? "(pos " : "(invert ") + dump_expr(*n.operand) + ")";
    }
    case ExprKind::Binary: {
      auto& n = static_cast<const BinaryExpr&>(e);
      return fmt::format("({} {} {})", binary_op_symbol(n.op), dump_expr(*n.lhs), dump_expr(*n.rhs));
    }
    case ExprKind::And:
    case ExprKind::Or: {
      auto& n = static_cast<const LogicalExpr&>(e);
      return fmt::format("({} {} {})", e.kind == ExprKind::And ? "and" : "or", dump_expr(*n.lhs), dump_expr(*n.rhs));
    }
    case ExprKind::Not: return "(not " + dump_expr(*static_cast<const NotExpr&>(e).operand) + ")";
    case ExprKind::Ternary: {
      auto& n = static_cast<const TernaryExpr&>(e);
      return "(if " + dump_expr(*n.cond) + " " + dump_expr(*n.then) + " " + dump_expr(*n.otherwise) + ")";
    }
    case ExprKind::Scale: return "(scale " + dump_expr(*static_cast<const ScaleExpr&>(e).operand) + ")";
    case ExprKind::Super: return "(super " + *static_cast<const SuperExpr&>(e).name + ")";
    default: return expr_compound(e);
  }
}

std::string dump_ast(const Program& prog) {
  std::string out;
  for (auto& s : prog.body) out += stmt(*s, 0) + "\n";
  return out;
}

const char* binary_op_symbol(BinaryOp op) {
  static const char* names[] = {"+", "-", "*", "/", "//", "%", "@", "**", "&", "|", "^", "<<", ">>"};
  return names[static_cast<int>(op)];
}

const char* compare_op_symbol(CompareOp op) {
  static const char* names[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"};
  return names[static_cast<int>(op)];
}

}  // namespace amps::interp
