// Broadcasting binary kernels: arithmetic in the compute type (float for half types), comparisons to bool.
#include "runtime/backend/cuda/elementwise.cuh"

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

// One element of an arithmetic op (add .. atan2) in the compute type, rounded once into T.
template <typename T> __device__ __forceinline__ T binary_value(BinOp op, T x, T y, bin_compute_t<T> al) {
  using C = bin_compute_t<T>;
  return convert<T>(arith(op, C(widen(x)), C(widen(y)), al));
}
template <typename T> __device__ __forceinline__ bool binary_pred(BinOp op, T x, T y) {
  using C = bin_compute_t<T>;
  return compare(op, C(widen(x)), C(widen(y)));
}

// out = x op y on path P; the op is the compile-time kOp when it is not -1 (the hot ones, packed paths only: no
// switch per element).
template <Path P, typename T, int kOp>
__global__ void binary_kernel(Shape sh, Walk w, Ops<3> ops, BinOp rt_op, double alpha) {
  using C = bin_compute_t<T>;
  const BinOp op = kOp < 0 ? rt_op : BinOp(kOp);
  const C al = C(alpha);
  const bool to_bool = op >= BinOp::eq;
  if constexpr (is_packed(P)) {
    constexpr int V = kPack<T>;
    for_each_pack<P, V>(sh, w, ops, [&](const PackAt<3>& at) {
      T x[V], y[V];
      load_pack(ops, w, at, 1, x);
      load_pack(ops, w, at, 2, y);
      if (to_bool) {
        bool r[V];
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = binary_pred(op, x[k], y[k]);
        store_pack(ops, at, r);
      } else {
        T r[V];
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = binary_value(op, x[k], y[k], al);
        store_pack(ops, at, r);
      }
    });
  } else {
    for_each_strided<P == Path::strided32>(sh, w, ops, [&](const auto& off) {
      const T x = load<T>(ops.o[1], off[1]), y = load<T>(ops.o[2], off[2]);
      if (to_bool) static_cast<bool*>(ops.o[0].data)[off[0]] = binary_pred(op, x, y);
      else static_cast<T*>(ops.o[0].data)[off[0]] = binary_value(op, x, y, al);
    });
  }
}

// The packed kernel of a hot op (add, sub, mul, div on a float type) with the op fixed at compile time.
template <typename T, BinOp kOp> cudaError_t launch_hot(cudaStream_t s, Path path, const Shape& sh, const Ops<3>& ops,
                                                        double alpha) {
  const Walk w = make_walk(path, sh, ops.o);
  const unsigned g = path_grid(path, sh, kPack<T>);
  if (path == Path::flat) binary_kernel<Path::flat, T, int(kOp)><<<g, kThreads, 0, s>>>(sh, w, ops, kOp, alpha);
  else binary_kernel<Path::rows, T, int(kOp)><<<g, kThreads, 0, s>>>(sh, w, ops, kOp, alpha);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_binary(cudaStream_t s, BinOp op, Elem t, const Shape& shape, const Operand& out,
                          const Operand& x, const Operand& y, double alpha) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<3> ops{{out, x, y}};
  return with_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    constexpr int V = kPack<T>, b = sizeof(T);
    const Path path = choose_path(shape, ops.o, {op >= BinOp::eq ? 1 : b, b, b}, V);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      if (is_packed(path)) {
        switch (op) {
          case BinOp::add: return launch_hot<T, BinOp::add>(s, path, shape, ops, alpha);
          case BinOp::sub: return launch_hot<T, BinOp::sub>(s, path, shape, ops, alpha);
          case BinOp::mul: return launch_hot<T, BinOp::mul>(s, path, shape, ops, alpha);
          case BinOp::div: return launch_hot<T, BinOp::div>(s, path, shape, ops, alpha);
          default: break;
        }
      }
    }
    return launch_path(s, path, V, shape, [](auto pt) { return binary_kernel<decltype(pt)::value, T, -1>; }, ops, op,
                       alpha);
  });
}

}  // namespace amps::rt::cuda
