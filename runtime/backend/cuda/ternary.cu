// Ternary elementwise kernels (addcmul, addcdiv, lerp, where, threshold), one per element type, op switch inside.
#include "runtime/backend/cuda/elementwise.cuh"

namespace amps::rt::cuda {
namespace {

// The CPU backend's formulas in compute_t<T> (int for bool).
template <typename C> __device__ __forceinline__ C ternary_op(TernOp op, C a, C b, C c, C v) {
  switch (op) {
    case TernOp::addcmul: return C(a + v * b * c);
    case TernOp::addcdiv: return C(a + v * (b / c));
    case TernOp::lerp:
      if constexpr (std::is_floating_point_v<C>)
        return fabs(double(c)) < 0.5 ? C(a + c * (b - a)) : C(b - (b - a) * (C(1) - c));
      return a;
    default: return a;
  }
}

// One element of addcmul, addcdiv or lerp, rounded once into T.
template <typename T, typename C> __device__ __forceinline__ T ternary_value(TernOp op, T x, T y, T z, C v) {
  return convert<T>(ternary_op(op, C(widen(x)), C(widen(y)), C(widen(z)), v));
}

// threshold_backward's element: 0 where self <= value, else the gradient (PyTorch: a NaN self keeps it).
template <typename T, typename C> __device__ __forceinline__ T threshold_value(T grad, T self, C v) {
  return !(C(widen(self)) <= v) ? grad : convert<T>(C(0));
}

// out = op(x, y, z) on path P (where: x is the bool condition; threshold: z is not read).
template <Path P, typename T> __global__ void ternary_kernel(Shape sh, Walk w, Ops<4> ops, TernOp op, double value) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
  const C v = C(value);
  if constexpr (is_packed(P)) {
    constexpr int V = kPack<T>;
    for_each_pack<P, V>(sh, w, ops, [&](const PackAt<4>& at) {
      T y[V], r[V];
      load_pack(ops, w, at, 2, y);
      if (op == TernOp::where) {
        bool c[V];
        T z[V];
        load_pack(ops, w, at, 1, c);
        load_pack(ops, w, at, 3, z);
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = c[k] ? y[k] : z[k];
      } else if (op == TernOp::threshold) {
        T x[V];
        load_pack(ops, w, at, 1, x);
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = threshold_value(x[k], y[k], v);
      } else {
        T x[V], z[V];
        load_pack(ops, w, at, 1, x);
        load_pack(ops, w, at, 3, z);
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = ternary_value(op, x[k], y[k], z[k], v);
      }
      store_pack(ops, at, r);
    });
  } else {
    for_each_strided<P == Path::strided32>(sh, w, ops, [&](const auto& off) {
      T* out = static_cast<T*>(ops.o[0].data) + off[0];
      if (op == TernOp::threshold) *out = threshold_value(load<T>(ops.o[1], off[1]), load<T>(ops.o[2], off[2]), v);
      else if (op == TernOp::where)
        *out = load<bool>(ops.o[1], off[1]) ? load<T>(ops.o[2], off[2]) : load<T>(ops.o[3], off[3]);
      else *out = ternary_value(op, load<T>(ops.o[1], off[1]), load<T>(ops.o[2], off[2]), load<T>(ops.o[3], off[3]), v);
    });
  }
}

}  // namespace

cudaError_t launch_ternary(cudaStream_t s, TernOp op, Elem t, const Shape& shape, const Operand& out,
                           const Operand& x, const Operand& y, const Operand& z, double value) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<4> ops{{out, x, y, z}};
  return with_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    constexpr int b = sizeof(T);
    const Path path = choose_path(shape, ops.o, {b, op == TernOp::where ? 1 : b, b, b}, kPack<T>);
    return launch_path(s, path, kPack<T>, shape, [](auto pt) { return ternary_kernel<decltype(pt)::value, T>; }, ops,
                       op, value);
  });
}

}  // namespace amps::rt::cuda
