// Special functions of the unary kernels (lgamma's derivative digamma, its derivatives trigamma and polygamma), in
// double precision, shared by the CPU loops and the CUDA kernels so both compute the same values. The algorithms
// are PyTorch's (ATen/native/Math.h: calc_digamma, calc_trigamma, Cephes' Hurwitz zeta): its special points too
// (digamma(0) = -inf with 0's sign flipped, NaN at negative integers). Header-only, no amps includes: nvcc compiles
// it into the .cu files as well; math functions are called as ::name so amps' tensor functions never hide them.
#pragma once

#include <math.h>
#include <stdint.h>

#include "runtime/backend/common/host_device.hpp"

namespace amps::rt::special {

constexpr double kPi = 3.14159265358979323846;

// digamma of x >= 0 (x = 0 gives -inf): recurrence up to 10, then the asymptotic series.
AMPS_HD double digamma_nonnegative(double x) {
  if (x == 0) return -INFINITY;
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + 2.25175258906672110764;  // digamma(10)
  const double A[] = {8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                      -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                      8.33333333333333333333E-2};
  double y = 0;
  if (x < 1.0e17) {
    const double z = 1.0 / (x * x);
    double p = A[0];
    for (int i = 1; i < 7; ++i) p = p * z + A[i];
    y = z * p;
  }
  return result + ::log(x) - (0.5 / x) - y;
}

// digamma(x): the reflection formula below 0 (NaN at negative integers); -0 gives +inf, as PyTorch's.
AMPS_HD double digamma(double x) {
  if (x == 0) return ::signbit(x) ? INFINITY : -INFINITY;
  if (x >= 0) return digamma_nonnegative(x);
  if (x == ::trunc(x)) return NAN;
  double whole;
  const double r = ::modf(x, &whole);
  return digamma_nonnegative(1 - x) - kPi / ::tan(kPi * r);
}

// trigamma(x): the reflection formula below 1/2, six recurrence steps, then the asymptotic series.
AMPS_HD double trigamma(double x) {
  double sign = +1, result = 0;
  if (x < 0.5) {
    sign = -1;
    const double s = ::sin(kPi * x);
    result -= (kPi * kPi) / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
  return sign * result;
}

// Hurwitz zeta(x, q) = sum over k >= 0 of (k + q)^-x (Cephes: direct sum, then Euler-Maclaurin).
AMPS_HD double zeta(double x, double q) {
  const double MACHEP = 1.11022302462515654042E-16;
  const double A[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
                      -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
                      1.8152105401943546773e17, -7.1661652561756670113e18};
  if (x == 1) return INFINITY;
  if (x < 1) return NAN;
  if (q <= 0) {
    if (q == ::floor(q)) return INFINITY;
    if (x != ::floor(x)) return NAN;
  }
  double s = ::pow(q, -x), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1;
    b = ::pow(a, -x);
    s += b;
    if (-MACHEP * s < b && b < MACHEP * s) return s;
  }
  const double w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1;
  double k = 0;
  for (int j = 0; j < 12; ++j) {
    a *= x + k;
    b /= w;
    double t = a * b / A[j];
    s = s + t;
    t = ::fabs(t / s);
    if (t < MACHEP) return s;
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

// polygamma(n, x), the n-th derivative of digamma (n >= 0): (-1)^(n+1) n! zeta(n + 1, x) from n = 2.
AMPS_HD double polygamma(int64_t n, double x) {
  if (n == 0) return digamma(x);
  if (n == 1) return trigamma(x);
  double factorial = 1;
  for (int64_t k = 2; k <= n; ++k) factorial *= double(k);
  return ((n % 2) ? 1.0 : -1.0) * factorial * zeta(double(n + 1), x);
}

}  // namespace amps::rt::special
