// The try statement: `catch`/`except` handlers tried in order, `else`, `finally` (docs/language.md §7.6).
#include "interp/exceptions.hpp"
#include "interp/interp.hpp"

namespace amps::interp {

// TryStmt: TRY body handlers (ELSE else_body)? (FINALLY finally)?. `finally` runs however the rest ends; an error
// that no handler matches, or that a handler or `else` raises, propagates after it.
Flow Interp::exec_try(const TryStmt& s) {
  const size_t depth = ts_->depth, frames = ts_->frames.size();
  Flow f = Flow::Normal;
  try {
    f = exec_try_body(s, depth, frames);
  } catch (AmpsError&) {
    ts_->depth = depth;
    ts_->frames.erase(ts_->frames.begin() + frames, ts_->frames.end());
    exec_block(s.finally);
    throw;
  }
  Flow g = exec_block(s.finally);
  return g != Flow::Normal ? g : f;
}

// The body and the handler an error in it selects (errors of the handler itself are not handled here); `else`
// after a body that ran to its end.
Flow Interp::exec_try_body(const TryStmt& s, size_t depth, size_t frames) {
  Flow f = Flow::Normal;
  try {
    f = exec_block(s.body);
  } catch (AmpsError& err) {
    ts_->depth = depth;
    ts_->frames.erase(ts_->frames.begin() + frames, ts_->frames.end());
    const TryHandler* h = matching_handler(s, err);
    if (!h) throw;
    return run_handler(*h, err);
  }
  return f == Flow::Normal && s.has_else ? exec_block(s.else_body) : f;
}

// The first handler that catches [err]: a catch-all, or an `except T` whose T (evaluated now, as Python does)
// is a class of the error or a base of it; null when none does.
const TryHandler* Interp::matching_handler(const TryStmt& s, const AmpsError& err) {
  for (const TryHandler& h : s.handlers)
    if (!h.type || error_matches(*this, err, eval(*h.type), h.type->span)) return &h;
  return nullptr;
}

// Runs handler [h] for [err]: binds the exception instance when the handler names one; while it runs, a bare
// `raise` re-raises [err]; an error leaving it gets [err] as its __context__.
Flow Interp::run_handler(const TryHandler& h, AmpsError& err) {
  Value instance = exception_value(*this, err);   // before the copy below, so a bare `raise` throws this instance
  const Function* fn = ts_->frames.empty() ? nullptr : ts_->frames.back().fn;
  instance.as<ExcInstance>()->caught_in = fn ? *fn->decl->name : "<script>";
  if (h.name.is_name()) bind(h.name, std::move(instance));
  ts_->handling.push_back(err);
  Flow f = Flow::Normal;
  try {
    f = exec_block(h.body);
  } catch (AmpsError& raised) {
    set_context(*this, raised, ts_->handling.back());
    ts_->handling.pop_back();
    throw;
  }
  ts_->handling.pop_back();
  return f;
}

}  // namespace amps::interp
