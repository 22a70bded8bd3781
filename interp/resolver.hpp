// Static pass between parsing and evaluation: binds every name to a (depth, slot) or a
// builtin slot, counts each function's slots, and rejects what cannot run (undeclared
// assignment, unknown names, misplaced return/break/super) before the script starts.
#pragma once

#include <unordered_map>
#include <vector>

#include "interp/ast.hpp"

namespace amps::interp {

// Names visible to every script (print, len, tensor, ...), each bound to a fixed slot.
class BuiltinNames {
 public:
  // Returns the slot for `name`, adding it when new.
  uint32_t add(Atom name);
  // The slot of `name`, or -1.
  int64_t find(Atom name) const;
  const std::vector<Atom>& names() const { return order_; }

 private:
  std::unordered_map<Atom, uint32_t> slots_;
  std::vector<Atom> order_;
};

// Names declared at the top level of one module; persists across REPL entries.
struct ModuleScope {
  std::unordered_map<Atom, uint32_t> slots;
  std::vector<Atom> order;
};

// Resolves `prog` in place; throws AmpsError (SyntaxError or NameError) on the first problem.
void resolve(Program& prog, ModuleScope& module, const BuiltinNames& builtins);

}  // namespace amps::interp
