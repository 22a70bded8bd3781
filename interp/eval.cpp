// Expression evaluation: one case per AST expression node.
#include <fmt/format.h>

#include "interp/interp.hpp"
#include "interp/descriptors.hpp"
#include "interp/operators.hpp"

namespace amps::interp {

Value& Interp::slot(const VarRef& ref) {
  if (ref.kind == VarRef::Kind::Builtin) return builtins_[ref.slot];
  Env* env = ts_->frames.back().env;
  for (uint16_t d = ref.depth; d > 0; --d) env = env->parent.get();
  return env->slots[ref.slot];
}

Value Interp::load(const VarRef& ref, Atom name, const Span& where) {
  Value& v = slot(ref);
  if (v.is_undef()) fail("NameError", fmt::format("name '{}' is used before it is assigned", *name), where);
  return v;
}

// Operands whose operators run no script code (numbers and tensors).
static bool plain_operand(const Value& v) { return v.is_number() || v.is(ObjKind::Tensor); }

// A variable operand read in place: tensors and numbers only, whose operators copy what they keep
// (push_operand) before anything runs that could reassign the variable. Saves a reference-count
// increment and decrement (locked instructions) per operand of every tensor expression.
const Value* Interp::borrow_operand(const Expr& e) {
  if (e.kind != ExprKind::Name) return nullptr;
  const Value& v = slot(static_cast<const NameExpr&>(e).ref);
  return plain_operand(v) ? &v : nullptr;
}

// True when evaluating [e] runs no code: a variable or a literal number.
bool Interp::reads_only(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name: case ExprKind::None: case ExprKind::Bool: case ExprKind::Int: case ExprKind::Float:
      return true;
    default: return false;
  }
}

Value Interp::eval(const Expr& e) {
  switch (e.kind) {
    case ExprKind::None: return Value();
    case ExprKind::Bool: return Value(static_cast<const BoolLit&>(e).value);
    case ExprKind::Int: return Value(static_cast<const IntLit&>(e).value);
    case ExprKind::Float: return Value(static_cast<const FloatLit&>(e).value);
    case ExprKind::Str: return make_str(static_cast<const StrLit&>(e).value);
    // NameExpr: a resolved variable or builtin
    case ExprKind::Name: {
      auto& n = static_cast<const NameExpr&>(e);
      return load(n.ref, n.name, e.span);
    }
    // AttrExpr: obj.name
    case ExprKind::Attr: {
      auto& n = static_cast<const AttrExpr&>(e);
      return get_attr(eval(*n.object), n.name, e.span);
    }
    case ExprKind::Call: return eval_call(static_cast<const CallExpr&>(e));
    // BinaryExpr: arithmetic and matmul, through operators.cpp
    case ExprKind::Binary: {
      auto& n = static_cast<const BinaryExpr&>(e);
      Value lhold, rhold;
      const Value* l = borrow_operand(*n.lhs);
      if (!l || !reads_only(*n.rhs)) l = &(lhold = eval(*n.lhs));  // rhs may reassign lhs's variable
      const Value* r = borrow_operand(*n.rhs);
      if (!r) r = &(rhold = eval(*n.rhs));
      if (!plain_operand(*l) || !plain_operand(*r)) {  // a script operator may run: own both operands
        if (l != &lhold) l = &(lhold = *l);
        if (r != &rhold) r = &(rhold = *r);
      }
      return binary_op(*this, n.op, *l, *r, e.span);
    }
    // UnaryExpr: -x, +x
    case ExprKind::Unary: {
      auto& n = static_cast<const UnaryExpr&>(e);
      return unary_op(*this, n.op, eval(*n.operand), e.span);
    }
    default: return eval_compound(e);
  }
}

Value Interp::eval_compound(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Index: return eval_index(static_cast<const IndexExpr&>(e));
    case ExprKind::Compare: return eval_compare(static_cast<const CompareExpr&>(e));
    // LogicalExpr: `and`/`or` yield an operand, short-circuit
    case ExprKind::And: {
      auto& n = static_cast<const LogicalExpr&>(e);
      Value l = eval(*n.lhs);
      return truthy(l) ? eval(*n.rhs) : l;
    }
    case ExprKind::Or: {
      auto& n = static_cast<const LogicalExpr&>(e);
      Value l = eval(*n.lhs);
      return truthy(l) ? l : eval(*n.rhs);
    }
    case ExprKind::Not: return Value(!truthy(eval(*static_cast<const NotExpr&>(e).operand)));
    // TernaryExpr: then if cond else otherwise
    case ExprKind::Ternary: {
      auto& n = static_cast<const TernaryExpr&>(e);
      return truthy(eval(*n.cond)) ? eval(*n.then) : eval(*n.otherwise);
    }
    case ExprKind::FStr: return eval_fstring(static_cast<const FStr&>(e));
    case ExprKind::Lambda: return make_function(*static_cast<const LambdaExpr&>(e).fn);
    case ExprKind::Super: return eval_super(static_cast<const SuperExpr&>(e));
    case ExprKind::Scale: return eval_scale(static_cast<const ScaleExpr&>(e));
    default: return eval_collection(e);
  }
}

Value Interp::eval_collection(const Expr& e) {
  switch (e.kind) {
    // ListLit / TupleLit: [a, b] / (a, b)
    case ExprKind::List:
    case ExprKind::Tuple: {
      auto& items = e.kind == ExprKind::List ? static_cast<const ListLit&>(e).items : static_cast<const TupleLit&>(e).items;
      std::vector<Value> vals;
      eval_starred_display(items, e.span, vals);
      return e.kind == ExprKind::List ? make_list(std::move(vals)) : make_tuple(std::move(vals));
    }
    // DictLit: {k: v, ...}
    case ExprKind::Dict: {
      auto d = make<Dict>();
      for (auto& [k, v] : static_cast<const DictLit&>(e).entries) {
        if (!k) {   // {**mapping}: its entries, in order, later keys winning
          Value m = eval(*v);
          if (!m.is(ObjKind::Dict)) fail("TypeError", fmt::format("'{}' object is not a mapping", type_name(m)), v->span);
          for (auto& [mk, mv] : m.as<Dict>()->entries) d->set(mk, mv);
          continue;
        }
        Value key = eval(*k);
        try {
          check_hashable(key);
        } catch (AmpsError& err) {
          err.set_span(k->span);
          throw;
        }
        d->set(key, eval(*v));
      }
      return d;
    }
    case ExprKind::ListComp: return eval_list_comp(static_cast<const ListComp&>(e));
    case ExprKind::Set: return eval_set(static_cast<const SetLit&>(e));
    case ExprKind::Starred: fail("SyntaxError", "can't use starred expression here", e.span);
    default: fail("RuntimeError", "internal: unknown expression kind", e.span);
  }
}

// CompareExpr: a < b <= c evaluates each operand once and stops at the first false link.
Value Interp::eval_compare(const CompareExpr& e) {
  Value lhs = eval(*e.first);
  Value result;
  for (auto& [op, rhs_expr] : e.rest) {
    Value rhs = eval(*rhs_expr);
    result = compare_op(*this, op, lhs, rhs, e.span);
    if (e.rest.size() > 1 && !truthy(result)) return result;
    lhs = std::move(rhs);
  }
  return result;
}

// SuperExpr: super.name, looked up from the base of the running method's class.
Value Interp::eval_super(const SuperExpr& e) {
  const Function* fn = ts_->frames.back().fn;
  Class* owner = fn ? fn->owner : nullptr;
  if (owner && !owner->base && *e.name == "init")  // a class without a base derives from Python's object
    return make<Native>("init", [](Interp&, CallArgs& a) {
      if (!a.pos.empty() || !a.kw.empty())
        Interp::fail("TypeError", "object.__init__() takes exactly one argument (the instance to initialize)", a.span);
      return Value();
    });
  if (!owner || !owner->base) fail("TypeError", "super: the class of this method has no base class", e.span);
  Value self = ts_->frames.back().env->slots[0];
  const Value* found = owner->base->lookup(e.name);
  if (!found) {
    if (*e.name == "init") return make<Native>("init", [](Interp&, CallArgs&) { return Value(); });
    fail("AttributeError", fmt::format("base class '{}' has no attribute '{}'", *owner->base->name, *e.name), e.span);
  }
  if (found->is(ObjKind::Function) || found->is(ObjKind::Native)) return make<BoundMethod>(self, *found);
  if (Descriptor* d = as_descriptor(*found)) {   // super.prop reads the base's property of this instance
    Class* cls = self.is(ObjKind::Instance) ? self.as<Instance>()->cls.get() : self.is(ObjKind::Class) ? self.as<Class>() : owner;
    return descriptor_get(*this, *d, self.is(ObjKind::Class) ? Value() : self, cls, e.span);
  }
  return *found;
}

// ScaleExpr: scale(x) means the active GradScaler's scale(x).
Value Interp::eval_scale(const ScaleExpr& e) {
  Value x = eval(*e.operand);
  Value scaler = active_scaler;
  if (scaler.is_none())
    fail("RuntimeError",
         "scale(): no GradScaler is active; create one first with `let scaler = GradScaler()` "
         "(or call loss.backward() without scaling)",
         e.span);
  Value method = get_attr(scaler, intern("scale"), e.span);
  return call(method, std::vector<Value>{x});
}

}  // namespace amps::interp
