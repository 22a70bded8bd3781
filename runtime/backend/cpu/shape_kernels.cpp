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
  AMPS_CHECK(self.dim() >= 2, "{}: input tensor must have at least 2 dimensions", lower ? "tril" : "triu");
  Tensor out = Tensor::empty(self.sizes(), self.dtype(), self.device());
  copy_into(out, self);
  const int64_t rows = self.size(-2), cols = self.size(-1), mats = rows * cols != 0 ? out.numel() / (rows * cols) : 0;
  AMPS_DISPATCH_ALL(out.dtype(), T, [&] {
    T* p = out.data<T>();
    for (int64_t m = 0; m < mats; ++m)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          if (lower ? j - i > k : j - i < k) p[(m * rows + i) * cols + j] = T(0);
  });
  return out;
}

Tensors k_tril(const ArgReader& a, const KernelContext&) { return {triangle(a.tensor(0), a.i64(1), true)}; }
Tensors k_triu(const ArgReader& a, const KernelContext&) { return {triangle(a.tensor(0), a.i64(1), false)}; }

}  // namespace

void register_shape_kernels(KernelTable& t) {
  common::register_shape_kernels<reshape, copy_into>(t);
  t.add(OpId::tril, k_tril);
  t.add(OpId::triu, k_triu);
}

}  // namespace amps::rt::cpu
