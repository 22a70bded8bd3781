// Worker threads for DataParallel-style scripts (see Interp::parallel_call): each worker gets
// its own call stack and a forked runtime Context; the interpreter lock serialises evaluation.
#include <optional>
#include <thread>

#include "interp/interp.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace amps::interp {

Interp::AllowThreads::AllowThreads(Interp& in) : in_(in), active_(in.parallel_.load(std::memory_order_relaxed)) {
  if (!active_) return;
  saved_ = in_.ts_;
  in_.gil_.unlock();
}

Interp::AllowThreads::~AllowThreads() {
  if (!active_) return;
  in_.gil_.lock();
  in_.ts_ = saved_;
}

// A Context for a worker: the caller's layers (forked), grad mode, default device and dtype, and a seed drawn from the
// caller's generator, so each replica's dropout stream is reproducible.
static void fork_context(rt::Context& from, rt::Context& to, uint64_t seed) {
  for (auto& e : from.layers()) to.add_layer(e.layer->fork(e.layer), e.order);
  to.set_grad_enabled(from.grad_enabled());
  to.set_default_device(from.default_device());
  to.set_default_dtype(from.default_dtype());
  to.set_host_allocator(from.host_allocator());
  to.manual_seed(seed);
}

std::vector<Value> Interp::parallel_call(const std::vector<std::pair<Value, std::vector<Value>>>& calls, const Span& where) {
  std::vector<Value> results(calls.size());
  std::vector<std::optional<AmpsError>> errors(calls.size());
  std::vector<uint64_t> seeds;
  for (size_t i = 0; i < calls.size(); ++i) seeds.push_back(rt_ctx_.generator().next_u64());
  std::unique_lock<std::mutex> lock(gil_);
  ThreadState* caller = ts_;
  parallel_ = true;
  std::vector<std::thread> workers;
  for (size_t i = 0; i < calls.size(); ++i) {
    workers.emplace_back([&, i] {
      rt::Context ctx;
      fork_context(rt_ctx_, ctx, seeds[i]);
      rt::ContextGuard guard(ctx);
      ThreadState ts;
      ts.frames.push_back(caller->frames.empty() ? Frame{main_env_.get(), nullptr, Value()} : Frame{caller->frames.back().env, caller->frames.back().fn, Value()});
      std::unique_lock<std::mutex> held(gil_);
      ts_ = &ts;
      try {
        CallArgs args;
        args.pos = calls[i].second;
        args.span = where;
        results[i] = call(calls[i].first, args);
      } catch (const AmpsError& e) {
        errors[i] = e;
      } catch (const rt::Error& e) {
        errors[i] = AmpsError(e.kind(), e.message(), where);
      }
      ts_ = caller;
    });
  }
  lock.unlock();
  for (auto& w : workers) w.join();
  lock.lock();
  parallel_ = false;
  ts_ = caller;
  for (auto& e : errors)
    if (e) throw *e;
  return results;
}

}  // namespace amps::interp
