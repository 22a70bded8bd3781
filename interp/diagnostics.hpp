// Script-caused errors (amps errors): kind, message, source span and the amps call stack.
// Internal invariant failures are not these: they abort with file:line (ARCHITECTURE rule 10).
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "interp/source.hpp"
#include "interp/value.hpp"

namespace amps::interp {

// One frame of the amps call stack: the function that was running and where it was.
struct StackEntry {
  std::string function;
  Span where;
};

// An error a script can cause and `catch`. The evaluator adds the span of the innermost
// construct that failed and the call stack as the error unwinds.
class AmpsError : public std::exception {
 public:
  AmpsError(std::string kind, std::string message, Span span = {})
      : kind_(std::move(kind)), message_(std::move(message)), span_(span) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& kind() const { return kind_; }
  const std::string& message() const { return message_; }
  const Span& span() const { return span_; }
  bool has_span() const { return span_.file != nullptr; }
  void set_span(const Span& s) { span_ = s; }
  const std::vector<StackEntry>& stack() const { return stack_; }
  // Called as the error leaves function `fn`: records where `fn` was, then continues in the
  // caller at `call_site` (frames accumulate innermost first).
  void unwind(std::string fn, const Span& call_site) {
    stack_.push_back({std::move(fn), unwound_ ? cursor_ : span_});
    cursor_ = call_site;
    unwound_ = true;
  }
  // Closes the stack at the top level of a script.
  void finish_stack(const char* top) {
    if (unwound_ || !stack_.empty()) stack_.push_back({top, cursor_});
    unwound_ = false;
  }
  // Keeps the source files named by the span and stack alive as long as the error.
  void retain(SourceRef src) { sources_.push_back(std::move(src)); }

  // The exception instance a script raised (interp/exceptions.hpp), or none for an error raised natively by
  // kind, whose instance is made only if a handler binds it. [kind] is then the instance's class name.
  const Value& exception() const { return exception_; }
  void set_exception(Value v) { exception_ = std::move(v); }
  void set_text(std::string kind, std::string message) { kind_ = std::move(kind), message_ = std::move(message); }
  // The error `raise ... from` named as this one's cause (printed after it), or null.
  const std::shared_ptr<const AmpsError>& cause() const { return cause_; }
  void set_cause(std::shared_ptr<const AmpsError> c) { cause_ = std::move(c); }

 private:
  std::string kind_, message_;
  Value exception_;
  std::shared_ptr<const AmpsError> cause_;
  Span span_;
  std::vector<StackEntry> stack_;
  Span cursor_;
  bool unwound_ = false;
  std::vector<SourceRef> sources_;
};

// `FILE:LINE:COL: Kind: message`, the source line with a caret under the span, then the
// call stack, most recent call first.
std::string format_diagnostic(const AmpsError& e);

// `FILE:LINE:COL` of a span ("<unknown>" without one).
std::string format_position(const Span& s);

}  // namespace amps::interp
