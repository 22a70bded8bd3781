// AMPS_HD: marks a function of the header-only code that both backends compile (the CPU loops with g++, the CUDA
// kernels with nvcc): host-and-device and inlined under nvcc, plain inline otherwise. No amps includes.
#pragma once

#ifdef __CUDACC__
#define AMPS_HD __host__ __device__ __forceinline__
#else
#define AMPS_HD inline
#endif
