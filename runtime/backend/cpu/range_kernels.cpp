// linspace and logspace with PyTorch 1.13's CPU values bit for bit (its AVX2 build, one thread's chunk):
//  - start and end are first converted to the result dtype with c10's overflow check (its RuntimeError);
//  - linspace steps from start for the first half and back from end for the second, in the dtype's own
//    arithmetic (double for integers, each float16/bfloat16 operation rounded), and its vectorised loop
//    writes blocks of 32 bytes: a block starts at the element's value and adds k * step per lane, so the
//    integer values truncate per block as PyTorch's do. Its kernel is built with FMA contraction, hence the
//    explicit fma() where the compiler fused a multiply-add;
//  - logspace computes pow(base, exponent) in double per element, converted as the x86 conversion instruction
//    converts (integers: an out-of-range value becomes the "integer indefinite" one, then wraps for narrow types).
// linspace above 32768 steps is split across PyTorch's threads there; amps computes it as one chunk.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

template <typename T> constexpr bool kReduced = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// c10's spelling of T in its conversion errors.
template <typename T> const char* c10_name() {
  if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, Half>) return "c10::Half";
  else return "c10::BFloat16";
}

// c10::overflows: floats out of T's finite range (infinities pass for floating T), NaN for integers; an
// integral value may wrap into an unsigned T when its magnitude fits (uint8 takes -255..255).
template <typename T> bool overflows(const Scalar& s) {
  double max;
  if constexpr (std::is_same_v<T, Half>) max = 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) max = 3.3895313892515355e38;
  else max = double(std::numeric_limits<T>::max());
  const double lowest = std::is_unsigned_v<T> ? 0.0 : -max - (std::is_integral_v<T> ? 1.0 : 0.0);
  if (s.is_floating()) {
    const double d = s.to_double();
    if (!std::is_integral_v<T> && std::isinf(d)) return false;
    if (std::is_integral_v<T> && std::isnan(d)) return true;
    return d < lowest || d > max;
  }
  if constexpr (std::is_unsigned_v<T>) {
    const int64_t v = s.to_int();
    return double(v) > max || (v < 0 && -double(v) > max);
  }
  return double(s.to_int()) < lowest || double(s.to_int()) > max;
}

// Scalar::to<T>() with c10's check.
template <typename T> T checked(const Scalar& s) {
  AMPS_CHECK(!overflows<T>(s), "value cannot be converted to type {} without overflow", c10_name<T>());
  if constexpr (std::is_integral_v<T>) return s.is_floating() ? T(s.to_double()) : T(s.to_int());
  else return T(s.to_double());
}

// double -> T as x86's cvttsd2si does it: int64 directly, narrower integers through int32 (then wrapped).
template <typename T> T x86_cast(double v) {
  if constexpr (!std::is_integral_v<T>) {
    return T(v);
  } else if constexpr (sizeof(T) == 8) {
    const bool in = v >= -9223372036854775808.0 && v < 9223372036854775808.0;
    return in ? T(int64_t(v)) : std::numeric_limits<T>::min();
  } else {
    const bool in = v > -2147483649.0 && v < 2147483648.0;
    return T(in ? int32_t(v) : std::numeric_limits<int32_t>::min());
  }
}

// [x] rounded to T's precision (float16/bfloat16 round every operation; float and double are exact here).
template <typename T, typename S> S rounded(S x) {
  if constexpr (kReduced<T>) return float(T(x));
  else return x;
}

// The value linspace's scalar loop gives element [i] ([S] its arithmetic type).
template <typename T, typename S> struct LinspaceSteps {
  S start, end, step;
  int64_t steps, halfway;
  S at(int64_t i) const {
    if constexpr (std::is_integral_v<T>) {  // double arithmetic; the kernel's a + b * c compiled to fma
      return i < halfway ? std::fma(step, double(i), start) : std::fma(-step, double(steps - i - 1), end);
    } else if constexpr (kReduced<T>) {
      return i < halfway ? rounded<T>(start + rounded<T>(step * rounded<T>(float(i))))
                         : rounded<T>(end - rounded<T>(step * rounded<T>(float(steps - i - 1))));
    } else {
      return i < halfway ? std::fma(step, S(i), start) : std::fma(-step, S(steps - i - 1), end);
    }
  }
  // Lane [k] of a vector block whose first element holds [base] (Vectorized::arange: base + k * step, unfused).
  S lane(S base, int64_t k) const {
    if constexpr (kReduced<T>) return rounded<T>(base + rounded<T>(rounded<T>(float(k)) * step));
    else return base + S(k) * step;
  }
};

template <typename T> void fill_linspace(T* out, const Scalar& s, const Scalar& e, int64_t steps) {
  using S = std::conditional_t<std::is_integral_v<T>, double, std::conditional_t<kReduced<T>, float, T>>;
  const T start = checked<T>(s), end = checked<T>(e);
  if (steps == 1) out[0] = start;
  if (steps <= 1) return;
  const S s0 = S(start), e0 = S(end);
  const S diff = rounded<T>(e0 - s0), step = rounded<T>(diff / rounded<T>(S(steps - 1)));
  const LinspaceSteps<T, S> f{s0, e0, step, steps, steps / 2};
  const int64_t V = 32 / int64_t(sizeof(T));  // AVX2 lanes; the loop takes two blocks at a time
  const int64_t vec_end = steps >= 2 * V ? ((steps - 2 * V) / (2 * V) + 1) * 2 * V : 0;
  int64_t i = 0;
  for (; i < vec_end; i += V) {
    const S base = std::is_integral_v<T> ? S(x86_cast<T>(f.at(i))) : f.at(i);
    for (int64_t k = 0; k < V; ++k) out[i + k] = x86_cast<T>(double(f.lane(base, k)));
  }
  for (; i < steps; ++i) out[i] = x86_cast<T>(double(f.at(i)));
}

template <typename T> void fill_logspace(T* out, const Scalar& s, const Scalar& e, int64_t steps, double base) {
  const T start = checked<T>(s), end = checked<T>(e);
  if (steps == 1) out[0] = checked<T>(Scalar(std::pow(base, s.to_double())));  // PyTorch's fill_
  if (steps <= 1) return;
  double diff;  // end - start in T's arithmetic (integers promoted to int64, half types rounded)
  if constexpr (std::is_integral_v<T>) diff = double(int64_t(end) - int64_t(start));
  else if constexpr (std::is_same_v<T, double>) diff = end - start;
  else diff = double(rounded<T>(float(end) - float(start)));
  const double step = diff / double(steps - 1), s0 = double(start), e0 = double(end);
  const int64_t halfway = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    const double x = i < halfway ? s0 + step * double(i) : e0 - step * double(steps - i - 1);
    out[i] = x86_cast<T>(std::pow(base, x));
  }
}

// PyTorch's dispatch refuses bool (its message).
void check_dtype(DType dt, const char* what) {
  AMPS_CHECK(dt != DType::bool_, "\"{}\" not implemented for 'Bool'", what);
}

Tensors k_linspace(const ArgReader& a, const KernelContext& kc) {
  const int64_t steps = a.i64(2);
  AMPS_CHECK(steps >= 0, "linspace: number of steps must be non-negative");
  const DType dt = a.opt_dtype(3).value_or(kc.ctx.default_dtype());
  check_dtype(dt, "linspace_cpu");
  Tensor t = Tensor::empty({steps}, dt, Device::cpu());
  AMPS_DISPATCH_ALL(dt, T, [&] {
    if constexpr (!std::is_same_v<T, bool>) fill_linspace<T>(t.data<T>(), a.scalar(0), a.scalar(1), steps);
  });
  return one_tensor(common::finish_factory(a, 5, kc.device == Device::cpu() ? t : cast_device(t, kc.device)));
}

Tensors k_logspace(const ArgReader& a, const KernelContext& kc) {
  const int64_t steps = a.i64(2);
  AMPS_CHECK(steps >= 0, "number of steps must be non-negative");
  const DType dt = a.opt_dtype(4).value_or(kc.ctx.default_dtype());
  check_dtype(dt, "logspace_cpu");
  Tensor t = Tensor::empty({steps}, dt, Device::cpu());
  AMPS_DISPATCH_ALL(dt, T, [&] {
    if constexpr (!std::is_same_v<T, bool>) fill_logspace<T>(t.data<T>(), a.scalar(0), a.scalar(1), steps, a.f64(3));
  });
  return one_tensor(common::finish_factory(a, 6, kc.device == Device::cpu() ? t : cast_device(t, kc.device)));
}

}  // namespace

void register_range_kernels(KernelTable& t) {
  t.add(OpId::linspace, k_linspace);
  t.add(OpId::logspace, k_logspace);
}

}  // namespace amps::rt::cpu
