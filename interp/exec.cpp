// Statement execution: one case per AST statement node; control flow is returned as Flow.
#include <fmt/format.h>

#include "interp/exceptions.hpp"
#include "interp/interp.hpp"
#include "interp/operators.hpp"
#include "runtime/error.hpp"

namespace amps::interp {

Flow Interp::exec_block(const StmtList& body) {
  for (auto& s : body) {
    Flow f = exec(*s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

// Errors raised without a position (e.g. by a native value's truth test) get the statement's.
Flow Interp::exec(const Stmt& s) {
  try {
    return exec_stmt(s);
  } catch (AmpsError& e) {
    if (!e.has_span()) e.set_span(s.span);
    throw;
  } catch (const rt::Error& e) {
    throw AmpsError(e.kind(), e.message(), s.span);
  }
}

Flow Interp::exec_stmt(const Stmt& s) {
  ts_->last_stmt = &s;
  switch (s.kind) {
    // ExprStmt: evaluate for effect
    case StmtKind::Expr: eval(*static_cast<const ExprStmt&>(s).expr); return Flow::Normal;
    case StmtKind::Let: exec_let(static_cast<const LetStmt&>(s)); return Flow::Normal;
    // AssignStmt: target = value
    case StmtKind::Assign: {
      auto& n = static_cast<const AssignStmt&>(s);
      if (n.more_targets.empty()) {
        exec_assign(*n.target, eval(*n.value));
        return Flow::Normal;
      }
      const Value v = eval(*n.value);   // `a = b = v`: one value, assigned left to right
      exec_assign(*n.target, v);
      for (auto& t : n.more_targets) exec_assign(*t, v);
      return Flow::Normal;
    }
    case StmtKind::AugAssign: exec_aug_assign(static_cast<const AugAssignStmt&>(s)); return Flow::Normal;
    // FnDecl: bind a closure (decorators applied bottom-up)
    case StmtKind::Fn: {
      auto& n = static_cast<const FnDecl&>(s);
      slot(n.ref) = make_function(n);
      return Flow::Normal;
    }
    case StmtKind::Class: {
      auto& n = static_cast<const ClassDecl&>(s);
      slot(n.ref) = make_class(n);
      return Flow::Normal;
    }
    default: return exec_control(s);
  }
}

Flow Interp::exec_control(const Stmt& s) {
  switch (s.kind) {
    // IfStmt: if / else if / else
    case StmtKind::If: {
      auto& n = static_cast<const IfStmt&>(s);
      return exec_block(truthy(eval(*n.cond)) ? n.then : n.otherwise);
    }
    // WhileStmt: checks for interrupts every iteration
    case StmtKind::While: {
      auto& n = static_cast<const WhileStmt&>(s);
      while (truthy(eval(*n.cond))) {
        check_interrupt(n.span);
        Flow f = exec_block(n.body);
        if (f == Flow::Break) break;
        if (f == Flow::Return) return f;
      }
      return Flow::Normal;
    }
    case StmtKind::For: return exec_for(static_cast<const ForStmt&>(s));
    case StmtKind::Try: return exec_try(static_cast<const TryStmt&>(s));
    case StmtKind::Autocast: return exec_autocast(static_cast<const AutocastStmt&>(s));
    case StmtKind::GradMode: return exec_grad_mode(static_cast<const GradModeStmt&>(s));
    case StmtKind::With: return exec_with(static_cast<const WithStmt&>(s), 0);
    default: return exec_simple(s);
  }
}

Flow Interp::exec_simple(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Import: exec_import(static_cast<const ImportStmt&>(s)); return Flow::Normal;
    // ReturnStmt: the value goes to the running frame
    case StmtKind::Return: {
      auto& n = static_cast<const ReturnStmt&>(s);
      ts_->frames.back().ret = n.value ? eval(*n.value) : Value();
      return Flow::Return;
    }
    case StmtKind::Break: return Flow::Break;
    case StmtKind::Continue: return Flow::Continue;
    case StmtKind::Pass:
    case StmtKind::Scope: return Flow::Normal;   // global/nonlocal: checked by the resolver
    // AssertStmt: AssertionError with the message (or the condition's source)
    case StmtKind::Del:
      for (auto& t : static_cast<const DelStmt&>(s).targets) exec_del(*t);
      return Flow::Normal;
    case StmtKind::Assert: {
      auto& n = static_cast<const AssertStmt&>(s);
      if (truthy(eval(*n.cond))) return Flow::Normal;
      std::string msg = n.message ? str(eval(*n.message)) : "assertion failed";
      fail("AssertionError", msg, n.cond->span);
    }
    // RaiseStmt: raise an exception instance or class (optionally `from` a cause), or a RuntimeError from a string
    case StmtKind::Raise: {
      auto& n = static_cast<const RaiseStmt&>(s);
      if (!n.value) {   // bare `raise` re-raises the error being handled, like Python
        if (ts_->handling.empty()) fail("RuntimeError", "bare raise outside a catch block: there is no error to re-raise", s.span);
        throw ts_->handling.back();
      }
      Value v = eval(*n.value);
      throw raise_error(*this, v, n.cause ? eval(*n.cause) : Value::undef(), n.value->span);
    }
    default: fail("RuntimeError", "internal: unknown statement kind", s.span);
  }
}

// LetStmt: let pattern = value
void Interp::exec_let(const LetStmt& s) {
  Value v = s.value ? eval(*s.value) : Value();
  bind(s.target, std::move(v));
}

// Python's message for unpacking [got] values into [expected] targets.
static std::string unpack_count_message(size_t got, size_t expected) {
  if (got > expected) return fmt::format("too many values to unpack (expected {})", expected);
  return fmt::format("not enough values to unpack (expected {}, got {})", expected, got);
}

// Binds a value to a pattern; tuple patterns destructure any iterable of the right length.
void Interp::bind(const Pattern& p, Value v) {
  if (p.is_name()) {
    slot(p.ref) = std::move(v);
    return;
  }
  std::vector<Value> items;
  iterate(v, p.span, [&](Value x) { items.push_back(std::move(x)); return true; });
  for (auto& e : p.elements)
    if (e.starred) return bind_starred(p, std::move(items));
  if (items.size() != p.elements.size()) fail("ValueError", unpack_count_message(items.size(), p.elements.size()), p.span);
  for (size_t i = 0; i < items.size(); ++i) bind(p.elements[i], std::move(items[i]));
}

static int64_t normalize_index(int64_t i, size_t n, const Span& where, const char* what) {
  int64_t j = i < 0 ? i + int64_t(n) : i;
  if (j < 0 || j >= int64_t(n)) Interp::fail("IndexError", fmt::format("{} index {} is out of range for length {}", what, i, n), where);
  return j;
}

// Assignment to a name, attribute, subscript, or a tuple/list of those.
void Interp::exec_assign(const Expr& target, Value v) {
  switch (target.kind) {
    case ExprKind::Name: slot(static_cast<const NameExpr&>(target).ref) = std::move(v); return;
    case ExprKind::Attr: {
      auto& n = static_cast<const AttrExpr&>(target);
      set_attr(eval(*n.object), n.name, std::move(v), target.span);
      return;
    }
    case ExprKind::Index: {
      auto& n = static_cast<const IndexExpr&>(target);
      Value obj = eval(*n.object);
      if (n.subs.size() != 1 && !obj.is(ObjKind::Tensor) && !obj.is(ObjKind::Instance))
        fail("TypeError", "multi-dimensional assignment needs a tensor", target.span);
      set_item(obj, n.subs, std::move(v), target.span);
      return;
    }
    default: {
      const auto& items = target.kind == ExprKind::Tuple ? static_cast<const TupleLit&>(target).items
                                                         : static_cast<const ListLit&>(target).items;
      for (auto& item : items)
        if (item->kind == ExprKind::Starred) return assign_starred(items, std::move(v), target.span);
      std::vector<Value> vals;
      iterate(v, target.span, [&](Value x) { vals.push_back(std::move(x)); return true; });
      if (vals.size() != items.size())
        fail("ValueError", unpack_count_message(vals.size(), items.size()), target.span);
      for (size_t i = 0; i < vals.size(); ++i) exec_assign(*items[i], std::move(vals[i]));
    }
  }
}

// obj[subs] = v for lists, dicts, tensors and instances with __setitem__.
void Interp::set_item(const Value& obj, const std::vector<Subscript>& subs, Value v, const Span& where) {
  if (obj.is(ObjKind::List) && subs[0].kind == Subscript::Kind::Expr) {
    Value idx = eval(*subs[0].value);
    if (!idx.is_int()) fail("TypeError", "list indices must be integers, not " + type_name(idx), where);
    auto& items = obj.as<List>()->items;
    items[normalize_index(idx.as_int(), items.size(), where, "list assignment")] = std::move(v);
    return;
  }
  if (obj.is(ObjKind::Dict)) {
    Value key = eval(*subs[0].value);
    try { check_hashable(key); } catch (AmpsError& e) { e.set_span(subs[0].value->span); throw; }
    obj.as<Dict>()->set(key, std::move(v));
    return;
  }
  std::vector<Value> keys;
  for (auto& s : subs) keys.push_back(subscript_value(s));
  Value key = keys.size() == 1 ? keys[0] : make_tuple(std::move(keys));
  Value m = find_attr(obj, intern("__setitem__"));
  if (m.is_undef()) fail("TypeError", fmt::format("'{}' object does not support item assignment", type_name(obj)), where);
  call(m, {key, std::move(v)});
}

// AugAssignStmt: target op= value, as Python's `target = target.__iop__(value)` (augmented_op: tensors and lists
// change in place); the target expression's parts are evaluated once.
void Interp::exec_aug_assign(const AugAssignStmt& s) {
  Value rhs = eval(*s.value);
  switch (s.target->kind) {
    case ExprKind::Name: {
      auto& n = static_cast<const NameExpr&>(*s.target);
      Value& cell = slot(n.ref);
      if (cell.is_undef()) fail("NameError", fmt::format("name '{}' is used before it is assigned", *n.name), n.span);
      cell = augmented_op(*this, s.op, cell, rhs, s.span);
      return;
    }
    case ExprKind::Attr: {
      auto& n = static_cast<const AttrExpr&>(*s.target);
      Value obj = eval(*n.object);
      set_attr(obj, n.name, augmented_op(*this, s.op, get_attr(obj, n.name, n.span), rhs, s.span), n.span);
      return;
    }
    default: {
      auto& n = static_cast<const IndexExpr&>(*s.target);
      Value obj = eval(*n.object);
      Value cur = index_value(obj, n.subs, n.span);
      set_item(obj, n.subs, augmented_op(*this, s.op, cur, rhs, s.span), n.span);
    }
  }
}

// AutocastStmt: autocast DEVICE<dtype, enabled=, cache=> { body }; the AMP layer's hook
// validates the arguments and returns a guard that restores the previous state on exit.
Flow Interp::exec_autocast(const AutocastStmt& s) {
  Value device = eval(*s.device);
  CallArgs args;
  args.span = s.span;
  for (auto& a : s.args) {
    if (a.kind == Arg::Kind::Keyword) args.kw.emplace_back(a.name, eval(*a.value));
    else args.pos.push_back(eval(*a.value));
  }
  std::shared_ptr<void> guard;
  if (hooks.autocast_enter) guard = hooks.autocast_enter(*this, device, args);
  return exec_block(s.body);
}

// GradModeStmt: no_grad / enable_grad / set_grad_enabled(mode) { body } records gradients inside as the
// statement says and restores the previous mode after.
Flow Interp::exec_grad_mode(const GradModeStmt& s) {
  const bool enabled = s.mode ? truthy(eval(*s.mode)) : s.enabled;
  std::shared_ptr<void> guard;
  if (hooks.grad_mode_enter) guard = hooks.grad_mode_enter(*this, enabled);
  return exec_block(s.body);
}

// ForStmt: for pattern in iterable { body }
Flow Interp::exec_for(const ForStmt& s) {
  Value iterable = eval(*s.iter);
  Flow result = Flow::Normal;
  iterate(iterable, s.iter->span, [&](Value item) {
    check_interrupt(s.span);
    bind(s.target, std::move(item));
    Flow f = exec_block(s.body);
    if (f == Flow::Break) return false;
    if (f == Flow::Return) { result = f; return false; }
    return true;
  });
  return result;
}

}  // namespace amps::interp
