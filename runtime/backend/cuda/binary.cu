// Broadcasting binary kernels: arithmetic in the compute type (float for half types), comparisons to bool.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename C> __device__ __forceinline__ C py_mod(C a, C b) {
  C r;
  if constexpr (std::is_floating_point_v<C>) r = fmod(a, b);
  else r = b == C(0) ? C(0) : C(a % b);
  if constexpr (std::is_signed_v<C>)  // unsigned (uint8) remainders have no sign to fix up
    if (r != C(0) && ((r < C(0)) != (b < C(0)))) r += b;
  return r;
}

// C's remainder (the sign of the dividend), torch.fmod's.
template <typename C> __device__ __forceinline__ C c_mod(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return fmod(a, b);
  else return b == C(0) ? C(0) : C(a % b);
}

template <typename C> __device__ __forceinline__ C floor_div(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return floor(a / b);
  else {
    if (b == C(0)) return C(0);  // the CPU backend raises ZeroDivisionError; a kernel cannot
    C q = a / b;
    if constexpr (std::is_signed_v<C>) return (a % b != C(0) && ((a < C(0)) != (b < C(0)))) ? C(q - 1) : q;
    else return q;
  }
}

// A negative exponent gives PyTorch's integer results (as the CPU kernel): 1 for base 1, +-1 for base -1, else 0.
template <typename C> __device__ __forceinline__ C int_pow(C base, C exp) {
  if constexpr (std::is_signed_v<C>)
    if (exp < C(0)) return base == C(1) ? C(1) : base == C(-1) ? C((exp & 1) ? -1 : 1) : C(0);
  C r = 1;
  for (; exp > C(0); exp >>= 1, base *= base)
    if (exp & 1) r *= base;
  return r;
}

template <typename C> __device__ __forceinline__ C arith(BinOp op, C a, C b, C al) {
  switch (op) {
    case BinOp::add: return C(a + al * b);
    case BinOp::sub: return C(a - al * b);
    case BinOp::mul: return C(a * b);
    case BinOp::div: return C(a / b);
    case BinOp::div_trunc:
      if constexpr (std::is_floating_point_v<C>) return trunc(a / b);
      else return b == C(0) ? C(0) : C(a / b);
    case BinOp::div_floor: return floor_div(a, b);
    case BinOp::rem: return py_mod(a, b);
    case BinOp::fmod: return c_mod(a, b);
    case BinOp::pow:
      if constexpr (std::is_floating_point_v<C>) return pow(a, b);
      else return int_pow(a, b);
    // a on ties (maximum(0.0, -0.0) is 0.0, as PyTorch's)
    case BinOp::max: return (a != a || a >= b) ? a : b;
    case BinOp::min: return (a != a || a <= b) ? a : b;
    case BinOp::atan2:
      if constexpr (std::is_floating_point_v<C>) return atan2(a, b);
      else return C(0);  // integer inputs are computed in float32 (binary_kernels.cpp)
    default: return C(0);
  }
}

template <typename C> __device__ __forceinline__ bool compare(BinOp op, C a, C b) {
  switch (op) {
    case BinOp::eq: return a == b;
    case BinOp::ne: return a != b;
    case BinOp::lt: return a < b;
    case BinOp::le: return a <= b;
    case BinOp::gt: return a > b;
    case BinOp::ge: return a >= b;
    case BinOp::land: return a != C(0) && b != C(0);
    case BinOp::lor: return a != C(0) || b != C(0);
    default: return false;
  }
}

// bool arithmetic runs in int (then any nonzero is true), as C++ promotes bool on the CPU backend.
template <typename T> using bin_compute_t = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;

template <typename T> __global__ void binary_kernel(BinOp op, Shape sh, Ops<3> ops, double alpha) {
  using C = bin_compute_t<T>;
  const C al = C(alpha);
  const bool to_bool = op >= BinOp::eq;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < sh.numel; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    offsets(sh, ops, i, off);
    const C a = C(widen(load<T>(ops.o[1], off[1]))), b = C(widen(load<T>(ops.o[2], off[2])));
    if (to_bool) static_cast<bool*>(ops.o[0].data)[off[0]] = compare(op, a, b);
    else static_cast<T*>(ops.o[0].data)[off[0]] = convert<T>(arith(op, a, b, al));
  }
}

}  // namespace

cudaError_t launch_binary(cudaStream_t s, BinOp op, Elem t, const Shape& shape, const Operand& out,
                          const Operand& x, const Operand& y, double alpha) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<3> ops{{out, x, y}};
  return with_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    binary_kernel<T><<<grid_for(shape.numel), kThreads, 0, s>>>(op, shape, ops, alpha);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
