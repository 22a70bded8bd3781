// Runtime choice of instruction set for the CPU backend's plain C++ loops: the project builds for baseline
// x86-64 (binaries run on any x86-64), and a loop run through vectorized() is compiled three times, for
// AVX-512, AVX2 and baseline, the widest this CPU has running it.
#pragma once

#include <cstdint>

namespace amps::rt::cpu {

enum class Isa : uint8_t { base, avx2, avx512 };

// The widest of the three this CPU supports (AVX-512 needs F, BW, VL and DQ), read once; the environment
// variable AMPS_CPU_CAPABILITY=default|avx2 caps it (tests run the loops' other builds with it).
Isa cpu_isa();

namespace simd_detail {
// [f] and everything it calls that the compiler can see is inlined (flatten) and compiled for the target, so
// its loops vectorise for it. The results are those of the baseline build bit for bit: amps compiles with
// -ffp-contract=off (no a*b+c fused into an FMA, which AVX-512 has), and vectorised IEEE add/sub/mul/div/sqrt
// round as the scalar ones do.
template <typename F> [[gnu::target("avx512f,avx512bw,avx512vl,avx512dq"), gnu::flatten]] void avx512(F& f) { f(); }
template <typename F> [[gnu::target("avx2"), gnu::flatten]] void avx2(F& f) { f(); }
template <typename F> [[gnu::flatten]] void base(F& f) { f(); }
}  // namespace simd_detail

// Runs [f] (a lambda with the loop inside; no OpenMP region in it, whose body the compiler outlines before
// inlining) compiled for cpu_isa().
template <typename F> void vectorized(F&& f) {
  switch (cpu_isa()) {
    case Isa::avx512: return simd_detail::avx512(f);
    case Isa::avx2: return simd_detail::avx2(f);
    case Isa::base: return simd_detail::base(f);
  }
}

}  // namespace amps::rt::cpu
