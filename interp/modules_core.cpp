// The `math` and `time` modules of the language core.
#include <chrono>
#include <cmath>
#include <ctime>
#include <numbers>
#include <thread>

#include "interp/builtins.hpp"

namespace amps::interp {

// Python's math errors for [x] -> [r]: a NaN from a number is ValueError("math domain error"); an infinity from a
// finite number is OverflowError("math range error") where the function can overflow (exp, expm1, cosh, sinh,
// pow), else ValueError (log(0)), as CPython's math_1.
static double checked_math(double x, double r, bool can_overflow, const Span& where) {
  if (std::isnan(r) && !std::isnan(x)) Interp::fail("ValueError", "math domain error", where);
  if (std::isinf(r) && std::isfinite(x))
    Interp::fail(can_overflow ? "OverflowError" : "ValueError", can_overflow ? "math range error" : "math domain error",
                 where);
  return r;
}

static Native::Fn unary_math(const char* name, double (*f)(double), bool can_overflow) {
  return [name, f, can_overflow](Interp&, CallArgs& a) {
    ArgReader r(a, name, {"x"});
    if (!r.required(0).is_number()) r.type_error(0, "a number");
    const double x = r.get(0).to_double();
    return Value(checked_math(x, f(x), can_overflow, a.span));
  };
}

static void def(Module& m, const char* name, Native::Fn fn) { m.attrs[intern(name)] = make<Native>(name, std::move(fn)); }

void install_math_module(Interp& in) {
  in.def_module("math", [](Interp&, Module& m) {
    static const std::pair<const char*, double (*)(double)> fns[] = {
        {"sqrt", std::sqrt}, {"exp", std::exp}, {"log", std::log}, {"log2", std::log2}, {"log10", std::log10},
        {"sin", std::sin}, {"cos", std::cos}, {"tan", std::tan}, {"tanh", std::tanh}, {"atan", std::atan},
        {"fabs", std::fabs}, {"asin", std::asin}, {"acos", std::acos}, {"sinh", std::sinh}, {"cosh", std::cosh},
        {"erf", std::erf}, {"erfc", std::erfc}, {"log1p", std::log1p}, {"expm1", std::expm1}};
    for (auto& [name, f] : fns) {
      const std::string_view n = name;
      def(m, name, unary_math(name, f, n == "exp" || n == "expm1" || n == "cosh" || n == "sinh"));
    }
    def(m, "floor", [](Interp&, CallArgs& a) {
      ArgReader r(a, "floor", {"x"});
      return r.get(0).is_int() ? r.get(0) : int_of_integral_double(std::floor(r.float_or(0, 0)), a.span);
    });
    def(m, "ceil", [](Interp&, CallArgs& a) {
      ArgReader r(a, "ceil", {"x"});
      return r.get(0).is_int() ? r.get(0) : int_of_integral_double(std::ceil(r.float_or(0, 0)), a.span);
    });
    def(m, "isnan", [](Interp&, CallArgs& a) { ArgReader r(a, "isnan", {"x"}); return Value(std::isnan(r.float_or(0, 0))); });
    def(m, "isinf", [](Interp&, CallArgs& a) { ArgReader r(a, "isinf", {"x"}); return Value(std::isinf(r.float_or(0, 0))); });
    def(m, "isfinite", [](Interp&, CallArgs& a) { ArgReader r(a, "isfinite", {"x"}); return Value(std::isfinite(r.float_or(0, 0))); });
    def(m, "pow", [](Interp&, CallArgs& a) {
      ArgReader r(a, "pow", {"x", "y"});
      const double x = r.float_or(0, 0), y = r.float_or(1, 0), v = std::pow(x, y);
      if (x == 0 && y < 0) Interp::fail("ValueError", "math domain error", a.span);  // CPython: not a range error
      return Value(std::isfinite(y) ? checked_math(x, v, true, a.span) : v);
    });
    m.attrs[intern("pi")] = Value(std::numbers::pi);
    m.attrs[intern("e")] = Value(std::numbers::e);
    m.attrs[intern("inf")] = Value(HUGE_VAL);
    m.attrs[intern("nan")] = Value(std::nan(""));
  });
}

// time.sleep(secs): Python's ValueError for a negative time; an interrupt (Ctrl-C) ends it at the next check.
static Value time_sleep(Interp& in, CallArgs& a) {
  ArgReader r(a, "sleep", {"secs"});
  if (!r.required(0).is_number()) r.type_error(0, "a number");
  double left = r.get(0).to_double();
  if (left < 0) Interp::fail("ValueError", "sleep length must be non-negative", a.span);
  for (; left > 0; left -= 0.05) {
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.05)));
    in.check_interrupt(a.span);
  }
  return Value();
}

// The local time `secs` seconds after the epoch (none: now) formatted by strftime's [fmt].
static std::string local_time_text(const Value& secs, const char* fmt) {
  std::time_t t = secs.is_none() ? std::time(nullptr) : std::time_t(std::floor(secs.to_double()));
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[4096];
  const size_t n = std::strftime(buf, sizeof buf, fmt, &tm);
  return std::string(buf, n);
}

// time.ctime(secs=None): Python's asctime form, 'Thu Nov  6 07:45:36 2026' (day of month space-padded).
static Value time_ctime(Interp&, CallArgs& a) {
  ArgReader r(a, "ctime", {"secs"});
  const Value secs = r.has(0) ? r.get(0) : Value();
  if (!secs.is_none() && !secs.is_number()) r.type_error(0, "a number");
  return make_str(local_time_text(secs, "%a %b %e %H:%M:%S %Y"));
}

// time.strftime(format): the current local time; Python's optional struct_time argument is not supported (amps has
// no struct_time), so a second argument is a TypeError saying so.
static Value time_strftime(Interp&, CallArgs& a) {
  if (a.pos.size() > 1)
    Interp::fail("TypeError", "strftime(): amps formats the current time only (no struct_time argument)", a.span);
  ArgReader r(a, "strftime", {"format"});
  if (!r.required(0).is(ObjKind::Str)) r.type_error(0, "str");
  const std::string& f = r.get(0).as<Str>()->value;
  if (f.size() > 200) Interp::fail("ValueError", "strftime(): format longer than 200 characters", a.span);
  return make_str(local_time_text(Value(), f.c_str()));
}

void install_time_module(Interp& in) {
  in.def_module("time", [](Interp&, Module& m) {
    def(m, "time", [](Interp&, CallArgs&) {
      auto now = std::chrono::system_clock::now().time_since_epoch();
      return Value(std::chrono::duration<double>(now).count());
    });
    def(m, "perf_counter", [](Interp&, CallArgs&) {
      auto now = std::chrono::steady_clock::now().time_since_epoch();
      return Value(std::chrono::duration<double>(now).count());
    });
    def(m, "monotonic", [](Interp&, CallArgs&) {
      auto now = std::chrono::steady_clock::now().time_since_epoch();
      return Value(std::chrono::duration<double>(now).count());
    });
    def(m, "sleep", time_sleep);
    def(m, "ctime", time_ctime);
    def(m, "strftime", time_strftime);
  });
}

}  // namespace amps::interp
