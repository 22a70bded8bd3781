// dropout's scaling kernel: kept elements times 1/(1-p) in double, rounded once; dropped ones 0. The keep-mask
// is drawn on the host (common/nn_args.hpp) and uploaded, so a seed gives the CPU's mask. The three contiguous
// operands take the flat path when aligned (elementwise_path.hpp), else the strided one over one dim.
#include "runtime/backend/cuda/elementwise.cuh"

namespace amps::rt::cuda {
namespace {

template <typename T> __device__ __forceinline__ T dropout_value(T x, bool keep, double scale) {
  return keep ? convert<T>(double(widen(x)) * scale) : convert<T>(0.0);
}

// ops: out, in, keep (bool).
template <Path P, typename T> __global__ void dropout_kernel(Shape sh, Walk w, Ops<3> ops, double scale) {
  if constexpr (is_packed(P)) {
    constexpr int V = kPack<T>;
    for_each_pack<P, V>(sh, w, ops, [&](const PackAt<3>& at) {
      T x[V], r[V];
      bool keep[V];
      load_pack(ops, w, at, 1, x);
      load_pack(ops, w, at, 2, keep);
#pragma unroll
      for (int k = 0; k < V; ++k) r[k] = dropout_value(x[k], keep[k], scale);
      store_pack(ops, at, r);
    });
  } else {
    for_each_strided<P == Path::strided32>(sh, w, ops, [&](const auto& off) {
      static_cast<T*>(ops.o[0].data)[off[0]] =
          dropout_value(load<T>(ops.o[1], off[1]), load<bool>(ops.o[2], off[2]), scale);
    });
  }
}

Operand contiguous_operand(const void* p) {
  Operand o;
  o.data = const_cast<void*>(p);
  o.strides[0] = 1;
  return o;
}

}  // namespace

cudaError_t launch_dropout(cudaStream_t s, Elem t, const void* in, const bool* keep, void* out, int64_t n,
                           double scale) {
  if (n == 0) return cudaSuccess;
  Shape shape;
  shape.ndim = 1;
  shape.sizes[0] = shape.numel = n;
  Ops<3> ops{{contiguous_operand(out), contiguous_operand(in), contiguous_operand(keep)}};
  return with_float_elem(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    constexpr int b = sizeof(T);
    const Path path = choose_path(shape, ops.o, {b, b, 1}, kPack<T>);
    return launch_path(s, path, kPack<T>, shape, [](auto pt) { return dropout_kernel<decltype(pt)::value, T>; }, ops,
                       scale);
  });
}

}  // namespace amps::rt::cuda
