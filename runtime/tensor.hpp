// Tensor: a refcounted handle to TensorImpl (storage + sizes/strides/offset + dtype + autograd slot).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/device.hpp"
#include "runtime/dims.hpp"
#include "runtime/dtype.hpp"
#include "runtime/scalar.hpp"
#include "runtime/storage.hpp"

namespace amps::rt {

struct AutogradMeta;
class Tensor;

// The shared state behind Tensor handles. Views get their own TensorImpl over the same Storage.
// Sizes/strides are in elements; [offset] is the element offset of index (0, ..., 0) in the storage.
class TensorImpl {
 public:
  TensorImpl(std::shared_ptr<Storage> storage, Dims sizes, Dims strides, int64_t offset, DType dtype);
  // A fresh contiguous tensor: [strides] are contiguous_strides(sizes), [numel] their product.
  struct Contiguous {};
  TensorImpl(Contiguous, std::shared_ptr<Storage> storage, Dims sizes, Dims strides, int64_t numel, DType dtype);
  ~TensorImpl();

  const std::shared_ptr<Storage>& storage() const { return storage_; }
  const Dims& sizes() const { return sizes_; }
  const Dims& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  DType dtype() const { return dtype_; }
  int64_t numel() const { return numel_; }
  bool is_contiguous() const { return contiguous_; }
  // Replaces the geometry (used by resize/in-place reshaping ops); recomputes numel and contiguity.
  void set_geometry(Dims sizes, Dims strides, int64_t offset);
  void set_storage(std::shared_ptr<Storage> s) { storage_ = std::move(s); }
  // Takes over [src]'s storage, geometry and dtype (PyTorch's set_data): this tensor object, its autograd
  // identity and flags stay; what it holds becomes src's (shared, not copied).
  void set_data(const TensorImpl& src);

  // A Python number that the binding layer wrapped into a 0-dim tensor: lowest promotion priority.
  bool is_wrapped_number = false;
  // Registered as a module parameter (nn.Parameter): stays one when its requires_grad is turned off (frozen).
  bool is_parameter = false;
  // Null until autograd first touches the tensor (requires_grad, grad, grad_fn).
  std::unique_ptr<AutogradMeta> autograd;

 private:
  std::shared_ptr<Storage> storage_;
  Dims sizes_, strides_;
  int64_t offset_;
  int64_t numel_ = 1;
  DType dtype_;
  bool contiguous_ = true;
};

// A value-semantics handle: copying a Tensor shares the impl (like a Python reference). A default
// Tensor is "undefined" (None in schema terms). Methods that compute dispatch through rt::dispatch, so
// dispatch layers (autocast, autograd) see them; metadata accessors do not dispatch.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // Uninitialised tensor with contiguous strides. Throws for cuda in a CPU-only build.
  static Tensor empty(Dims sizes, DType dtype = DType::float32, Device device = Device::cpu());
  static Tensor empty_strided(const Dims& sizes, const Dims& strides, DType dtype, Device device);
  // A 0-dim tensor holding [v] in [dtype] (the dtype of the number when omitted).
  static Tensor scalar(Scalar v, std::optional<DType> dtype = std::nullopt, Device device = Device::cpu());
  // Copies [values] (row-major) into a new tensor of [sizes] converted to [dtype].
  static Tensor from_doubles(const std::vector<double>& values, const Dims& sizes,
                             DType dtype = DType::float32, Device device = Device::cpu());

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  // ---- metadata (no dispatch) ----
  const Dims& sizes() const { return impl_->sizes(); }
  const Dims& strides() const { return impl_->strides(); }
  int64_t dim() const { return int64_t(impl_->sizes().size()); }
  int64_t numel() const { return impl_->numel(); }
  // size/stride of dimension [d]; negative [d] counts from the end; IndexError when out of range.
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  int64_t storage_offset() const { return impl_->offset(); }
  DType dtype() const { return impl_->dtype(); }
  Device device() const { return impl_->storage()->device(); }
  size_t element_size() const { return dtype_size(dtype()); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  bool is_floating_point() const { return is_floating(dtype()); }
  const std::shared_ptr<Storage>& storage() const { return impl_->storage(); }
  // Host address of element (0, ..., 0); only for host devices. Inline: kernels read it per operand.
  void* raw_data() const {
    const Storage& s = *storage();
    AMPS_ASSERT(s.device().is_host(), "raw_data() on a {} tensor", device_str(s.device()));
    char* base = static_cast<char*>(s.data());
    return base ? base + storage_offset() * int64_t(element_size()) : nullptr;
  }
  template <typename T> T* data() const { return static_cast<T*>(raw_data()); }

  // ---- version counter (shared with views) ----
  uint32_t version() const { return storage()->version(); }
  void bump_version() const { storage()->bump_version(); }

  // ---- autograd slot; the engine in runtime/autograd/ gives these their meaning ----
  bool requires_grad() const;
  // Marks a leaf as needing gradients; RuntimeError for non-floating dtypes, like PyTorch.
  Tensor& set_requires_grad(bool r);
  // The accumulated gradient (undefined until backward writes one).
  Tensor grad() const;
  void set_grad(const Tensor& g);
  // `t.data = src`: t keeps its identity (autograd metadata, parameter flag) and holds src's data from now on.
  void set_data(const Tensor& src);
  bool is_leaf() const;
  AutogradMeta* autograd_meta() const { return impl_->autograd.get(); }
  AutogradMeta& ensure_autograd_meta();

  // ---- host reads; each counts as a host sync on the current Context ----
  // The single element as a Python number; RuntimeError unless numel() == 1.
  Scalar item() const;
  template <typename T> T item() const { return item().to<T>(); }
  // All elements in row-major order as doubles (test and printing helper).
  std::vector<double> to_doubles() const;

  // ---- dispatched views (share storage; see LANGUAGE.md §4) ----
  Tensor view(const Dims& size) const;
  Tensor reshape(const Dims& shape) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(const Dims& dims) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor expand(const Dims& size) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor contiguous() const;
  Tensor detach() const;

  // ---- dispatched conversions and common in-place ops ----
  Tensor to(DType dtype) const;
  Tensor to(Device device) const;
  Tensor clone() const;
  Tensor& copy_(const Tensor& src);
  Tensor& zero_();
  Tensor& fill_(Scalar value);

 private:
  std::shared_ptr<TensorImpl> impl_;
};

}  // namespace amps::rt
