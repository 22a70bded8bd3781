// The progress() iterator and its bar and log-line rendering (see progress.hpp).
#include "stdlib/progress/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>

#include "stdlib/progress/csv_log.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::progress {

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

using Clock = std::chrono::steady_clock;

// Iterates [source] (an iterator from amps_iter: lazily, whatever the iterable) and reports.
struct ProgressIter : Object {
  ProgressIter(Vm& vm, Value source, ProgressState st)
      : vm_(vm.get()), src_(std::move(source)), s_(std::move(st)), tty_(::isatty(STDERR_FILENO)) {}
  ~ProgressIter() override;
  Value next(Vm& vm) override;

 private:
  void report(bool final);
  bool due(double now) const;

  amps_vm* vm_;   // for the last line, written when the object dies
  Value src_;
  ProgressState s_;
  bool tty_, started_ = false, finished_ = false;
  Clock::time_point t0_;
  double last_report_ = -1;
  int64_t reported_n_ = -1;
};

Value ProgressIter::next(Vm& vm) {
  if (finished_) return Value();
  if (!started_) started_ = true, t0_ = Clock::now(), report(false);
  Value item = vm.next(src_);
  if (item) ++s_.n;
  report(!item);
  finished_ = !item;
  return item;
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
  std::string text = tty_ ? "\r" + format_bar(s_) + "\x1b[K" + (final ? "\n" : "") : format_line(s_) + "\n";
  amps_write_diagnostic(vm_, text.data(), text.size());
}

// A loop left early (break, error) still ends its bar's line and logs where it stopped.
ProgressIter::~ProgressIter() {
  if (!started_ || finished_) return;
  try {
    report(true);
  } catch (...) {   // a destructor must not throw; losing the last line is acceptable
  }
}

const amps_class kProgressClass = iterator_class("progress");

std::optional<int64_t> known_length(Vm& vm, const Value& v) {
  bool sized = v.is(AMPS_TYPE_LIST) || v.is(AMPS_TYPE_TUPLE) || v.is(AMPS_TYPE_DICT) || v.is(AMPS_TYPE_STR) ||
               std::string_view(v.type_name()) == "range" || vm.find_attr(v, "__len__");
  return sized ? std::optional<int64_t>(vm.len(v)) : std::nullopt;
}

}  // namespace

Value b_progress(Vm& vm, Call& call) {
  Args r(vm, call, "progress", {"iterable", "total", "desc"});
  ProgressState s;
  s.desc = r.str_or(2, "");
  if (r.has(1) && !r.get(1).is_none()) s.total = r.int_or(1, 0);
  else s.total = known_length(vm, r.required(0));
  if (s.total && *s.total < 0) fail("ValueError", "progress(): total must be non-negative");
  return vm.new_object(kProgressClass, std::make_unique<ProgressIter>(vm, vm.iter(r.required(0)), std::move(s)));
}

}  // namespace amps::stdlib::progress

namespace amps::stdlib {

namespace {

const amps_reg kProgressNatives[] = {
    {"progress", native<progress::b_progress>, AMPS_CAST_NONE, nullptr},
    {"log_csv", native<progress::b_log_csv>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace

void install_progress(Vm& vm) { register_globals(vm, kProgressNatives); }

}  // namespace amps::stdlib
