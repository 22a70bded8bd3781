// Tensor.view(dtype): the same bytes seen as another dtype, pure metadata (every device), with PyTorch 1.13's rules
// and messages (aten view_dtype): equal element sizes keep any geometry; a different size needs a dimensioned tensor
// whose last dim is contiguous, and (growing) a last dim, storage offset and other strides divisible by the ratio.
#include <fmt/format.h>

#include <memory>

#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/common/shape_kernels.hpp"
#include "runtime/error.hpp"
#include "runtime/small_pool.hpp"

namespace amps::rt::common {
namespace {

// " to view Int as Long (different element sizes)": the tail every size-change message shares.
std::string view_as_text(DType from, DType to) {
  return fmt::format(" to view {} as {} (different element sizes)", torch_type_name(from), torch_type_name(to));
}

// A fresh TensorImpl of [dtype] over [t]'s storage (its version counter too, as every view's).
Tensor reinterpreted(const Tensor& t, DType dtype, Dims sizes, Dims strides, int64_t offset) {
  return Tensor(std::allocate_shared<TensorImpl>(PoolAllocator<TensorImpl>{}, t.storage(), std::move(sizes),
                                                 std::move(strides), offset, dtype));
}

void check_last_stride(const Tensor& t, DType to) {
  AMPS_CHECK(t.strides().back() == 1, "self.stride(-1) must be 1{}, but got {}", view_as_text(t.dtype(), to),
             t.strides().back());
}

// Smaller elements: the last dim grows by [ratio], the other strides and the offset scale up.
Tensor downsized(const Tensor& t, DType to, int64_t ratio) {
  check_last_stride(t, to);
  Dims sizes = t.sizes(), strides = t.strides();
  for (size_t d = 0; d + 1 < strides.size(); ++d) strides[d] *= ratio;
  strides.back() = 1;
  sizes.back() *= ratio;
  return reinterpreted(t, to, std::move(sizes), std::move(strides), t.storage_offset() * ratio);
}

// Larger elements: the last dim shrinks by [ratio]; its size, the offset and the other strides must divide.
Tensor upsized(const Tensor& t, DType to, int64_t ratio) {
  const std::string tail = view_as_text(t.dtype(), to);
  AMPS_CHECK(t.sizes().back() % ratio == 0, "self.size(-1) must be divisible by {}{}, but got {}", ratio, tail,
             t.sizes().back());
  AMPS_CHECK(t.storage_offset() % ratio == 0, "self.storage_offset() must be divisible by {}{}, but got {}", ratio,
             tail, t.storage_offset());
  check_last_stride(t, to);
  Dims sizes = t.sizes(), strides = t.strides();
  for (size_t d = 0; d + 1 < strides.size(); ++d) {
    AMPS_CHECK(strides[d] % ratio == 0, "self.stride({}) must be divisible by {}{}, but got {}", d, ratio, tail,
               strides[d]);
    strides[d] /= ratio;
  }
  strides.back() = 1;
  sizes.back() /= ratio;
  return reinterpreted(t, to, std::move(sizes), std::move(strides), t.storage_offset() / ratio);
}

Tensors k_view_dtype(const ArgReader& a, const KernelContext&) {
  const Tensor& t = a.tensor(0);
  const DType to = *a.opt_dtype(1);  // required by the schema
  const int64_t from_size = int64_t(dtype_size(t.dtype())), to_size = int64_t(dtype_size(to));
  if (from_size == to_size) return {reinterpreted(t, to, t.sizes(), t.strides(), t.storage_offset())};
  AMPS_CHECK(t.dim() > 0, "self.dim() cannot be 0{}", view_as_text(t.dtype(), to));
  return {from_size > to_size ? downsized(t, to, from_size / to_size) : upsized(t, to, to_size / from_size)};
}

}  // namespace

void register_view_dtype_kernel(cpu::KernelTable& t) { t.add(OpId::view_dtype, k_view_dtype); }

}  // namespace amps::rt::common
