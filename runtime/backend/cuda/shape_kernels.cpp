// CUDA kernels for shape ops: the device-independent view and shape kernels (common/shape_kernels.hpp) with
// the device's copies, and tril/triu (shape.cu), as the CPU backend's runtime/backend/cpu/shape_kernels.cpp.
#include "runtime/backend/common/shape_kernels.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"

namespace amps::rt::cuda {
namespace {

// A contiguous copy of [self] keeping the entries on the kept side of diagonal [k] of the last two dims.
Tensor triangle(const Tensor& self, int64_t k, bool lower) {
  const common::TriangleLayout l = common::triangle_layout(self, lower);
  Tensor in = contiguous(self), out = Tensor::empty(self.sizes(), self.dtype(), self.device());
  check(launch_triangle(stream(self.device()), elem(self.dtype()), device_data(in), device_data(out), l.mats, l.rows,
                        l.cols, k, lower), lower ? "tril" : "triu");
  return out;
}

Tensors k_tril(const ArgReader& a, const KernelContext&) { return one_tensor(triangle(a.tensor(0), a.i64(1), true)); }
Tensors k_triu(const ArgReader& a, const KernelContext&) { return one_tensor(triangle(a.tensor(0), a.i64(1), false)); }

}  // namespace

void register_shape_kernels(KernelTable& t) {
  common::register_shape_kernels<cuda::reshape, cuda::copy_into>(t);
  t.add(OpId::tril, k_tril);
  t.add(OpId::triu, k_triu);
}

}  // namespace amps::rt::cuda
