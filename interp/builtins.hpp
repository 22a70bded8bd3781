// The core builtins (print, len, range, containers, errors, math, time) and the methods of
// built-in types, plus ArgReader, the argument reader every native function uses.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "interp/interp.hpp"
#include "interp/type_table.hpp"

namespace amps::interp {

// Registers the language-core globals and modules in `in`.
void install_core_builtins(Interp& in);

// A bound method of a built-in type (`xs.append`), or undef when `self` has no such method.
Value builtin_method(Interp& in, const Value& self, Atom name);

// The process status for a SystemExit error (exit(code) / sys.exit): 0 for none, the number's low byte, or 1 after
// writing a non-numeric message to [err] (interp/module_sys.cpp).
int system_exit_status(const AmpsError& e, const std::function<void(std::string_view)>& err);

// Python float repr (shortest round trip, "65536.0").
std::string format_float(double d);

// Applies a Python format spec ("[[fill]align][sign][0][width][,][.prec][type]") to a value (interp/format.cpp).
std::string format_with_spec(Interp& in, const Value& v, std::string spec, const Span& where);

// What formatting sees of [v]: a 0-dim tensor's number, as PyTorch's Tensor.__format__ (f"{loss:.3f}",
// "{}".format(loss), format(loss, ".2e")); every other value itself (interp/format.cpp).
Value formatted_value(const Value& v);

// slice.indices(n): Python's (start, stop, step) of [s] over a sequence of length n (interp/sequence.cpp).
Value slice_indices(const SliceObj& s, int64_t n, const Span& where);

// An integral double (already truncated/rounded) as an int: ValueError for NaN, OverflowError for infinities
// and values outside int64 (Python's ints are unbounded; amps' stop at 64 bits rather than wrap).
Value int_of_integral_double(double d, const Span& where);

// Reads a native function's arguments by position or keyword, Python-style, against a
// parameter list; rejects unknown keywords, duplicates and extra positionals with TypeError.
class ArgReader {
 public:
  ArgReader(CallArgs& args, std::string fn, std::vector<const char*> params);
  size_t size() const { return vals_.size(); }
  bool has(size_t i) const { return !vals_[i].is_undef(); }
  const Value& get(size_t i) const { return vals_[i]; }
  const Value& required(size_t i) const;
  int64_t int_or(size_t i, int64_t dflt) const;
  double float_or(size_t i, double dflt) const;
  bool bool_or(size_t i, bool dflt) const;
  std::string str_or(size_t i, std::string dflt) const;
  const Span& span() const { return span_; }
  [[noreturn]] void type_error(size_t i, const char* expected) const;

 private:
  std::string fn_;
  std::vector<const char*> params_;
  std::vector<Value> vals_;
  Span span_;
};

// Python's iter(x) (an Iterator value) and one step of it: false once exhausted (builtins_iter.cpp).
Value make_iter(Interp& in, const Value& v, const Span& where);
bool pull(Interp& in, const Value& it, Value& out, const Span& where);
// Python's `format % values` for a str format (percent_format.cpp).
Value percent_format(Interp& in, const Value& format, const Value& values, const Span& where);

}  // namespace amps::interp
