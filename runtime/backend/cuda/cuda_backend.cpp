// CudaBackend: registered by init_backend() when a GPU is present; owns the kernel table, the caching
// allocator and one stream per device. CUDA errors become amps RuntimeErrors here and in check().
#include "runtime/backend/cuda/cuda_backend.hpp"
#include "runtime/backend/common/composite_kernels.hpp"

#include <memory>
#include <mutex>

#include "runtime/backend/cuda/allocator.hpp"
#include "runtime/error.hpp"

namespace amps::rt::cuda {

static_assert(int(Elem::f64) == int(DType::float64) && int(Elem::f32) == int(DType::float32) &&
              int(Elem::f16) == int(DType::float16) && int(Elem::bf16) == int(DType::bfloat16) &&
              int(Elem::i64) == int(DType::int64) && int(Elem::i32) == int(DType::int32) &&
              int(Elem::b8) == int(DType::bool_) && dtype_count == 7,
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
    cuda::register_matmul_kernels(t);
    cuda::register_ternary_kernels(t);
    cuda::register_amp_kernels(t);
    cuda::register_fused_optim_kernels(t);
    common::register_composite_kernels(t);  // ops composed of the kernels above (no native kernel yet)
    common::register_portable_kernels(t);   // isclose (composed on every backend)
    cuda::register_softmax_kernels(t);
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

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int count)
      : table_(kernel_table()), count_(count), allocator_(count), streams_(size_t(count), nullptr),
        stream_once_(new std::once_flag[size_t(count)]) {}

  std::string_view name() const override { return "cuda"; }
  bool supports(OpId op, DType dtype) const override { return table_.supports(op, dtype); }

  Tensors run(OpId op, Args& args, const KernelContext& kc) override {
    Kernel fn = table_.get(op);
    AMPS_CHECK_KIND("NotImplementedError", fn != nullptr, "\"{}\" is not implemented for the CUDA backend (device {})",
                    op_name(op), device_str(kc.device));
    check_ordinal(kc.device);
    DeviceGuard g(kc.device);
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

CudaBackend* g_backend = nullptr;  // created once, never destroyed (tensors may die after CUDA's teardown)

}  // namespace

cudaStream_t stream(Device d) { return g_backend->stream_for(d.index); }

// Called once by backend_for(cuda): without a driver or a GPU nothing is registered, and amps behaves as a
// CPU-only build.
void init_backend() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
    cudaGetLastError();
    return;
  }
  g_backend = new CudaBackend(count);
  register_cuda_backend(g_backend);
}

}  // namespace amps::rt::cuda
