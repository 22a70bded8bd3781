// The progress() iterator and its bar and log-line rendering (see progress.hpp).
#include "stdlib/progress/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>

#include "stdlib/progress/csv_log.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::progress {

using namespace amps::interp;

std::string format_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  auto t = int64_t(s + 0.5);
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
  return fmt::format("{:02}:{:02}", t / 60, t % 60);
}

std::string format_rate(double n, double seconds) {
  if (n <= 0 || seconds <= 0) return "? it/s";
  double r = n / seconds;
  return r >= 1 ? fmt::format("{:.2f} it/s", r) : fmt::format("{:.2f} s/it", 1 / r);
}

namespace {

// Seconds until the end at the current rate (NaN when unknown).
double eta(const ProgressState& s) {
  if (!s.total || s.n <= 0 || s.elapsed <= 0) return NAN;
  return double(*s.total - s.n) * s.elapsed / double(s.n);
}

int percent(const ProgressState& s) { return *s.total > 0 ? int(100 * s.n / *s.total) : 100; }

std::string prefix(const ProgressState& s) { return s.desc.empty() ? "" : s.desc + ": "; }

}  // namespace

std::string format_bar(const ProgressState& s, int width) {
  std::string rate = format_rate(double(s.n), s.elapsed);
  if (!s.total) return fmt::format("{}{} [{}, {}]", prefix(s), s.n, format_duration(s.elapsed), rate);
  int filled = *s.total > 0 ? int(int64_t(width) * std::min(s.n, *s.total) / *s.total) : width;
  return fmt::format("{}{:3}%|{}{}| {}/{} [{}<{}, {}]", prefix(s), percent(s), std::string(size_t(filled), '#'),
                     std::string(size_t(width - filled), ' '), s.n, *s.total, format_duration(s.elapsed),
                     format_duration(eta(s)), rate);
}

std::string format_line(const ProgressState& s) {
  std::string rate = format_rate(double(s.n), s.elapsed);
  if (!s.total) return fmt::format("{}{} {}, elapsed {}", prefix(s), s.n, rate, format_duration(s.elapsed));
  return fmt::format("{}{}/{} ({}%) {}, elapsed {}, ETA {}", prefix(s), s.n, *s.total, percent(s), rate,
                     format_duration(s.elapsed), format_duration(eta(s)));
}

namespace {

// Pulls the items of any iterable one at a time: native iterators and ranges lazily, objects
// with __iter__/__next__ through the interpreter, everything else collected first.
class Source {
 public:
  Source(Interp& in, const Value& v, const Span& where) {
    if (v.is(ObjKind::Range)) { range_ = v; return; }
    Value it = v;
    Value iter_m = v.is(ObjKind::Iterator) ? Value::undef() : in.find_attr(v, intern("__iter__"));
    if (!iter_m.is_undef() && (v.is(ObjKind::Instance) || is_opaque(v))) it = in.call(iter_m, std::vector<Value>{});
    if (it.is(ObjKind::Iterator)) { iter_ = it; return; }
    if (it.is(ObjKind::Instance)) next_m_ = in.find_attr(it, intern("__next__"));
    if (next_m_.is_undef()) in.iterate(it, where, [&](Value x) { items_.push_back(std::move(x)); return true; });
  }

  bool next(Interp& in, Value& out) {
    if (range_.is(ObjKind::Range)) return next_in_range(out);
    if (iter_.is(ObjKind::Iterator)) return iter_.as<Iterator>()->next(in, out);
    if (!next_m_.is_undef()) return call_next(in, out);
    if (pos_ >= items_.size()) return false;
    out = items_[pos_++];
    return true;
  }

 private:
  bool next_in_range(Value& out) {
    auto* r = range_.as<Range>();
    if (int64_t(pos_) >= r->size()) return false;
    out = Value(r->start + int64_t(pos_++) * r->step);
    return true;
  }
  bool call_next(Interp& in, Value& out) {
    try {
      out = in.call(next_m_, std::vector<Value>{});
      return true;
    } catch (AmpsError& e) {
      if (e.kind() == "StopIteration") return false;
      throw;
    }
  }

  Value range_, iter_, next_m_ = Value::undef();
  std::vector<Value> items_;
  size_t pos_ = 0;
};

using Clock = std::chrono::steady_clock;

struct ProgressIter : Iterator {
  ProgressIter(Interp& in, Source src, ProgressState st) : in_(in), src_(std::move(src)), s_(std::move(st)), tty_(::isatty(STDERR_FILENO)) {}
  ~ProgressIter() override;
  std::string type_name() const override { return "progress"; }
  bool next(Interp& in, Value& out) override;

 private:
  void report(bool final);
  bool due(double now) const;

  Interp& in_;
  Source src_;
  ProgressState s_;
  bool tty_, started_ = false, finished_ = false;
  Clock::time_point t0_;
  double last_report_ = -1;
  int64_t reported_n_ = -1;
};

bool ProgressIter::next(Interp& in, Value& out) {
  if (finished_) return false;
  if (!started_) started_ = true, t0_ = Clock::now(), report(false);
  bool got = src_.next(in, out);
  if (got) ++s_.n;
  report(!got);
  finished_ = !got;
  return got;
}

// A terminal redraws at most 10 times a second; a log gets a line per 10% of a known total
// (else one every 10 s), plus the final line.
bool ProgressIter::due(double now) const {
  if (tty_) return now - last_report_ >= 0.1 || (s_.total && s_.n == *s_.total);
  if (!s_.total || *s_.total <= 0) return now - last_report_ >= 10 && last_report_ >= 0;
  return s_.n > reported_n_ && s_.n * 10 / *s_.total > std::max<int64_t>(reported_n_, 0) * 10 / *s_.total;
}

void ProgressIter::report(bool final) {
  s_.elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
  if (!final && !due(s_.elapsed)) {
    if (last_report_ < 0) last_report_ = s_.elapsed;   // the 10 s log interval starts at the first item
    return;
  }
  if (!tty_ && final && reported_n_ == s_.n) return;   // the 100% line was already written
  last_report_ = s_.elapsed, reported_n_ = s_.n;
  if (tty_) in_.write_err("\r" + format_bar(s_) + "\x1b[K" + (final ? "\n" : ""));
  else in_.write_err(format_line(s_) + "\n");
}

// A loop left early (break, error) still ends its bar's line and logs where it stopped.
ProgressIter::~ProgressIter() {
  if (!started_ || finished_) return;
  try {
    report(true);
  } catch (...) {   // a destructor must not throw; losing the last line is acceptable
  }
}

std::optional<int64_t> known_length(Interp& in, const Value& v) {
  if (v.is(ObjKind::Range)) return v.as<Range>()->size();
  if (v.is(ObjKind::Dict)) return int64_t(v.as<Dict>()->size());
  if (v.is(ObjKind::Str)) return int64_t(v.as<Str>()->value.size());
  if (v.is(ObjKind::List) || v.is(ObjKind::Tuple) || !in.find_attr(v, intern("__len__")).is_undef()) return length_of(in, v, Span{});
  return std::nullopt;
}

}  // namespace

Value b_progress(Interp& in, CallArgs& a) {
  ArgReader r(a, "progress", {"iterable", "total", "desc"});
  ProgressState s;
  s.desc = r.str_or(2, "");
  if (r.has(1) && !r.get(1).is_none()) s.total = r.int_or(1, 0);
  else s.total = known_length(in, r.required(0));
  if (s.total && *s.total < 0) Interp::fail("ValueError", "progress(): total must be non-negative", a.span);
  return make<ProgressIter>(in, Source(in, r.required(0), a.span), std::move(s));
}

}  // namespace amps::stdlib::progress

namespace amps::stdlib {
void install_progress(interp::Interp& in) {
  in.def_native("progress", progress::b_progress);
  in.def_native("log_csv", progress::b_log_csv);
}
}  // namespace amps::stdlib
