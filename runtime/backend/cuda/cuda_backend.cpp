// CudaBackend: registered by init_backend() when a GPU is present; owns the kernel table, the caching
// allocator and one stream per device. CUDA errors become amps RuntimeErrors here and in check().
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/backend/common/composite_kernels.hpp"
#include "runtime/backend/common/host_fallback_kernels.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>

#include "runtime/backend/cuda/allocator.hpp"
#include "runtime/error.hpp"
#include "runtime/schema.hpp"

namespace amps::rt::cuda {

static_assert(int(Elem::f64) == int(DType::float64) && int(Elem::f32) == int(DType::float32) &&
              int(Elem::f16) == int(DType::float16) && int(Elem::bf16) == int(DType::bfloat16) &&
              int(Elem::i64) == int(DType::int64) && int(Elem::i32) == int(DType::int32) &&
              int(Elem::b8) == int(DType::bool_) && int(Elem::u8) == int(DType::uint8) &&
              int(Elem::i8) == int(DType::int8) && int(Elem::i16) == int(DType::int16) && dtype_count == 10,
              "cuda::Elem must follow runtime/dtype.def");

Elem elem(DType t) { return Elem(uint8_t(t)); }

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) [[likely]] return;
  cudaGetLastError();  // clear a non-sticky error so later calls start clean
  AMPS_FAIL("CUDA error during {}: {} ({})", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

DeviceGuard::DeviceGuard(Device d) {
  int cur = 0;
  check(cudaGetDevice(&cur), "cudaGetDevice");
  if (cur == d.index) return;
  check(cudaSetDevice(d.index), "cudaSetDevice");
  prev_ = cur;
}

DeviceGuard::~DeviceGuard() {
  if (prev_ >= 0) cudaSetDevice(prev_);
}

const KernelTable& kernel_table() {
  static const KernelTable table = [] {
    KernelTable t;
    // Qualified calls: argument-dependent lookup would also find the cpu:: registrations.
    cuda::register_copy_kernels(t);
    cuda::register_shape_kernels(t);
    cuda::register_binary_kernels(t);
    cuda::register_unary_kernels(t);
    cuda::register_reduce_kernels(t);
    cuda::register_sort_kernels(t);
    cuda::register_matmul_kernels(t);
    cuda::register_ternary_kernels(t);
    cuda::register_amp_kernels(t);
    cuda::register_fused_optim_kernels(t);
    common::register_composite_kernels(t);  // ops composed of the kernels above (no native kernel yet)
    common::register_portable_kernels(t);   // isclose, diagonal_backward (composed on every backend)
    common::register_host_fallback_kernels(t);  // cholesky, inverse, qr, svd: the CPU kernels on host copies
    cuda::register_softmax_kernels(t);
    cuda::register_softmax_grad_kernels(t);
    cuda::register_extreme_kernels(t);
    cuda::register_index_kernels(t);
    cuda::register_norm_kernels(t);
    cuda::register_pool_kernels(t);
#ifdef AMPS_HAVE_CUDNN
    cuda::register_conv_kernels(t);
#endif
    return t;
  }();
  return table;
}

namespace {

// A host tensor (0-dim: dispatch.cpp merge_device's CPU-scalar rule, as PyTorch) among a cuda op's arguments
// that the kernel would read as device memory. The elementwise kernels pass wrapped Python numbers inline, so
// those stay on the host.
bool needs_upload(const Tensor& t) { return t.defined() && t.device().is_host() && !t.impl()->is_wrapped_number; }

Tensor uploaded(const Tensor& t, Device dev) {
  Tensor d = Tensor::empty(t.sizes(), t.dtype(), dev);
  transfer(d, t);  // an asynchronous host-to-device copy on the device's stream: no sync
  return d;
}

// The binary and ternary elementwise ops: their kernels take a 1-element host operand by value (launch's
// inline operands), so it needs no upload.
bool passes_host_scalars(OpId op) {
  static const std::vector<bool> table = [] {
    std::vector<bool> t(size_t(op_count), false);
#define AMPS_BINARY_OP(name, dtypes) t[size_t(OpId::name)] = true;
#define AMPS_TERNARY_OP(name, dtypes) t[size_t(OpId::name)] = true;
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_BINARY_OP
#undef AMPS_TERNARY_OP
    return t;
  }();
  return table[size_t(op)];
}

bool any_host(const IValue& v) {
  if (v.is_tensor()) return v.tensor().defined() && v.tensor().device().is_host();
  if (v.kind() != IValue::Kind::tensor_list) return false;
  return std::any_of(v.tensors().begin(), v.tensors().end(), [](const Tensor& t) { return t.device().is_host(); });
}

// Where [args] hold such host tensors, a copy of them with each moved to [dev] (the caller's args stay as they
// are: the autograd layer reads them after the kernel); nullopt when there is none. Moves, copies and the
// binary/ternary elementwise ops (passes_host_scalars) handle host tensors themselves. A host tensor the op
// writes (a `Tensor(a!)` or out= argument) is refused, as PyTorch refuses it: the write would land in the
// uploaded copy.
std::optional<Args> with_host_scalars_uploaded(OpId op, const Args& args, Device dev) {
  if (op == OpId::to || op == OpId::copy_) return std::nullopt;
  // GradScaler's kernels check their tensors' devices themselves, with PyTorch's messages ("inv_scale must be on
  // the same device as the scaled grads."): a cpu scale must not be uploaded silently.
  if (op == OpId::_amp_foreach_non_finite_check_and_unscale_ || op == OpId::_amp_update_scale_) return std::nullopt;
  const Schema& schema = op_parsed_schema(op);
  std::optional<Args> moved;
  for (size_t i = 0; i < args.size(); ++i) {
    const bool written = i < schema.args.size() && (schema.args[i].mutated || int(i) == schema.out_index);
    if (written && any_host(args[i]))
      AMPS_FAIL("Expected all tensors to be on the same device, but found at least two devices, {} and cpu! ({} "
                "writes its argument '{}', a cpu tensor; move it with .to(\"{}\") first)", device_str(dev),
                op_name(op), schema.args[i].name, device_str(dev));
    if (passes_host_scalars(op)) continue;
    const bool single = args[i].is_tensor() && needs_upload(args[i].tensor());
    const bool in_list = args[i].kind() == IValue::Kind::tensor_list &&
                         std::any_of(args[i].tensors().begin(), args[i].tensors().end(), needs_upload);
    if (!single && !in_list) continue;
    if (!moved) moved = args;
    if (single) {
      (*moved)[i] = IValue(uploaded(args[i].tensor(), dev));
      continue;
    }
    std::vector<Tensor> ts;
    for (const Tensor& t : args[i].tensors()) ts.push_back(needs_upload(t) ? uploaded(t, dev) : t);
    (*moved)[i] = IValue(std::move(ts));
  }
  return moved;
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int count)
      : table_(kernel_table()), count_(count), allocator_(count), streams_(size_t(count), nullptr),
        stream_once_(new std::once_flag[size_t(count)]) {}

  std::string_view name() const override { return "cuda"; }
  int device_count() const override { return count_; }
  bool supports(OpId op, DType dtype) const override { return table_.supports(op, dtype); }

  Tensors run(OpId op, Args& args, const KernelContext& kc) override {
    Kernel fn = table_.get(op);
    AMPS_CHECK_KIND("NotImplementedError", fn != nullptr, "\"{}\" is not implemented for the CUDA backend (device {})",
                    op_name(op), device_str(kc.device));
    check_ordinal(kc.device);
    DeviceGuard g(kc.device);
    if (std::optional<Args> moved = with_host_scalars_uploaded(op, args, kc.device)) return fn(ArgReader(op, *moved), kc);
    return fn(ArgReader(op, args), kc);
  }

  void* allocate(size_t nbytes, Device device) override {
    check_ordinal(device);
    DeviceGuard g(device);
    return allocator_.allocate(nbytes, device.index);
  }
  void deallocate(void* p, Device device) override { allocator_.free(p, device.index); }

  void synchronize(Device device) override {
    check_ordinal(device);
    DeviceGuard g(device);
    check(cudaStreamSynchronize(stream_for(device.index)), "synchronize");
  }
  int64_t memory_allocated(Device device) const override {
    return device.index < count_ ? allocator_.allocated(device.index) : 0;
  }
  MemoryStats memory_stats(Device device) const override {
    check_ordinal(device);
    const int i = device.index;
    return {allocator_.allocated(i), allocator_.reserved(i), allocator_.peak_allocated(i), allocator_.peak_reserved(i)};
  }
  void reset_peak_memory_stats(Device device) override {
    check_ordinal(device);
    allocator_.reset_peaks(device.index);
  }
  void empty_cache(Device device) override {
    check_ordinal(device);
    DeviceGuard g(device);
    allocator_.release_cached(device.index);
  }

  cudaStream_t stream_for(int index) {
    std::call_once(stream_once_[size_t(index)], [&] {
      DeviceGuard g(Device::cuda(index));
      check(cudaStreamCreateWithFlags(&streams_[size_t(index)], cudaStreamNonBlocking), "cudaStreamCreate");
    });
    return streams_[size_t(index)];
  }

 private:
  void check_ordinal(Device d) const {
    AMPS_CHECK(d.index >= 0 && d.index < count_, "CUDA error: invalid device ordinal (device {} of {} GPU(s))",
               device_str(d), count_);
  }

  const KernelTable& table_;
  int count_;
  CachingAllocator allocator_;
  std::vector<cudaStream_t> streams_;
  std::unique_ptr<std::once_flag[]> stream_once_;
};

// Why cudaGetDeviceCount found no usable GPU, in words that name the fix. The CUDA runtime reports a missing
// driver as an insufficient one, so the driver library is looked for first.
std::string unavailable_reason(cudaError_t e) {
  if (e == cudaSuccess || e == cudaErrorNoDevice) return "no GPU is present";
  if (e == cudaErrorInsufficientDriver) {
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver) return "no NVIDIA driver is installed (libcuda.so.1 was not found)";
    dlclose(driver);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    return fmt::format("the NVIDIA driver supports CUDA {}.{} but amps was built with the CUDA {}.{} runtime; update "
                       "the driver or build amps with an older CUDA toolkit", drv / 1000, drv % 1000 / 10, rt / 1000,
                       rt % 1000 / 10);
  }
  return fmt::format("the CUDA runtime could not list the GPUs: {} ({})", cudaGetErrorString(e), cudaGetErrorName(e));
}

CudaBackend* g_backend = nullptr;  // created once, never destroyed (tensors may die after CUDA's teardown)

}  // namespace

cudaStream_t stream(Device d) { return g_backend->stream_for(d.index); }

// Called once by backend_for(cuda): without a driver or a GPU nothing is registered, and amps behaves as a
// CPU-only build.
void init_backend() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count <= 0) {
    cudaGetLastError();
    set_cuda_unavailable_reason(unavailable_reason(e));
    return;
  }
  g_backend = new CudaBackend(count);
  register_cuda_backend(g_backend);
}

}  // namespace amps::rt::cuda
