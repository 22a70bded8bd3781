// Ternary elementwise kernels (addcmul, addcdiv, lerp, where, threshold), one per element type, op switch inside.
#include "runtime/backend/cuda/device_common.cuh"

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

template <typename T> __global__ void ternary_kernel(TernOp op, Shape sh, Ops<4> ops, double value) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
  const C v = C(value);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < sh.numel; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[4];
    offsets(sh, ops, i, off);
    T* out = static_cast<T*>(ops.o[0].data) + off[0];
    if (op == TernOp::threshold) {
      const bool keep = !(C(widen(load<T>(ops.o[2], off[2]))) <= v);  // PyTorch: NaN self keeps it
      *out = keep ? load<T>(ops.o[1], off[1]) : convert<T>(C(0));
      continue;
    }
    if (op == TernOp::where) {
      *out = load<bool>(ops.o[1], off[1]) ? load<T>(ops.o[2], off[2]) : load<T>(ops.o[3], off[3]);
      continue;
    }
    const C a = C(widen(load<T>(ops.o[1], off[1]))), b = C(widen(load<T>(ops.o[2], off[2])));
    const C c = C(widen(load<T>(ops.o[3], off[3])));
    *out = convert<T>(ternary_op(op, a, b, c, v));
  }
}

}  // namespace

cudaError_t launch_ternary(cudaStream_t s, TernOp op, Elem t, const Shape& shape, const Operand& out,
                           const Operand& x, const Operand& y, const Operand& z, double value) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<4> ops{{out, x, y, z}};
  return with_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    ternary_kernel<T><<<grid_for(shape.numel), kThreads, 0, s>>>(op, shape, ops, value);
    return cudaGetLastError();
  });
}

}  // namespace amps::rt::cuda
