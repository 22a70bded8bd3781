// float16 and bfloat16 storage types: exact float conversions (round-to-nearest-even) and bulk converters.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace amps::rt {

// IEEE binary16 bits from a float: round-to-nearest-even, overflow to inf, subnormals exact, NaN stays a
// quiet NaN (F. Giesen's float_to_half_fast3_rtne, which relies on the FPU's default RNE mode).
inline uint16_t float_to_half_bits(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  const uint32_t sign = u & 0x80000000u;
  u ^= sign;
  uint16_t out;
  if (u >= (127u + 16u) << 23) {  // |f| >= 65536, inf or NaN: all exponent bits set
    out = u > 0x7f800000u ? uint16_t(0x7e00u | ((u >> 13) & 0x3ffu)) : uint16_t(0x7c00u);
  } else if (u < 113u << 23) {  // result is subnormal or zero: let the FPU round at 2^-24
    const float magic = std::bit_cast<float>(((127u - 15u) + (23u - 10u) + 1u) << 23);
    out = uint16_t(std::bit_cast<uint32_t>(std::bit_cast<float>(u) + magic) - std::bit_cast<uint32_t>(magic));
  } else {
    const uint32_t mant_odd = (u >> 13) & 1u;
    u += ((15u - 127u) << 23) + 0xfffu + mant_odd;  // rebias exponent, round half to even
    out = uint16_t(u >> 13);
  }
  return uint16_t(out | (sign >> 16));
}

// float from IEEE binary16 bits; exact for every input.
inline float half_bits_to_float(uint16_t h) {
  const uint32_t shifted_exp = 0x7c00u << 13;
  uint32_t o = uint32_t(h & 0x7fffu) << 13;
  const uint32_t exp = shifted_exp & o;
  o += (127u - 15u) << 23;
  if (exp == shifted_exp) {
    o += (128u - 16u) << 23;  // inf/NaN
  } else if (exp == 0) {      // zero/subnormal: renormalise through the FPU
    o += 1u << 23;
    o = std::bit_cast<uint32_t>(std::bit_cast<float>(o) - std::bit_cast<float>(113u << 23));
  }
  return std::bit_cast<float>(o | (uint32_t(h & 0x8000u) << 16));
}

// bfloat16 bits from a float: round-to-nearest-even; NaN keeps its sign and becomes quiet.
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

inline float bf16_bits_to_float(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// Storage types. Arithmetic happens in float: both convert implicitly to and from float.
struct Half {
  uint16_t bits = 0;
  Half() = default;
  Half(float f) : bits(float_to_half_bits(f)) {}
  Half(double d) : Half(float(d)) {}
  template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  Half(I v) : Half(float(v)) {}
  operator float() const { return half_bits_to_float(bits); }
  static Half from_bits(uint16_t b) { Half h; h.bits = b; return h; }
};

struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  BFloat16(float f) : bits(float_to_bf16_bits(f)) {}
  BFloat16(double d) : BFloat16(float(d)) {}
  template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  BFloat16(I v) : BFloat16(float(v)) {}
  operator float() const { return bf16_bits_to_float(bits); }
  static BFloat16 from_bits(uint16_t b) { BFloat16 h; h.bits = b; return h; }
};

// Bulk conversions over [n] contiguous elements, vectorised at run time (F16C/AVX2, AVX-512 when the CPU
// has it); results are bit-identical to the scalar functions above.
void convert_float_to_half(const float* src, Half* dst, int64_t n);
void convert_half_to_float(const Half* src, float* dst, int64_t n);
void convert_float_to_bf16(const float* src, BFloat16* dst, int64_t n);
void convert_bf16_to_float(const BFloat16* src, float* dst, int64_t n);

// The instruction set the bulk converters chose on this CPU: "avx512", "avx2" or "scalar".
const char* half_convert_isa();

}  // namespace amps::rt
