// The strided cast/copy kernel: every (destination, source) element type pair, broadcasting by stride 0.
#include "runtime/backend/cuda/device_common.cuh"

namespace amps::rt::cuda {
namespace {

template <typename To, typename From> __global__ void cast_kernel(Shape sh, Ops<2> ops) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < sh.numel; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    offsets(sh, ops, i, off);
    static_cast<To*>(ops.o[0].data)[off[0]] = convert<To>(load<From>(ops.o[1], off[1]));
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
      cast_kernel<To, From><<<grid_for(shape.numel), kThreads, 0, s>>>(shape, ops);
      return cudaGetLastError();
    });
  });
}

}  // namespace amps::rt::cuda
