// Elementwise launch geometry (broadcasting, dim merging, host scalars) and the non-dispatching copy
// helpers every CUDA kernel uses: copy_into, fill, cast, contiguous, reshape, and cross-device transfers.
#include <atomic>
#include <cstring>

#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cuda {
namespace {

// [t]'s strides at the launch's [shape] (right-aligned, 0 where [t] is broadcast).
Dims broadcast_strides(const Tensor& t, const Dims& shape) {
  AMPS_CHECK(size_t(t.dim()) <= shape.size(), "cuda: shape {} cannot be broadcast to {}", format_shape(t.sizes()),
             format_shape(shape));
  Dims st(shape.size(), 0);
  const size_t lead = shape.size() - size_t(t.dim());
  for (size_t d = 0; d < size_t(t.dim()); ++d) {
    const int64_t n = t.sizes()[d];
    AMPS_CHECK(n == shape[lead + d] || n == 1, "cuda: shape {} cannot be broadcast to {}", format_shape(t.sizes()),
               format_shape(shape));
    st[lead + d] = n == 1 ? 0 : t.strides()[d];
  }
  return st;
}

// Drops size-1 dims and merges dim pairs that every operand walks as one (outer stride = inner stride * size).
void coalesce(Dims& sizes, std::vector<Dims>& strides) {
  Dims ns;
  std::vector<Dims> nst(strides.size());
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    bool merge = !ns.empty();
    for (size_t k = 0; merge && k < strides.size(); ++k) merge = nst[k].back() == strides[k][d] * sizes[d];
    if (merge) {
      ns.back() *= sizes[d];
      for (size_t k = 0; k < strides.size(); ++k) nst[k].back() = strides[k][d];
      continue;
    }
    ns.push_back(sizes[d]);
    for (size_t k = 0; k < strides.size(); ++k) nst[k].push_back(strides[k][d]);
  }
  sizes = std::move(ns);
  strides = std::move(nst);
}

}  // namespace

void* device_data(const Tensor& t) {
  char* base = static_cast<char*>(t.storage()->data());
  return base ? base + t.storage_offset() * int64_t(t.element_size()) : nullptr;
}

bool is_host_scalar(const Tensor& t) { return t.device().is_host() && t.numel() == 1; }

Launch make_launch(const Dims& shape, std::initializer_list<const Tensor*> operands) {
  Launch l;
  l.ops.resize(operands.size());
  Dims sizes = shape;
  std::vector<Dims> strides;
  for (const Tensor* t : operands) strides.push_back(is_host_scalar(*t) ? Dims(shape.size(), 0) : broadcast_strides(*t, shape));
  coalesce(sizes, strides);
  AMPS_CHECK(int(sizes.size()) <= kMaxDims, "cuda: elementwise ops support at most {} non-mergeable dims, got {}",
             kMaxDims, sizes.size());
  l.shape.ndim = int(sizes.size());
  for (size_t d = 0; d < sizes.size(); ++d) l.shape.sizes[d] = sizes[d];
  l.shape.numel = numel_of(shape);
  size_t k = 0;
  for (const Tensor* t : operands) {
    Operand& o = l.ops[k];
    for (size_t d = 0; d < sizes.size(); ++d) o.strides[d] = strides[k][d];
    if (is_host_scalar(*t)) std::memcpy(o.inline_value, t->raw_data(), t->element_size());
    else o.data = device_data(*t);
    ++k;
  }
  return l;
}

void copy_into(const Tensor& dst, const Tensor& src) {
  AMPS_ASSERT(!dst.device().is_host() && (!src.device().is_host() || src.numel() == 1), "cuda::copy_into({}, {})",
              device_str(dst.device()), device_str(src.device()));
  if (dst.numel() == 0) return;
  Launch l = make_launch(dst.sizes(), {&dst, &src});
  check(launch_cast(stream(dst.device()), l.shape, elem(dst.dtype()), l.ops[0], elem(src.dtype()), l.ops[1]), "copy");
}

void fill(const Tensor& dst, Scalar v) {
  if (dst.numel() == 0) return;
  if (dst.is_contiguous() && v.to_double() == 0.0 && !(v.is_floating() && std::signbit(v.to_double()))) {
    check(cudaMemsetAsync(device_data(dst), 0, size_t(dst.numel()) * dst.element_size(), stream(dst.device())), "fill");
    return;
  }
  copy_into(dst, Tensor::scalar(v, dst.dtype()));
}

Tensor cast(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = Tensor::empty(t.sizes(), dtype, t.device());
  copy_into(out, t);
  return out;
}

Tensor contiguous(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor out = Tensor::empty(t.sizes(), t.dtype(), t.device());
  copy_into(out, t);
  return out;
}

Tensor reshape(const Tensor& t, const Dims& shape) {
  if (std::optional<Tensor> v = native::try_view(t, shape)) return *v;
  return native::view(contiguous(t), shape);
}

namespace {

std::atomic<uint64_t> g_host_reads{0};

size_t nbytes(const Tensor& t) { return size_t(t.numel()) * t.element_size(); }

// host -> cuda: the contiguous host bytes go up as they are; the device converts and broadcasts.
void upload(const Tensor& dst, const Tensor& src) {
  if (is_host_scalar(src)) return copy_into(dst, src);
  Tensor hs = cpu::contiguous(src);
  const bool direct = dst.is_contiguous() && dst.dtype() == src.dtype() && dst.sizes() == src.sizes();
  Tensor staged = direct ? dst : Tensor::empty(hs.sizes(), hs.dtype(), dst.device());
  check(cudaMemcpyAsync(device_data(staged), hs.raw_data(), nbytes(hs), cudaMemcpyHostToDevice, stream(dst.device())),
        "copy to the device");
  if (!direct) copy_into(dst, staged);
}

// cuda -> host: the device converts and broadcasts into [dst]'s dtype and shape, then one copy down.
void download(const Tensor& dst, const Tensor& src) {
  const bool direct = src.is_contiguous() && src.dtype() == dst.dtype() && src.sizes() == dst.sizes();
  Tensor staged = direct ? src : Tensor::empty(dst.sizes(), dst.dtype(), src.device());
  if (!direct) copy_into(staged, src);
  Tensor host = dst.is_contiguous() ? dst : Tensor::empty(dst.sizes(), dst.dtype(), dst.device());
  cudaStream_t s = stream(src.device());
  g_host_reads.fetch_add(1, std::memory_order_relaxed);
  check(cudaMemcpyAsync(host.raw_data(), device_data(staged), nbytes(host), cudaMemcpyDeviceToHost, s), "copy to the host");
  check(cudaStreamSynchronize(s), "copy to the host");
  if (!host.is_same(dst)) cpu::copy_into(dst, host);
}

// cuda:i -> cuda:j through one peer copy of a contiguous staging tensor; both streams are drained.
void peer_copy(const Tensor& dst, const Tensor& src) {
  Tensor staged_src = Tensor::empty(dst.sizes(), dst.dtype(), src.device());
  {
    DeviceGuard g(src.device());
    copy_into(staged_src, src);
    check(cudaStreamSynchronize(stream(src.device())), "copy between devices");
  }
  Tensor staged_dst = dst.is_contiguous() ? dst : Tensor::empty(dst.sizes(), dst.dtype(), dst.device());
  check(cudaMemcpyPeerAsync(device_data(staged_dst), dst.device().index, device_data(staged_src), src.device().index,
                            nbytes(staged_dst), stream(dst.device())), "copy between devices");
  if (!staged_dst.is_same(dst)) copy_into(dst, staged_dst);
  check(cudaStreamSynchronize(stream(dst.device())), "copy between devices");
}

}  // namespace

uint64_t host_reads() { return g_host_reads.load(std::memory_order_relaxed); }

void transfer(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  const Device dd = dst.device(), sd = src.device();
  if (!dd.is_host() && (sd == dd || sd.is_host())) {
    DeviceGuard g(dd);
    return sd.is_host() ? upload(dst, src) : copy_into(dst, src);
  }
  if (dd.is_host()) {
    AMPS_ASSERT(!sd.is_host(), "cuda::transfer between host devices");
    DeviceGuard g(sd);
    return download(dst, src);
  }
  DeviceGuard g(dd);
  peer_copy(dst, src);
}

}  // namespace amps::rt::cuda
