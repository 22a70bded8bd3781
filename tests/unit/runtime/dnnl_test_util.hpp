// Test helpers for the oneDNN layer: host tensors in any dtype and layout, independent reference
// f16/bf16 rounding, and tolerance checks against double-precision reference loops.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu::test {

using Dims = std::vector<int64_t>;

// Reference rounding written independently of the layer's converters (double arithmetic).
inline uint16_t ref_to_f16(double v) {
  if (std::isnan(v)) return 0x7e00;
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (a >= 65520.0) return sign | 0x7c00;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);
  int ex = std::max(e - 1, -14);
  double r = std::nearbyint(a / std::ldexp(1.0, ex - 10));  // FE_TONEAREST: ties to even
  if (r >= 2048) r /= 2, ex += 1;
  if (ex == -14 && r < 1024) return sign | static_cast<uint16_t>(r);
  return sign | static_cast<uint16_t>(((ex + 15) << 10) | (static_cast<int>(r) - 1024));
}
inline double ref_from_f16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
inline uint16_t ref_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  double a = f, scale;
  int e;
  std::frexp(std::fabs(a), &e);
  scale = std::ldexp(1.0, std::max(e - 1, -126) - 7);
  float r = static_cast<float>(std::nearbyint(a / scale) * scale);
  std::memcpy(&x, &r, 4);
  return static_cast<uint16_t>(x >> 16);
}
inline double ref_from_bf16(uint16_t h) {
  uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

// A host buffer viewed as a tensor. 'perm' gives the physical order of dims (outermost first;
// empty = row-major) and 'gap' the innermost physical stride, so transposed and sliced views are
// easy to build; strides may be edited afterwards (e.g. set to 0 for an expanded dim).
struct HostTensor {
  DnnlType dt = DnnlType::f32;
  Dims dims, strides;
  std::vector<uint16_t> buf;  // 2-byte units; f32 uses two

  static HostTensor make(Dims dims, DnnlType dt, Dims perm = {}, int64_t gap = 1) {
    HostTensor t;
    t.dt = dt, t.dims = dims, t.strides.assign(dims.size(), 0);
    if (perm.empty()) perm.resize(dims.size()), std::iota(perm.begin(), perm.end(), 0);
    int64_t acc = gap;
    for (size_t i = perm.size(); i-- > 0;) t.strides[perm[i]] = acc, acc *= std::max<int64_t>(dims[perm[i]], 1);
    t.buf.assign(static_cast<size_t>(acc) * (dt == DnnlType::f32 ? 2 : 1) + 2, 0);
    return t;
  }
  static HostTensor random(Dims dims, DnnlType dt, unsigned seed, Dims perm = {}, int64_t gap = 1,
                           double lo = -1, double hi = 1) {
    HostTensor t = make(dims, dt, perm, gap);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, u(rng));
    return t;
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
  // Element offset of the logical row-major index 'flat'.
  int64_t offset(int64_t flat) const {
    int64_t off = 0;
    for (size_t i = dims.size(); i-- > 0;) off += (flat % dims[i]) * strides[i], flat /= dims[i];
    return off;
  }
  double get(int64_t flat) const {
    int64_t o = offset(flat);
    if (dt == DnnlType::bf16) return ref_from_bf16(buf[o]);
    if (dt == DnnlType::f16) return ref_from_f16(buf[o]);
    float f;
    std::memcpy(&f, &buf[2 * o], 4);
    return f;
  }
  void set(int64_t flat, double v) {  // stores v rounded (nearest-even) to dt
    int64_t o = offset(flat);
    if (dt == DnnlType::bf16) buf[o] = ref_to_bf16(static_cast<float>(v));
    else if (dt == DnnlType::f16) buf[o] = ref_to_f16(v);
    else { float f = static_cast<float>(v); std::memcpy(&buf[2 * o], &f, 4); }
  }
  std::vector<double> values() const {
    std::vector<double> v(numel());
    for (int64_t i = 0; i < numel(); ++i) v[i] = get(i);
    return v;
  }
  DnnlArg arg() { return DnnlArg{buf.data(), dt, dims, strides}; }
};

// Tolerance per unit of magnitude for results written in 'dt'.
inline double tol_for(DnnlType dt) {
  return dt == DnnlType::bf16 ? 1.6e-2 : dt == DnnlType::f16 ? 2e-3 : 2e-5;
}

// Checks every element of 'out' against 'ref' (logical row-major): |out - ref| <= tol*(scale+|ref|).
inline void expect_close(const HostTensor& out, const std::vector<double>& ref, double tol = 0,
                         double scale = 1) {
  if (tol == 0) tol = tol_for(out.dt);
  ASSERT_EQ(static_cast<int64_t>(ref.size()), out.numel());
  int bad = 0;
  for (int64_t i = 0; i < out.numel() && bad < 5; ++i) {
    double got = out.get(i);
    if (std::fabs(got - ref[i]) <= tol * (scale + std::fabs(ref[i]))) continue;
    ADD_FAILURE() << "element " << i << ": got " << got << ", want " << ref[i];
    ++bad;
  }
}

}  // namespace amps::rt::dnnl_cpu::test
