// Name resolution and static checks (see resolver.hpp). Only functions (and comprehensions)
// open scopes; every declaration in a scope is hoisted to its start, as with Python's locals.
#include "interp/resolver.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "interp/diagnostics.hpp"

namespace amps::interp {

uint32_t BuiltinNames::add(Atom name) {
  auto [it, fresh] = slots_.emplace(name, uint32_t(order_.size()));
  if (fresh) order_.push_back(name);
  return it->second;
}

int64_t BuiltinNames::find(Atom name) const {
  auto it = slots_.find(name);
  return it == slots_.end() ? -1 : int64_t(it->second);
}

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

struct Scope {
  enum class Kind { Module, Function, Comprehension };
  Kind kind;
  Scope* parent;
  std::unordered_map<Atom, uint32_t>* slots;   // the module's persistent map or `own`
  std::vector<Atom>* order;
  std::unordered_map<Atom, uint32_t> own;
  std::vector<Atom> own_order;
  const FnDecl* fn = nullptr;
  int loops = 0;

  uint32_t declare(Atom name) {
    auto [it, fresh] = slots->emplace(name, uint32_t(order->size()));
    if (fresh) order->push_back(name);
    return it->second;
  }
};

class Resolver {
 public:
  Resolver(ModuleScope& module, const BuiltinNames& builtins) : builtins_(builtins) {
    root_.kind = Scope::Kind::Module;
    root_.parent = nullptr;
    root_.slots = &module.slots;
    root_.order = &module.order;
    scope_ = &root_;
  }

  void program(StmtList& body) {
    hoist(body);
    stmts(body);
  }

 private:
  [[noreturn]] void fail(const char* kind, std::string msg, const Span& s) { throw AmpsError(kind, std::move(msg), s); }

  // ---- declarations: every name a scope binds, found before any use is resolved
  void hoist_pattern(Pattern& p) {
    if (p.is_name()) { scope_->declare(p.name); return; }
    for (auto& e : p.elements) hoist_pattern(e);
  }

  void hoist(StmtList& body) {
    for (auto& s : body) hoist_stmt(*s);
  }

  void hoist_stmt(Stmt& s) {
    switch (s.kind) {
      case StmtKind::Let: hoist_pattern(static_cast<LetStmt&>(s).target); break;
      case StmtKind::Fn: scope_->declare(static_cast<FnDecl&>(s).name); break;
      case StmtKind::Class: scope_->declare(static_cast<ClassDecl&>(s).name); break;
      case StmtKind::Import: {
        auto& n = static_cast<ImportStmt&>(s);
        if (n.from_names.empty()) hoist_pattern(n.alias);
        for (auto& [member, target] : n.from_names) hoist_pattern(target);
        break;
      }
      case StmtKind::If: {
        auto& n = static_cast<IfStmt&>(s);
        hoist(n.then);
        hoist(n.otherwise);
        break;
      }
      case StmtKind::While: hoist(static_cast<WhileStmt&>(s).body); break;
      case StmtKind::For: hoist_pattern(static_cast<ForStmt&>(s).target); hoist(static_cast<ForStmt&>(s).body); break;
      case StmtKind::Try: {
        auto& n = static_cast<TryStmt&>(s);
        hoist(n.body);
        for (auto& h : n.handlers) {
          if (h.name.is_name()) hoist_pattern(h.name);
          hoist(h.body);
        }
        hoist(n.else_body);
        hoist(n.finally);
        break;
      }
      case StmtKind::Autocast: hoist(static_cast<AutocastStmt&>(s).body); break;
      case StmtKind::GradMode: hoist(static_cast<GradModeStmt&>(s).body); break;
      case StmtKind::With: {   // `as` targets bind in the enclosing scope, as Python's
        auto& n = static_cast<WithStmt&>(s);
        for (auto& item : n.items)
          if (item.has_target) hoist_pattern(item.target);
        hoist(n.body);
        break;
      }
      default: break;
    }
  }

  // ---- lookups
  VarRef lookup(Atom name) {
    uint16_t depth = 0;
    for (Scope* sc = scope_; sc; sc = sc->parent, ++depth) {
      auto it = sc->slots->find(name);
      if (it != sc->slots->end()) return VarRef{VarRef::Kind::Scope, depth, it->second};
    }
    int64_t b = builtins_.find(name);
    if (b >= 0) return VarRef{VarRef::Kind::Builtin, 0, uint32_t(b)};
    return VarRef{};
  }

  std::string suggestion(Atom name) {
    std::string best;
    size_t best_d = name->size() <= 3 ? 2 : 3;
    auto consider = [&](Atom cand) {
      size_t d = edit_distance(*name, *cand);
      if (d < best_d) best_d = d, best = *cand;
    };
    for (Scope* sc = scope_; sc; sc = sc->parent)
      for (Atom a : *sc->order) consider(a);
    for (Atom a : builtins_.names()) consider(a);
    return best.empty() ? "" : fmt::format("; did you mean '{}'?", best);
  }

  void bind_pattern(Pattern& p) {
    if (!p.is_name()) {
      for (auto& e : p.elements) bind_pattern(e);
      return;
    }
    p.ref = lookup(p.name);
  }

  void name(NameExpr& n) {
    n.ref = lookup(n.name);
    if (n.ref.kind == VarRef::Kind::Unresolved)
      fail("NameError", fmt::format("name '{}' is not defined{}", *n.name, suggestion(n.name)), n.span);
  }

  // The items of a tuple/list target: at most one `*name` (it takes the rest as a list).
  void starred_targets(std::vector<ExprPtr>& items) {
    bool seen = false;
    for (auto& item : items) {
      if (item->kind != ExprKind::Starred) { assign_target(*item); continue; }
      if (seen) fail("SyntaxError", "multiple starred expressions in assignment", item->span);
      seen = true;
      assign_target(*static_cast<StarredExpr&>(*item).operand);
    }
  }

  void assign_target(Expr& e) {
    switch (e.kind) {
      case ExprKind::Name: {
        auto& n = static_cast<NameExpr&>(e);
        n.ref = lookup(n.name);
        if (n.ref.kind == VarRef::Kind::Scope) return;
        if (n.ref.kind == VarRef::Kind::Builtin)
          fail("NameError", fmt::format("cannot assign to built-in '{}'; declare your own with `let {} = ...`", *n.name, *n.name), e.span);
        fail("NameError", fmt::format("cannot assign to '{}' before it is declared; declare it with `let {} = ...`{}",
                                      *n.name, *n.name, suggestion(n.name)), e.span);
      }
      case ExprKind::Attr: expr(*static_cast<AttrExpr&>(e).object); return;
      case ExprKind::Index: expr(e); return;
      case ExprKind::Tuple: starred_targets(static_cast<TupleLit&>(e).items); return;
      case ExprKind::List: starred_targets(static_cast<ListLit&>(e).items); return;
      case ExprKind::Starred: fail("SyntaxError", "starred assignment target must be in a list or tuple", e.span);
      default: fail("SyntaxError", "cannot assign to this expression", e.span);
    }
  }

  // ---- statements
  void stmts(StmtList& body) {
    for (auto& s : body) stmt(*s);
  }

  void loop_body(StmtList& body) {
    ++scope_->loops;
    stmts(body);
    --scope_->loops;
  }

  void stmt(Stmt& s) {
    switch (s.kind) {
      case StmtKind::Expr: expr(*static_cast<ExprStmt&>(s).expr); break;
      case StmtKind::Let: {
        auto& n = static_cast<LetStmt&>(s);
        if (n.value) expr(*n.value);
        bind_pattern(n.target);
        break;
      }
      case StmtKind::Assign: {
        auto& n = static_cast<AssignStmt&>(s);
        expr(*n.value);
        assign_target(*n.target);
        for (auto& t : n.more_targets) assign_target(*t);
        break;
      }
      case StmtKind::AugAssign: {
        auto& n = static_cast<AugAssignStmt&>(s);
        expr(*n.value);
        if (n.target->kind == ExprKind::Tuple || n.target->kind == ExprKind::List)
          fail("SyntaxError", "augmented assignment needs a single target", n.target->span);
        assign_target(*n.target);
        break;
      }
      case StmtKind::Fn: {
        auto& n = static_cast<FnDecl&>(s);
        function(n);
        n.ref = lookup(n.name);
        break;
      }
      case StmtKind::Class: class_decl(static_cast<ClassDecl&>(s)); break;
      default: control(s);
    }
  }

  void control(Stmt& s) {
    switch (s.kind) {
      case StmtKind::If: {
        auto& n = static_cast<IfStmt&>(s);
        expr(*n.cond);
        stmts(n.then);
        stmts(n.otherwise);
        break;
      }
      case StmtKind::While: {
        auto& n = static_cast<WhileStmt&>(s);
        expr(*n.cond);
        loop_body(n.body);
        break;
      }
      case StmtKind::For: {
        auto& n = static_cast<ForStmt&>(s);
        expr(*n.iter);
        bind_pattern(n.target);
        loop_body(n.body);
        break;
      }
      case StmtKind::Try: {
        auto& n = static_cast<TryStmt&>(s);
        stmts(n.body);
        for (auto& h : n.handlers) {
          if (h.type) expr(*h.type);
          if (h.name.is_name()) bind_pattern(h.name);
          stmts(h.body);
        }
        stmts(n.else_body);
        stmts(n.finally);
        break;
      }
      case StmtKind::Autocast: {
        auto& n = static_cast<AutocastStmt&>(s);
        expr(*n.device);
        args(n.args);
        stmts(n.body);
        break;
      }
      case StmtKind::GradMode: {
        auto& n = static_cast<GradModeStmt&>(s);
        if (n.mode) expr(*n.mode);
        stmts(n.body);
        break;
      }
      case StmtKind::With: {
        auto& n = static_cast<WithStmt&>(s);
        for (auto& item : n.items) {
          expr(*item.manager);
          if (item.has_target) bind_pattern(item.target);
        }
        stmts(n.body);
        break;
      }
      default: simple(s);
    }
  }

  void simple(Stmt& s) {
    switch (s.kind) {
      case StmtKind::Import: {
        auto& n = static_cast<ImportStmt&>(s);
        if (n.from_names.empty()) bind_pattern(n.alias);
        for (auto& [member, target] : n.from_names) bind_pattern(target);
        break;
      }
      case StmtKind::Return: {
        if (!scope_->fn) fail("SyntaxError", "'return' outside a function", s.span);
        auto& n = static_cast<ReturnStmt&>(s);
        if (n.value) expr(*n.value);
        break;
      }
      case StmtKind::Scope: scope_stmt(static_cast<ScopeStmt&>(s)); break;
      case StmtKind::Break:
      case StmtKind::Continue:
        if (scope_->loops == 0)
          fail("SyntaxError", fmt::format("'{}' outside a loop", s.kind == StmtKind::Break ? "break" : "continue"), s.span);
        break;
      case StmtKind::Del:
        for (auto& t : static_cast<DelStmt&>(s).targets) expr(*t);   // a deleted name must exist, as a read's
        break;
      case StmtKind::Assert: {
        auto& n = static_cast<AssertStmt&>(s);
        expr(*n.cond);
        if (n.message) expr(*n.message);
        break;
      }
      case StmtKind::Raise: {
        auto& n = static_cast<RaiseStmt&>(s);
        if (n.value) expr(*n.value);
        if (n.cause) expr(*n.cause);
        break;
      }
      default: break;
    }
  }

  // `global x` / `nonlocal x`: amps assigns to the declared outer variable without them, so they check that it
  // exists where Python would look (the module; an enclosing function) and that this function does not declare its
  // own x, which would hide it.
  void scope_stmt(const ScopeStmt& n) {
    const char* kw = n.nonlocal ? "nonlocal" : "global";
    for (size_t i = 0; i < n.names.size(); ++i) {
      Atom name = n.names[i];
      const Span& at = n.spans[i];
      if (scope_->kind == Scope::Kind::Module) {
        if (n.nonlocal) fail("SyntaxError", "nonlocal declaration not allowed at module level", at);
        continue;   // `global x` at the top level changes nothing, as in Python
      }
      if (scope_->slots->count(name))
        fail("SyntaxError", fmt::format("name '{}' is a local of this function (a parameter or `let`) and also "
                                        "declared {}; drop one of them", *name, kw), at);
      Scope* target = nullptr;
      for (Scope* sc = scope_->parent; sc && !target; sc = sc->parent) {
        bool fits = n.nonlocal ? sc->kind == Scope::Kind::Function : sc->kind == Scope::Kind::Module;
        if (fits && sc->slots->count(name)) target = sc;
      }
      if (target) continue;
      if (n.nonlocal) fail("SyntaxError", fmt::format("no binding for nonlocal '{}' found", *name), at);
      fail("NameError", fmt::format("global '{}' names no module-level variable; declare it at the top level with "
                                    "`let {} = ...` before this function", *name, *name), at);
    }
  }

  void class_decl(ClassDecl& n) {
    for (auto& d : n.decorators) expr(*d);
    if (n.base) expr(*n.base);
    for (auto& f : n.fields)
      if (f->value) expr(*f->value);
    std::vector<Atom> members;
    for (auto& f : n.fields) members.push_back(f->target.name);
    for (auto& m : n.methods) members.push_back(m->name);
    const std::vector<Atom>* saved = class_members_;
    class_members_ = &members;
    for (auto& m : n.methods) function(*m);
    class_members_ = saved;
    n.ref = lookup(n.name);
  }

  // `@x.setter` on a method, x a member of the class being declared: Python evaluates it in the class body, so the
  // name is left unresolved here and Interp::eval_method_decorator reads it from the class.
  bool is_member_accessor(const FnDecl& fn, const Expr& d) const {
    if (!fn.is_method || !class_members_ || d.kind != ExprKind::Attr) return false;
    auto& a = static_cast<const AttrExpr&>(d);
    if (a.object->kind != ExprKind::Name) return false;
    Atom name = static_cast<const NameExpr&>(*a.object).name;
    return std::find(class_members_->begin(), class_members_->end(), name) != class_members_->end();
  }

  static bool is_staticmethod(const FnDecl& fn) {
    for (auto& d : fn.decorators)
      if (d->kind == ExprKind::Name && *static_cast<const NameExpr&>(*d).name == "staticmethod") return true;
    return false;
  }

  void params(FnDecl& fn) {
    bool seen_default = false, kw_only = false;   // keyword-only parameters (after * or *rest) need no order
    for (auto& p : fn.params) {
      if (p.default_value) expr(*p.default_value);
      kw_only |= p.kind == Param::Kind::Rest || p.kind == Param::Kind::Star;
      if (p.kind == Param::Kind::Plain && !p.default_value && seen_default && !kw_only)
        fail("SyntaxError", fmt::format("parameter '{}' without a default follows one with a default", *p.name), p.span);
      seen_default |= p.default_value != nullptr;
    }
  }

  // Opens the function's scope: parameters take the first slots, then hoisted locals.
  void function(FnDecl& fn) {
    for (auto& d : fn.decorators)
      if (!is_member_accessor(fn, *d)) expr(*d);
    params(fn);
    if (fn.is_method && !is_staticmethod(fn) && (fn.params.empty() || fn.params[0].kind != Param::Kind::Plain))
      fail("SyntaxError", fmt::format("method '{}' needs `self` as its first parameter", *fn.name), fn.span);
    Scope sc;
    open(sc, Scope::Kind::Function);
    sc.fn = &fn;
    Scope* saved = scope_;
    scope_ = &sc;
    for (auto& p : fn.params) {
      if (sc.slots->count(p.name)) fail("SyntaxError", fmt::format("duplicate parameter '{}'", *p.name), p.span);
      sc.declare(p.name);
    }
    hoist(fn.body);
    stmts(fn.body);
    fn.num_slots = uint32_t(sc.order->size());
    scope_ = saved;
  }

  // Makes `sc` a fresh scope nested in the current one (its maps are its own).
  void open(Scope& sc, Scope::Kind kind) {
    sc.kind = kind;
    sc.parent = scope_;
    sc.slots = &sc.own;
    sc.order = &sc.own_order;
  }

  void list_comp(ListComp& n) {
    expr(*n.clauses[0].iter);   // evaluated in the enclosing scope, like Python
    Scope sc;
    open(sc, Scope::Kind::Comprehension);
    sc.fn = scope_->fn;
    Scope* saved = scope_;
    scope_ = &sc;
    for (size_t k = 0; k < n.clauses.size(); ++k) {   // later iterables see the earlier clauses' variables
      auto& c = n.clauses[k];
      if (k > 0) expr(*c.iter);
      hoist_pattern(c.target);
      bind_pattern(c.target);
      for (auto& cond : c.conds) expr(*cond);
    }
    if (n.key) expr(*n.key);
    expr(*n.elem);
    n.num_slots = uint32_t(sc.order->size());
    scope_ = saved;
  }

  // ---- expressions
  void args(std::vector<Arg>& list) {
    bool seen_kw = false;
    for (auto& a : list) {
      if (a.kind == Arg::Kind::Positional && seen_kw)
        fail("SyntaxError", "positional argument follows keyword argument", a.value->span);
      seen_kw |= a.kind == Arg::Kind::Keyword || a.kind == Arg::Kind::KwSplat;
      expr(*a.value);
    }
  }

  void super_ref(SuperExpr& n) {
    Scope* sc = scope_;
    if (!sc->fn || !sc->fn->is_method || sc->kind != Scope::Kind::Function)
      fail("SyntaxError", "'super' is only valid directly inside a method", n.span);
  }

  void expr(Expr& e) {
    switch (e.kind) {
      case ExprKind::Name: name(static_cast<NameExpr&>(e)); break;
      case ExprKind::Attr: expr(*static_cast<AttrExpr&>(e).object); break;
      case ExprKind::Call: {
        auto& n = static_cast<CallExpr&>(e);
        expr(*n.callee);
        args(n.args);
        break;
      }
      case ExprKind::Index: {
        auto& n = static_cast<IndexExpr&>(e);
        expr(*n.object);
        for (auto& s : n.subs)
          for (ExprPtr* p : {&s.value, &s.lo, &s.hi, &s.step})
            if (*p) expr(**p);
        break;
      }
      case ExprKind::Lambda: function(*static_cast<LambdaExpr&>(e).fn); break;
      case ExprKind::ListComp: list_comp(static_cast<ListComp&>(e)); break;
      case ExprKind::Super: super_ref(static_cast<SuperExpr&>(e)); break;
      default: children(e);
    }
  }

  void children(Expr& e) {
    switch (e.kind) {
      case ExprKind::FStr:
        for (auto& p : static_cast<FStr&>(e).parts)
          if (p.expr) expr(*p.expr);
        break;
      case ExprKind::List: for (auto& i : static_cast<ListLit&>(e).items) expr(*i); break;
      case ExprKind::Tuple: for (auto& i : static_cast<TupleLit&>(e).items) expr(*i); break;
      case ExprKind::Dict:
        for (auto& [k, v] : static_cast<DictLit&>(e).entries) {
          if (k) expr(*k);   // null: a `**mapping` entry
          expr(*v);
        }
        break;
      case ExprKind::Set: for (auto& i : static_cast<SetLit&>(e).items) expr(*i); break;
      case ExprKind::Starred: expr(*static_cast<StarredExpr&>(e).operand); break;
      case ExprKind::Unary: expr(*static_cast<UnaryExpr&>(e).operand); break;
      case ExprKind::Binary: expr(*static_cast<BinaryExpr&>(e).lhs), expr(*static_cast<BinaryExpr&>(e).rhs); break;
      case ExprKind::Compare: {
        auto& n = static_cast<CompareExpr&>(e);
        expr(*n.first);
        for (auto& [op, rhs] : n.rest) expr(*rhs);
        break;
      }
      case ExprKind::And:
      case ExprKind::Or: expr(*static_cast<LogicalExpr&>(e).lhs), expr(*static_cast<LogicalExpr&>(e).rhs); break;
      case ExprKind::Not: expr(*static_cast<NotExpr&>(e).operand); break;
      case ExprKind::Ternary: {
        auto& n = static_cast<TernaryExpr&>(e);
        expr(*n.cond), expr(*n.then), expr(*n.otherwise);
        break;
      }
      case ExprKind::Scale: expr(*static_cast<ScaleExpr&>(e).operand); break;
      default: break;   // literals
    }
  }

  const BuiltinNames& builtins_;
  Scope root_;
  Scope* scope_;
  const std::vector<Atom>* class_members_ = nullptr;   // the names of the class whose methods are being resolved
};

}  // namespace

void resolve(Program& prog, ModuleScope& module, const BuiltinNames& builtins) {
  Resolver(module, builtins).program(prog.body);
}

}  // namespace amps::interp
