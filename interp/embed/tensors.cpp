// The embedding API's tensors: wrapping or copying host buffers, describing and reading tensors.
#include <fmt/format.h>

#include <cstring>

#include "interp/embed/handles.hpp"
#include "interp/tensor_value.hpp"

using namespace amps::interp;
using namespace amps::interp::embed;
namespace rt = amps::rt;

static_assert(AMPS_FLOAT64 == int(rt::DType::float64) && AMPS_FLOAT32 == int(rt::DType::float32) &&
              AMPS_FLOAT16 == int(rt::DType::float16) && AMPS_BFLOAT16 == int(rt::DType::bfloat16) &&
              AMPS_INT64 == int(rt::DType::int64) && AMPS_INT32 == int(rt::DType::int32) &&
              AMPS_BOOL == int(rt::DType::bool_) && AMPS_UINT8 == int(rt::DType::uint8) &&
              AMPS_INT8 == int(rt::DType::int8) && AMPS_INT16 == int(rt::DType::int16) &&
              AMPS_INT16 + 1 == rt::dtype_count,
              "amps_dtype follows runtime/dtype.def");

namespace {

constexpr int kDTypeCount = AMPS_INT16 + 1;

struct Layout {
  rt::Dims sizes, strides;
  size_t nbytes = 0;   // the bytes the layout spans from element (0, ..., 0)
};

// Checks a host-described layout and computes its extent; returns a message when it is invalid.
std::string describe_layout(amps_dtype dtype, size_t ndim, const int64_t* shape, const int64_t* strides, Layout& out) {
  if (int(dtype) < 0 || int(dtype) >= kDTypeCount) return fmt::format("dtype {} is not an amps_dtype", int(dtype));
  if (ndim && !shape) return "shape is NULL";
  out.sizes.assign(shape, shape + ndim);
  out.strides.assign(ndim, 1);
  for (size_t i = ndim; i-- > 0;) {
    if (out.sizes[i] < 0) return fmt::format("shape[{}] is negative ({})", i, out.sizes[i]);
    if (strides && strides[i] < 0) return fmt::format("strides[{}] is negative ({})", i, strides[i]);
    out.strides[i] = strides ? strides[i] : (i + 1 < ndim ? out.strides[i + 1] * std::max<int64_t>(out.sizes[i + 1], 1) : 1);
  }
  int64_t last = 0;
  for (size_t i = 0; i < ndim; ++i) {
    if (out.sizes[i] == 0) {
      out.nbytes = 0;
      return "";
    }
    last += (out.sizes[i] - 1) * out.strides[i];
  }
  out.nbytes = size_t(last + 1) * rt::dtype_size(rt::DType(dtype));
  return "";
}

rt::Tensor tensor_over(void* data, amps_dtype dtype, const Layout& l, std::function<void(void*)> release) {
  auto storage = rt::Storage::adopt(data, l.nbytes, rt::Device::cpu(), std::move(release));
  return rt::Tensor(std::make_shared<rt::TensorImpl>(storage, l.sizes, l.strides, 0, rt::DType(dtype)));
}

}  // namespace

extern "C" {

amps_status amps_tensor_wrap(amps_vm* vm, void* data, amps_dtype dtype, size_t ndim, const int64_t* shape,
                             const int64_t* strides, amps_release_fn release, void* release_user, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    Layout l;
    std::string why = describe_layout(dtype, ndim, shape, strides, l);
    if (!why.empty() || !out || (!data && l.nbytes)) return misuse(in, "amps_tensor_wrap: " + (why.empty() ? "data or out is NULL" : why));
    std::function<void(void*)> rel;
    if (release) rel = [release, release_user](void* p) { release(release_user, p); };
    *out = new_handle(wrap(tensor_over(data, dtype, l, std::move(rel))));
    return AMPS_OK;
  });
}

amps_status amps_tensor_copy(amps_vm* vm, const void* data, amps_dtype dtype, size_t ndim, const int64_t* shape,
                             const int64_t* strides, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    Layout l;
    std::string why = describe_layout(dtype, ndim, shape, strides, l);
    if (!why.empty() || !out || (!data && l.nbytes)) return misuse(in, "amps_tensor_copy: " + (why.empty() ? "data or out is NULL" : why));
    rt::Tensor src = tensor_over(const_cast<void*>(data), dtype, l, nullptr);
    rt::Tensor t = rt::Tensor::empty(l.sizes, rt::DType(dtype), rt::Device::cpu());
    if (t.numel()) t.copy_(src);
    *out = new_handle(wrap(t));
    return AMPS_OK;
  });
}

amps_status amps_tensor_empty(amps_vm* vm, amps_dtype dtype, size_t ndim, const int64_t* shape, amps_value** out) {
  return guarded(vm, [&](Interp& in) {
    Layout l;
    std::string why = describe_layout(dtype, ndim, shape, nullptr, l);
    if (!why.empty() || !out) return misuse(in, "amps_tensor_empty: " + (why.empty() ? "out is NULL" : why));
    *out = new_handle(wrap(rt::Tensor::empty(l.sizes, rt::DType(dtype), rt::Device::cpu())));
    return AMPS_OK;
  });
}

const char* amps_dtype_name(amps_dtype dtype) {
  return int(dtype) >= 0 && int(dtype) < kDTypeCount ? rt::dtype_name(rt::DType(dtype)).data() : nullptr;
}

size_t amps_dtype_size(amps_dtype dtype) {
  return int(dtype) >= 0 && int(dtype) < kDTypeCount ? rt::dtype_size(rt::DType(dtype)) : 0;
}

amps_status amps_tensor_info_get(amps_vm* vm, const amps_value* v, amps_tensor_info* out) {
  return guarded(vm, [&](Interp& in) {
    const rt::Tensor* t = v ? tensor_of(value_of(v)) : nullptr;
    if (!t || !out) return misuse(in, fmt::format("amps_tensor_info_get: expected a tensor, got {}", v ? type_name(value_of(v)) : "NULL"));
    rt::Device d = t->device();
    *out = {amps_dtype(t->dtype()), size_t(t->dim()), t->sizes().data(), t->strides().data(),
            d.is_host() ? t->raw_data() : nullptr, rt::device_type_name(d.type).data(), d.index, t->numel()};
    return AMPS_OK;
  });
}

amps_status amps_tensor_read(amps_vm* vm, const amps_value* v, amps_dtype dtype, void* buf, size_t nbytes) {
  return guarded(vm, [&](Interp& in) {
    const rt::Tensor* t = v ? tensor_of(value_of(v)) : nullptr;
    if (!t) return misuse(in, fmt::format("amps_tensor_read: expected a tensor, got {}", v ? type_name(value_of(v)) : "NULL"));
    if (int(dtype) < 0 || int(dtype) >= kDTypeCount || rt::DType(dtype) != t->dtype())
      return misuse(in, fmt::format("amps_tensor_read: the tensor is {}, the buffer's dtype is {}; convert in the script with .to(dtype)",
                                    rt::dtype_name(t->dtype()), int(dtype) >= 0 && int(dtype) < kDTypeCount ? rt::dtype_name(rt::DType(dtype)) : "invalid"));
    size_t need = size_t(t->numel()) * t->element_size();
    if (nbytes != need || (!buf && need))
      return misuse(in, fmt::format("amps_tensor_read: the tensor needs a buffer of {} bytes, got {}{}", need, nbytes, buf ? "" : " (NULL)"));
    rt::Tensor c = t->to(rt::Device::cpu()).contiguous();
    if (need) std::memcpy(buf, c.raw_data(), need);
    return AMPS_OK;
  });
}

}  // extern "C"
