// Python's warnings: the `warnings` module (warn, filterwarnings, simplefilter, resetwarnings, catch_warnings) and
// the one path every warning amps prints takes, so a script's filters silence (or raise) amps' own warnings too.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "interp/interp.hpp"

namespace amps::interp {

// One filter, as Python's (action, message, category, module, lineno): the first that matches decides.
struct WarningFilter {
  std::string action;    // "ignore", "error", "always", "default", "module", "once"
  std::string message;   // matched case-insensitively against the start of the text ("" matches all)
  Value category;        // a Warning class: matches it and its subclasses
  int64_t lineno = 0;    // 0: any line
};

struct WarningState {
  std::vector<WarningFilter> filters;
  std::set<std::string> shown;   // keys of warnings shown under "default", "module" and "once"
};

// Shows (prints "FILE:LINE:COL: Category: text" on the script's stderr), drops or raises the warning [text] of
// built-in category [category] (UserWarning, FutureWarning, ...) at [where], as the filters say.
void emit_warning(Interp& in, std::string_view category, const std::string& text, const Span& where);

void install_warnings_module(Interp& in);

}  // namespace amps::interp
