// The `math` and `time` modules of the language core.
#include <chrono>
#include <cmath>
#include <numbers>

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
  });
}

}  // namespace amps::interp
