// TensorImpl bookkeeping and the non-dispatching parts of Tensor (creation, metadata, autograd slot, item).
#include "runtime/tensor.hpp"

#include <cstring>

#include "runtime/autograd_meta.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/small_pool.hpp"
#include "runtime/print.hpp"

namespace amps::rt {

TensorImpl::TensorImpl(std::shared_ptr<Storage> storage, Dims sizes, Dims strides, int64_t offset, DType dtype)
    : storage_(std::move(storage)), offset_(offset), dtype_(dtype) {
  set_geometry(std::move(sizes), std::move(strides), offset);
}

TensorImpl::TensorImpl(Contiguous, std::shared_ptr<Storage> storage, Dims sizes, Dims strides, int64_t numel,
                       DType dtype)
    : storage_(std::move(storage)), sizes_(std::move(sizes)), strides_(std::move(strides)), offset_(0),
      numel_(numel), dtype_(dtype), contiguous_(true) {}

TensorImpl::~TensorImpl() = default;

void TensorImpl::set_geometry(Dims sizes, Dims strides, int64_t offset) {
  AMPS_ASSERT(sizes.size() == strides.size(), "sizes/strides rank mismatch {} vs {}", sizes.size(),
              strides.size());
  sizes_ = std::move(sizes);
  strides_ = std::move(strides);
  offset_ = offset;
  numel_ = numel_of(sizes_);
  contiguous_ = is_contiguous_layout(sizes_, strides_);
}

void TensorImpl::set_data(const TensorImpl& src) {
  if (&src == this) return;
  storage_ = src.storage_;
  sizes_ = src.sizes_;
  strides_ = src.strides_;
  offset_ = src.offset_;
  numel_ = src.numel_;
  dtype_ = src.dtype_;
  contiguous_ = src.contiguous_;
}

Tensor Tensor::empty(Dims sizes, DType dtype, Device device) {
  for (int64_t s : sizes) AMPS_CHECK(s >= 0, "Trying to create tensor with negative dimension {}: {}", s,
                                     format_shape(sizes));
  const int64_t numel = numel_of(sizes);
  int64_t nbytes = 0;
  AMPS_CHECK(!__builtin_mul_overflow(numel, int64_t(dtype_size(dtype)), &nbytes),
             "Storage size calculation overflowed with sizes={}", format_shape(sizes));
  auto storage = Storage::allocate(size_t(nbytes), device);
  Dims strides = contiguous_strides(sizes);
  return Tensor(std::allocate_shared<TensorImpl>(PoolAllocator<TensorImpl>{}, TensorImpl::Contiguous{},
                                                 std::move(storage), std::move(sizes), std::move(strides), numel,
                                                 dtype));
}

Tensor Tensor::empty_strided(const Dims& sizes, const Dims& strides, DType dtype, Device device) {
  int64_t extent = 1;
  for (size_t i = 0; i < sizes.size(); ++i) extent += (sizes[i] - 1) * strides[i];
  if (numel_of(sizes) == 0) extent = 0;
  auto storage = Storage::allocate(size_t(extent) * dtype_size(dtype), device);
  return Tensor(std::allocate_shared<TensorImpl>(PoolAllocator<TensorImpl>{}, std::move(storage), sizes, strides, 0,
                                                 dtype));
}

Tensor Tensor::scalar(Scalar v, std::optional<DType> dtype, Device device) {
  DType dt = dtype.value_or(v.default_dtype());
  Tensor t = Tensor::empty({}, dt, Device::cpu());
  AMPS_DISPATCH_ALL(dt, T, [&] { *t.data<T>() = v.to<T>(); });
  return device == Device::cpu() ? t : t.to(device);
}

Tensor Tensor::from_doubles(const std::vector<double>& values, const Dims& sizes, DType dtype, Device device) {
  AMPS_CHECK(int64_t(values.size()) == numel_of(sizes), "from_doubles: {} values for shape {}", values.size(),
             format_shape(sizes));
  Tensor t = Tensor::empty(sizes, dtype, Device::cpu());
  AMPS_DISPATCH_ALL(dtype, T, [&] {
    T* p = t.data<T>();
    // small integers through int64: -1.0 into uint8 is 255 (a direct conversion would be undefined)
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_integral_v<T> && sizeof(T) < 4 && !std::is_same_v<T, bool>)
        p[i] = static_cast<T>(static_cast<int64_t>(values[i]));
      else p[i] = static_cast<T>(values[i]);
    }
  });
  return device == Device::cpu() ? t : t.to(device);
}

int64_t Tensor::size(int64_t d) const { return sizes()[size_t(wrap_dim(d, dim()))]; }
int64_t Tensor::stride(int64_t d) const { return strides()[size_t(wrap_dim(d, dim()))]; }


bool Tensor::requires_grad() const {
  const AutogradMeta* m = autograd_meta();
  return m && (m->requires_grad || m->grad_fn);
}

Tensor& Tensor::set_requires_grad(bool r) {
  AMPS_CHECK(!r || is_floating_point(), "only Tensors of floating point dtype can require gradients (got {})",
             dtype_name(dtype()));
  AMPS_CHECK(is_leaf() || r, "you can only change requires_grad flags of leaf variables. If you want to use a "
                             "computed variable in a subgraph that doesn't require differentiation use "
                             "var_no_grad = var.detach().");
  ensure_autograd_meta().requires_grad = r;
  return *this;
}

Tensor Tensor::grad() const { return autograd_meta() ? autograd_meta()->grad : Tensor(); }

void Tensor::set_grad(const Tensor& g) {
  if (g.defined()) {
    AMPS_CHECK(g.sizes() == sizes(), "assigned grad has data of a different size: {} vs {}",
               format_shape(g.sizes()), format_shape(sizes()));
    AMPS_CHECK(g.device() == device(), "assigned grad has data located on a different device");
  }
  ensure_autograd_meta().grad = g;
}

void Tensor::set_data(const Tensor& src) {
  AMPS_CHECK(src.defined(), "set_data: the new data is not a tensor");
  impl_->set_data(*src.impl_);
}

bool Tensor::is_leaf() const { return !autograd_meta() || !autograd_meta()->grad_fn; }

AutogradMeta& Tensor::ensure_autograd_meta() {
  if (!impl_->autograd) impl_->autograd = std::make_unique<AutogradMeta>();
  return *impl_->autograd;
}

Scalar Tensor::item() const {
  AMPS_CHECK(numel() == 1, "a Tensor with {} elements cannot be converted to Scalar", numel());
  current_context().count_host_sync();
  Tensor host = device().is_host() ? *this : to(Device::cpu());
  return AMPS_DISPATCH_ALL(dtype(), T, [&]() -> Scalar {
    T v = *host.data<T>();
    if constexpr (std::is_same_v<T, bool>) return Scalar(v);
    else if constexpr (std::is_integral_v<T>) return Scalar(int64_t(v));
    else return Scalar(double(v));
  });
}

std::vector<double> Tensor::to_doubles() const {
  Tensor c = to(Device::cpu()).contiguous();
  std::vector<double> out(size_t(c.numel()));
  AMPS_DISPATCH_ALL(dtype(), T, [&] {
    const T* p = c.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = double(p[i]);
  });
  return out;
}

DType Scalar::default_dtype() const {
  return is_floating() ? rt::default_dtype() : is_integral() ? DType::int64 : DType::bool_;
}

std::string Scalar::repr() const {
  if (is_bool()) return i_ ? "True" : "False";
  if (is_integral()) return std::to_string(i_);
  return python_float_repr(d_);
}

}  // namespace amps::rt
