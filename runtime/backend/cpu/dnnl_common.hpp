// Public vocabulary of the oneDNN primitive layer: raw strided buffers, dtypes, the one error type.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace amps::rt::dnnl_cpu {

// Element types this layer accepts. f32 and bf16 run natively where oneDNN supports them on this
// CPU; f16 (and bf16 where the CPU lacks bf16 kernels, or for convolution and matmul lacks bf16
// products in hardware) is converted to f32, computed, and rounded once to the destination type
// (round-to-nearest-even, denormals kept).
enum class DnnlType : uint8_t { f32, bf16, f16 };

// A tensor as raw memory: 'data' points at element [0,...,0]; 'strides' are in elements (not
// bytes), non-negative, one per dim; empty 'strides' means row-major contiguous. Overlapping
// strides (0 or expanded views) are allowed for inputs only. The layer never keeps 'data'.
struct DnnlArg {
  void* data = nullptr;
  DnnlType dt = DnnlType::f32;
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
};

// Every failure of this layer (a oneDNN error, an unsupported case, inconsistent shapes) is thrown
// as DnnlError; no oneDNN error escapes as dnnl::error and none aborts the process. 'status' is
// the dnnl_status_t value (0 when the failure was detected by this layer's own checks).
class DnnlError : public std::runtime_error {
 public:
  DnnlError(const std::string& what, int status) : std::runtime_error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Bytes per element of 't'.
inline int64_t dnnl_type_size(DnnlType t) { return t == DnnlType::f32 ? 4 : 2; }

// Threads: oneDNN (Debian build) runs on OpenMP, so the thread count is OMP_NUM_THREADS or the
// host's omp_set_num_threads(); this layer adds no threads of its own.

}  // namespace amps::rt::dnnl_cpu
