// The with statement (PEP 343): `with EXPR (as TARGET)?, ... { body }` calls the manager's __enter__ and, however
// the body ends, its __exit__; any object whose attributes include both methods is a manager (script classes,
// no_grad(), autocast(...), file objects).
#include <fmt/format.h>

#include "interp/exceptions.hpp"
#include "interp/interp.hpp"

namespace amps::interp {
namespace {

Value call_at(Interp& in, const Value& fn, std::vector<Value> pos, const Span& where) {
  CallArgs args{std::move(pos), {}, where};
  return in.call(fn, args);
}

// The manager's bound __enter__ and __exit__, or Python's TypeError when it lacks one. Classes and modules are
// not managers themselves (Python looks the methods up on the object's type).
std::pair<Value, Value> manager_methods(Interp& in, const Value& m, const Span& where) {
  const bool plain = m.is(ObjKind::Class) || m.is(ObjKind::Module);
  Value enter = plain ? Value::undef() : in.find_attr(m, intern("__enter__"));
  Value exit = plain ? Value::undef() : in.find_attr(m, intern("__exit__"));
  if (enter.is_undef() || exit.is_undef())
    Interp::fail("TypeError", fmt::format("'{}' object does not support the context manager protocol{}", type_name(m),
                                          enter.is_undef() ? "" : " (missed __exit__ method)"), where);
  return {enter, exit};
}

}  // namespace

// __exit__(type, value, none) for an error leaving a with body: the exception's class and instance; while it runs, a
// bare `raise` re-raises that error.
Value Interp::exit_with_error(const Value& exit, AmpsError& err, const Span& where) {
  Value value = exception_value(*this, err);
  ts_->handling.push_back(err);
  Value result;
  try {
    result = call_at(*this, exit, {Value(value.as<Instance>()->cls), value, Value()}, where);
  } catch (...) {
    ts_->handling.pop_back();
    throw;
  }
  ts_->handling.pop_back();
  return result;
}

// WithStmt from item [i] on: enters item i, runs the items after it and the body inside it, then exits it:
// __exit__(none, none, none) after a normal end, `return`, `break` or `continue`; __exit__(type, value, none) after
// an error, which a truthy result swallows (the statement then ends normally). An error raised by __exit__ itself
// replaces the one it was told about.
Flow Interp::exec_with(const WithStmt& s, size_t i) {
  if (i == s.items.size()) return exec_block(s.body);
  const WithItem& item = s.items[i];
  const Span& where = item.manager->span;
  Value manager = eval(*item.manager);
  auto [enter, exit] = manager_methods(*this, manager, where);
  Value entered = call_at(*this, enter, {}, where);
  const size_t depth = ts_->depth, frames = ts_->frames.size();
  Flow f = Flow::Normal;
  try {
    if (item.has_target) bind(item.target, std::move(entered));
    f = exec_with(s, i + 1);
  } catch (AmpsError& err) {
    ts_->depth = depth;
    ts_->frames.erase(ts_->frames.begin() + frames, ts_->frames.end());
    if (truthy(exit_with_error(exit, err, where))) return Flow::Normal;
    throw;
  }
  call_at(*this, exit, {Value(), Value(), Value()}, where);
  return f;
}

}  // namespace amps::interp
