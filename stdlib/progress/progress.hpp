// progress(iterable, total=none, desc=""): yields the items of `iterable` while reporting count,
// rate and ETA on stderr: a bar redrawn in place on a terminal, plain periodic lines otherwise.
#pragma once

#include <optional>
#include <string>

#include "amps/amps.hpp"

namespace amps::stdlib::progress {

struct ProgressState {
  std::string desc;
  int64_t n = 0;                    // items yielded so far
  std::optional<int64_t> total;     // known length
  double elapsed = 0;               // seconds since the first item was requested
};

// "desc:  40%|########            | 4/10 [00:02<00:03, 2.00 it/s]" (a terminal line, no "\r").
std::string format_bar(const ProgressState& s, int width = 20);
// "desc: 4/10 (40%) 2.00 it/s, elapsed 00:02, ETA 00:03" (a log line, no newline).
std::string format_line(const ProgressState& s);
// "01:05" or "1:01:05"; "?" for a negative or non-finite duration.
std::string format_duration(double seconds);
// "12.3 it/s", or "4.56 s/it" below one item per second.
std::string format_rate(double n, double seconds);

// The global `progress`.
Value b_progress(Vm& vm, Call& call);

}  // namespace amps::stdlib::progress
