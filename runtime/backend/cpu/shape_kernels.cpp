// CPU kernels for shape ops: the device-independent view and shape kernels (common/shape_kernels.hpp) with
// the CPU's copies, and tril/triu.
#include "runtime/backend/common/shape_kernels.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cpu {
namespace {

// Copies [self] keeping entries on the kept side of diagonal [k] of the last two dims.
Tensor triangle(const Tensor& self, int64_t k, bool lower) {
  const common::TriangleLayout l = common::triangle_layout(self, lower);
  Tensor out = Tensor::empty(self.sizes(), self.dtype(), self.device());
  copy_into(out, self);
  AMPS_DISPATCH_ALL(out.dtype(), T, [&] {
    T* p = out.data<T>();
    for (int64_t m = 0; m < l.mats; ++m)
      for (int64_t i = 0; i < l.rows; ++i)
        for (int64_t j = 0; j < l.cols; ++j)
          if (!common::triangle_keeps(i, j, k, lower)) p[(m * l.rows + i) * l.cols + j] = T(0);
  });
  return out;
}

Tensors k_tril(const ArgReader& a, const KernelContext&) { return one_tensor(triangle(a.tensor(0), a.i64(1), true)); }
Tensors k_triu(const ArgReader& a, const KernelContext&) { return one_tensor(triangle(a.tensor(0), a.i64(1), false)); }

}  // namespace

void register_shape_kernels(KernelTable& t) {
  common::register_shape_kernels<reshape, copy_into>(t);
  t.add(OpId::tril, k_tril);
  t.add(OpId::triu, k_triu);
}

}  // namespace amps::rt::cpu
