// The cast/copy kernel: every (destination, source) element type pair, broadcasting by stride 0, on every path
// (elementwise_path.hpp).
#include "runtime/backend/cuda/elementwise.cuh"

namespace amps::rt::cuda {
namespace {

template <Path P, typename To, typename From> __global__ void cast_kernel(Shape sh, Walk w, Ops<2> ops) {
  if constexpr (is_packed(P)) {
    constexpr int V = kPack<To, From>;
    for_each_pack<P, V>(sh, w, ops, [&](const PackAt<2>& at) {
      From x[V];
      To r[V];
      load_pack(ops, w, at, 1, x);
#pragma unroll
      for (int k = 0; k < V; ++k) r[k] = convert<To>(x[k]);
      store_pack(ops, at, r);
    });
  } else {
    for_each_strided<P == Path::strided32>(sh, w, ops, [&](const auto& off) {
      static_cast<To*>(ops.o[0].data)[off[0]] = convert<To>(load<From>(ops.o[1], off[1]));
    });
  }
}

}  // namespace

cudaError_t launch_cast(cudaStream_t s, const Shape& shape, Elem dst_t, const Operand& dst, Elem src_t,
                        const Operand& src) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<2> ops{{dst, src}};
  return with_elem(dst_t, [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    return with_elem(src_t, [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      constexpr int V = kPack<To, From>;
      const Path path = choose_path(shape, ops.o, {int(sizeof(To)), int(sizeof(From))}, V);
      return launch_path(s, path, V, shape, [](auto pt) { return cast_kernel<decltype(pt)::value, To, From>; }, ops);
    });
  });
}

}  // namespace amps::rt::cuda
