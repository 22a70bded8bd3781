// Displays and comprehensions at run time: starred items spliced into tuples/lists/sets, `**` entries merged into
// dicts, set displays (through the `set` builtin), list/dict/set comprehensions and lazy generator expressions.
#include <fmt/format.h>

#include "interp/builtins.hpp"
#include "interp/interp.hpp"

namespace amps::interp {

// The values of display items, each `*e` spliced in (any iterable, Python's order).
void Interp::eval_starred_display(const std::vector<ExprPtr>& items, const Span&, std::vector<Value>& out) {
  out.reserve(items.size());
  for (auto& i : items) {
    if (i->kind != ExprKind::Starred) { out.push_back(eval(*i)); continue; }
    const Expr& operand = *static_cast<const StarredExpr&>(*i).operand;
    Value v = eval(operand);
    iterate(v, operand.span, [&](Value x) { out.push_back(std::move(x)); return true; });
  }
}

// {a, *b}: a list of the items handed to the `set` builtin (stdlib/py_set.amps), so the result is that class.
Value Interp::eval_set(const SetLit& e) {
  std::vector<Value> vals;
  eval_starred_display(e.items, e.span, vals);
  Value set_cls = lookup_builtin("set");
  if (set_cls.is_undef()) fail("NameError", "a set display needs the `set` builtin", e.span);
  CallArgs args;
  args.pos.push_back(make_list(std::move(vals)));
  args.span = e.span;
  return call(set_cls, args);
}

namespace {

// A generator expression: its scope and a stack of iterators, one per `for` clause entered (the first over the
// iterable evaluated at creation, as Python's), stepped one item per next() (Python 3's lazy generator;
// exhausted for good once the first is).
struct GenIter : Iterator {
  std::string type_name() const override { return "generator"; }
  bool next(Interp& in, Value& out) override {
    if (sources.empty()) return false;
    if (running) Interp::fail("ValueError", "generator already executing", expr->span);
    running = true;
    struct Reset { bool& flag; ~Reset() { flag = false; } } reset{running};
    return in.generator_step(*expr, env.get(), fn, sources, out);
  }
  const ListComp* expr = nullptr;
  Ref<Env> env;
  const Function* fn = nullptr;
  std::vector<Value> sources;
  bool running = false;   // a next() from inside its own element or condition is Python's ValueError
};

}  // namespace

bool Interp::comp_conds_pass(const CompClause& c) {
  for (auto& cond : c.conds)
    if (!truthy(eval(*cond))) return false;
  return true;
}

bool Interp::generator_step(const ListComp& e, Env* env, const Function* fn, std::vector<Value>& sources, Value& out) {
  ts_->frames.push_back(Frame{env, fn, Value()});
  try {
    while (!sources.empty()) {
      size_t k = sources.size() - 1;
      const CompClause& c = e.clauses[k];
      Value item;
      if (!pull(*this, sources[k], item, c.iter->span)) {
        sources.pop_back();
        continue;
      }
      bind(c.target, std::move(item));
      if (!comp_conds_pass(c)) continue;
      if (k + 1 < e.clauses.size()) {
        const Expr& inner = *e.clauses[k + 1].iter;
        sources.push_back(make_iter(*this, eval(inner), inner.span));
        continue;
      }
      out = eval(*e.elem);
      ts_->frames.pop_back();
      return true;
    }
  } catch (...) {
    ts_->frames.pop_back();
    throw;
  }
  ts_->frames.pop_back();
  return false;
}

// Runs clause k over [iterable] (later clauses nested inside it), calling emit for each item that passes.
void Interp::comp_loop(const ListComp& e, size_t k, const Value& iterable, const std::function<void()>& emit) {
  const CompClause& c = e.clauses[k];
  iterate(iterable, c.iter->span, [&](Value item) {
    bind(c.target, std::move(item));
    if (!comp_conds_pass(c)) return true;
    if (k + 1 < e.clauses.size()) comp_loop(e, k + 1, eval(*e.clauses[k + 1].iter), emit);
    else emit();
    return true;
  });
}

// A comprehension runs in its own scope (a child Env of the current one); its first iterable is evaluated in the
// enclosing scope. [e ...] builds a list, {k: v ...} a dict, {e ...} a set, (e ...) a lazy generator.
Value Interp::eval_list_comp(const ListComp& e) {
  const Expr& first = *e.clauses[0].iter;
  Value iterable = eval(first);
  auto env = make<Env>(Ref<Env>(ts_->frames.back().env), e.num_slots);
  if (e.comp == CompKind::Gen) {
    auto g = make<GenIter>();
    g->expr = &e;
    g->env = env;
    g->fn = ts_->frames.back().fn;
    g->sources.push_back(make_iter(*this, iterable, first.span));
    return g;
  }
  ts_->frames.push_back(Frame{env.get(), ts_->frames.back().fn, Value()});
  auto out = make<List>();
  auto dict = e.comp == CompKind::Dict ? make<Dict>() : Ref<Dict>();
  try {
    comp_loop(e, 0, iterable, [&] {
      if (!dict) { out->items.push_back(eval(*e.elem)); return; }
      Value key = eval(*e.key);   // Python 3.8+: the key first, then the value
      try { check_hashable(key); } catch (AmpsError& err) { err.set_span(e.key->span); throw; }
      dict->set(key, eval(*e.elem));
    });
  } catch (...) {
    ts_->frames.pop_back();
    throw;
  }
  ts_->frames.pop_back();
  if (dict) return dict;
  if (e.comp != CompKind::Set) return out;
  CallArgs args;
  args.pos.push_back(out);
  args.span = e.span;
  return call(lookup_builtin("set"), args);
}

// (a, *rest, z) = v: the items before and after the starred target bind one each; the starred one takes the
// middle as a list. Python's error when there are too few items.
static std::vector<Value> split_starred(std::vector<Value> vals, size_t n_targets, size_t star, const Span& where) {
  if (vals.size() < n_targets - 1)
    Interp::fail("ValueError", fmt::format("not enough values to unpack (expected at least {}, got {})", n_targets - 1,
                                           vals.size()), where);
  size_t after = n_targets - 1 - star;
  std::vector<Value> out(std::make_move_iterator(vals.begin()), std::make_move_iterator(vals.begin() + star));
  std::vector<Value> mid(std::make_move_iterator(vals.begin() + star), std::make_move_iterator(vals.end() - after));
  out.push_back(make_list(std::move(mid)));
  for (size_t i = vals.size() - after; i < vals.size(); ++i) out.push_back(std::move(vals[i]));
  return out;
}

void Interp::assign_starred(const std::vector<ExprPtr>& targets, Value v, const Span& where) {
  std::vector<Value> vals;
  iterate(v, where, [&](Value x) { vals.push_back(std::move(x)); return true; });
  size_t star = 0;
  while (targets[star]->kind != ExprKind::Starred) ++star;
  vals = split_starred(std::move(vals), targets.size(), star, where);
  for (size_t i = 0; i < targets.size(); ++i) {
    const Expr& t = i == star ? *static_cast<const StarredExpr&>(*targets[i]).operand : *targets[i];
    exec_assign(t, std::move(vals[i]));
  }
}

void Interp::bind_starred(const Pattern& p, std::vector<Value> items) {
  size_t star = 0;
  while (!p.elements[star].starred) ++star;
  items = split_starred(std::move(items), p.elements.size(), star, p.span);
  for (size_t i = 0; i < items.size(); ++i) bind(p.elements[i], std::move(items[i]));
}

}  // namespace amps::interp
