// CPU kernel of linalg_matrix_exp with PyTorch 1.13's algorithm (Bader, Blanes and Casas, "Computing the matrix
// exponential with an optimized Taylor polynomial approximation", 2019): by the 1-norm, a Taylor polynomial of degree
// 1, 2, 4, 8 or 12 evaluated with at most 4 products, or the degree-18 one of A / 2^s squared s times. The degree,
// the scaling and the coefficients are the input dtype's (float32's thetas differ from float64's); products and sums
// run in double, so float64 agrees with PyTorch's to rounding and float32 is at least as accurate.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/cpu/linalg_batch.hpp"

namespace amps::rt::cpu {
namespace {

using Mat = std::vector<double>;  // n x n, row-major

Mat product(const Mat& a, const Mat& b, int64_t n) {
  Mat c(a.size(), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < n; ++k) {
      const double aik = a[size_t(i * n + k)];
      for (int64_t j = 0; j < n; ++j) c[size_t(i * n + j)] += aik * b[size_t(k * n + j)];
    }
  return c;
}

// sum_j coef[j] * ms[j], accumulated in order of j (PyTorch's _compute_linear_combination).
template <size_t K> Mat combination(const std::array<const Mat*, K>& ms, const std::array<double, K>& coef) {
  Mat r(ms[0]->size(), 0.0);
  for (size_t j = 0; j < K; ++j)
    for (size_t e = 0; e < r.size(); ++e) r[e] += coef[j] * (*ms[j])[e];
  return r;
}

Mat plus(const Mat& a, const Mat& b) {
  Mat r(a);
  for (size_t e = 0; e < r.size(); ++e) r[e] += b[e];
  return r;
}

// I, A, A^2, A^3, A^6: the first [count] of them.
std::vector<Mat> powers(const Mat& a, int64_t n, int count) {
  std::vector<Mat> p{Mat(a.size(), 0.0), a};
  for (int64_t i = 0; i < n; ++i) p[0][size_t(i * n + i)] = 1;
  if (count > 2) p.push_back(product(a, a, n));
  if (count > 3) p.push_back(product(a, p[2], n));
  if (count > 4) p.push_back(product(p[3], p[3], n));
  return p;
}

// Rounds a double constant to the dtype's precision, as PyTorch's scalar_t coefficients are.
template <typename T> double rnd(double v) { return double(T(v)); }

// Taylor polynomials of degree 1, 2 and 4 of A.
template <typename T> Mat taylor_low(const Mat& a, int64_t n, int degree) {
  std::vector<Mat> p = powers(a, n, degree == 1 ? 2 : 3);
  if (degree == 1) return plus(p[0], p[1]);
  if (degree == 2) return combination<3>({&p[0], &p[1], &p[2]}, {1.0, 1.0, 0.5});
  const Mat inner = combination<3>({&p[0], &p[1], &p[2]}, {rnd<T>(1 / 2.0), rnd<T>(1 / 6.0), rnd<T>(1 / 24.0)});
  const Mat tail = product(p[2], inner, n);
  return combination<3>({&p[0], &p[1], &tail}, {1.0, 1.0, 1.0});
}

// The degree-8 polynomial: I + A + y2 A^2 + A8 with A4 = A^2 (x1 A + x2 A^2) and
// A8 = (x3 A^2 + A4)(x4 I + x5 A + x6 A^2 + x7 A4).
template <typename T> Mat taylor_8(const Mat& a, int64_t n) {
  const double s177 = rnd<T>(0.1330413469565007072504e+2), x3 = rnd<T>(2. / 3.);
  const double x1 = rnd<T>(x3 * ((1. + s177) / 88.)), x2 = rnd<T>(x3 * ((1. + s177) / 352.));
  const double x4 = rnd<T>((-271. + 29. * s177) / (315. * x3)), x5 = rnd<T>((-11. + 11. * s177) / (1260. * x3));
  const double x6 = rnd<T>((-99. + 11. * s177) / (5040. * x3)), x7 = rnd<T>((89. - s177) / (5040. * x3));
  const double y2 = rnd<T>((857. - 58. * s177) / 630.);
  std::vector<Mat> p = powers(a, n, 3);
  const Mat a4 = product(p[2], combination<2>({&p[1], &p[2]}, {x1, x2}), n);
  const Mat a8 = product(combination<2>({&p[2], &a4}, {x3, 1.0}),
                         combination<4>({&p[0], &p[1], &p[2], &a4}, {x4, x5, x6, x7}), n);
  return combination<4>({&p[0], &p[1], &p[2], &a8}, {1.0, 1.0, y2, 1.0});
}

// B_i = sum_j b[i][j] P_j over the powers P = I, A, A^2, ... (as many as b has columns).
template <typename T, size_t K>
std::vector<Mat> combinations(const std::vector<Mat>& p, const std::array<std::array<double, K>, K>& b) {
  std::vector<Mat> r;
  for (const auto& row : b) {
    std::array<const Mat*, K> ms{};
    std::array<double, K> coef{};
    for (size_t j = 0; j < K; ++j) ms[j] = &p[j], coef[j] = rnd<T>(row[j]);
    r.push_back(combination<K>(ms, coef));
  }
  return r;
}

// The degree-12 polynomial: B2 += B3 B3, then B0 + (B1 + B2) B2.
template <typename T> Mat taylor_12(const Mat& a, int64_t n) {
  static constexpr std::array<std::array<double, 4>, 4> b = {{
      {9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740},
      {5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989},
      {0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230},
      {-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359}}};
  std::vector<Mat> B = combinations<T>(powers(a, n, 4), b);
  B[2] = plus(B[2], product(B[3], B[3], n));
  return plus(B[0], product(plus(B[1], B[2]), B[2], n));
}

// The degree-18 polynomial: B3 += B0 B4, then B1 + (B2 + B3) B3.
template <typename T> Mat taylor_18(const Mat& a, int64_t n) {
  static constexpr std::array<std::array<double, 5>, 5> b = {{
      {0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.},
      {0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
       -6.37898194594723280150e-04},
      {-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
       -6.98210122488052056106e-03, 3.34975017086070470649e-05},
      {-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
       2.95552570429315521194e-02, -1.39180257516060693404e-05},
      {0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05}}};
  std::vector<Mat> B = combinations<T>(powers(a, n, 5), b);
  B[3] = plus(B[3], product(B[0], B[4], n));
  return plus(B[1], product(plus(B[2], B[3]), B[3], n));
}

// The largest 1-norm each degree (1, 2, 4, 8, 12, 18) serves, per dtype.
template <typename T> std::array<T, 6> thetas() {
  if constexpr (std::is_same_v<T, float>)
    return {1.192092800768788e-07f, 5.978858893805233e-04f, 5.116619363445086e-02f, 5.800524627688768e-01f,
            1.461661507209034e+00f, 3.010066362817634e+00f};
  else
    return {2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04, 4.991228871115323e-02,
            2.996158913811580e-01, 1.090863719290036e+00};
}

// The 1-norm (largest column sum of |a|), summed in the dtype.
template <typename T> T one_norm(const T* a, int64_t n) {
  T best = 0;
  for (int64_t j = 0; j < n; ++j) {
    T s = 0;
    for (int64_t i = 0; i < n; ++i) s += std::fabs(a[i * n + j]);
    best = std::max(best, s);
  }
  return best;
}

// exp of the n x n [a] (n >= 2) into [out]: the lowest degree whose theta bounds the norm, else (from the
// degree-12 theta up, as PyTorch's) degree 18 on A / 2^s, s = max(0, ceil(log2(norm / theta_18))), squared s times.
template <typename T> void matrix_exp(const T* a, T* out, int64_t n) {
  const std::array<T, 6> th = thetas<T>();
  const T norm = one_norm(a, n);
  Mat m(a, a + n * n), r;
  if (norm <= th[0]) r = taylor_low<T>(m, n, 1);
  else if (norm <= th[1]) r = taylor_low<T>(m, n, 2);
  else if (norm <= th[2]) r = taylor_low<T>(m, n, 4);
  else if (norm <= th[3]) r = taylor_8<T>(m, n);
  else if (norm < th[4]) r = taylor_12<T>(m, n);
  else {
    const T ls = std::ceil(std::log2(norm / th[5]));
    const int64_t s = ls > 0 ? int64_t(std::min<T>(ls, T(1100))) : 0;  // NaN: 0
    for (double& v : m) v = double(T(v / std::ldexp(1.0, int(s))));
    r = taylor_18<T>(m, n);
    for (int64_t i = 0; i < s; ++i) r = product(r, r, n);
  }
  std::transform(r.begin(), r.end(), out, [](double v) { return T(v); });
}

// linalg_matrix_exp(A): float16 and bfloat16 compute in float32 (PyTorch's CPU refuses or mis-scales them).
Tensors k_linalg_matrix_exp(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  AMPS_CHECK(x.dim() >= 2, "linalg.matrix_exp: The input tensor A must have at least 2 dimensions.");
  check_square(x, "linalg.matrix_exp");
  AMPS_CHECK(is_floating(x.dtype()), "matrix_exp: Expected a floating point or complex tensor as input. Got {}",
             common::torch_type_name(x.dtype()));
  Mats m = as_mats(x, "linalg.matrix_exp");
  Tensor out = batch_of(m, {m.n, m.n}, kc.device);
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T* o = out.data<T>();
    const int64_t nn = m.n * m.n;
    for_batch(m, [&](int64_t b) {
      if (m.n == 1) o[b] = std::exp(in[b]);
      else if (m.n > 1) matrix_exp(in + b * nn, o + b * nn, m.n);
    });
  });
  return one_tensor(cast(out, x.dtype()));
}

}  // namespace

void register_matrix_exp_kernels(KernelTable& t) { t.add(OpId::linalg_matrix_exp, k_linalg_matrix_exp, kAllDTypes); }

}  // namespace amps::rt::cpu
