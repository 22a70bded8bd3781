// CpuBackend: builds the kernel table once and runs kernels; oneDNN errors are translated here, only.
#include "runtime/backend/cpu/cpu_backend.hpp"

#include "runtime/backend/common/composite_kernels.hpp"

#include <malloc.h>

#include "runtime/backend/cpu/dnnl_common.hpp"

#include "runtime/error.hpp"

namespace amps::rt {
namespace cpu {

void KernelTable::add(OpId op, Kernel fn, uint32_t dtypes) {
  AMPS_ASSERT(entries_[size_t(op)].fn == nullptr, "kernel for {} registered twice", op_id_name(op));
  entries_[size_t(op)] = Entry{fn, dtypes};
}

namespace {

// Tensors and the oneDNN staging buffers of large ops are allocated and freed on every op. With glibc's
// defaults, blocks above the mmap threshold are mapped and unmapped each time and a free heap top above
// the trim threshold goes back to the OS, so the next op takes a page fault per 4 KiB to get zeroed pages
// back (about 6% of a CNN training step). Blocks up to 32 MiB (glibc's maximum threshold) stay on the heap
// and up to 512 MiB of freed heap stays mapped: the next step reuses warm memory. Process-wide, set once.
void keep_freed_memory_mapped() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

class CpuBackend final : public Backend {
 public:
  CpuBackend() {
    keep_freed_memory_mapped();
    register_copy_kernels(table_);
    register_binary_kernels(table_);
    register_unary_kernels(table_);
    register_elementwise_extra_kernels(table_);
    register_reduce_kernels(table_);
    register_sort_kernels(table_);
    register_scan_kernels(table_);
    register_grid_sampler_kernels(table_);
    register_shape_kernels(table_);
    register_index_kernels(table_);
    register_scatter_kernels(table_);
    register_scatter_reduce_kernels(table_);
    register_random_kernels(table_);
    register_sampling_kernels(table_);
    register_matmul_kernels(table_);
    register_conv_kernels(table_);
    register_pool_kernels(table_);
    register_norm_kernels(table_);
    register_channel_norm_kernels(table_);
    register_loss_kernels(table_);
    register_softmax_grad_kernels(table_);
    register_linalg_kernels(table_);
    register_linalg_solve_kernels(table_);
    register_matrix_exp_kernels(table_);
    register_amp_kernels(table_);
    register_grad_kernels(table_);
    register_gelu_kernels(table_);
    register_fused_optim_kernels(table_);
    common::register_portable_kernels(table_);  // isclose, diagonal_backward: composed of the kernels above
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
