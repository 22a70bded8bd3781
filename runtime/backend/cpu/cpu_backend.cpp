// CpuBackend: builds the kernel table once and runs kernels; oneDNN errors are translated here, only.
#include "runtime/backend/cpu/cpu_backend.hpp"

#include "runtime/backend/cpu/dnnl_common.hpp"

#include "runtime/error.hpp"

namespace amps::rt {
namespace cpu {

void KernelTable::add(OpId op, Kernel fn, uint32_t dtypes) {
  AMPS_ASSERT(entries_[size_t(op)].fn == nullptr, "kernel for {} registered twice", op_id_name(op));
  entries_[size_t(op)] = Entry{fn, dtypes};
}

namespace {

class CpuBackend final : public Backend {
 public:
  CpuBackend() {
    register_copy_kernels(table_);
    register_binary_kernels(table_);
    register_unary_kernels(table_);
    register_reduce_kernels(table_);
    register_shape_kernels(table_);
    register_index_kernels(table_);
    register_random_kernels(table_);
    register_matmul_kernels(table_);
    register_conv_kernels(table_);
    register_pool_kernels(table_);
    register_norm_kernels(table_);
    register_loss_kernels(table_);
    register_linalg_kernels(table_);
    register_amp_kernels(table_);
    register_grad_kernels(table_);
  }

  std::string_view name() const override { return "cpu"; }
  bool supports(OpId op, DType dtype) const override { return table_.supports(op, dtype); }

  Tensors run(OpId op, Args& args, const KernelContext& kc) override {
    Kernel fn = table_.get(op);
    AMPS_CHECK_KIND("NotImplementedError", fn != nullptr, "\"{}\" is not implemented for the CPU backend",
                    op_name(op));
    try {
      return fn(ArgReader(op, args), kc);
    } catch (const dnnl_cpu::DnnlError& e) {
      AMPS_FAIL("{}: oneDNN failed: {} (status {})", op_name(op), e.what(), e.status());
    }
  }

  void* allocate(size_t, Device) override { AMPS_ASSERT(false, "CPU backend does not allocate device memory"); }
  void deallocate(void*, Device) override {}

 private:
  KernelTable table_;
};

}  // namespace
}  // namespace cpu

Backend& cpu_backend() {
  static cpu::CpuBackend backend;  // built once; immutable afterwards, shared by all contexts
  return backend;
}

}  // namespace amps::rt
