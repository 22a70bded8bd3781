// Batches of matrices for the linear-algebra kernels (linalg_kernels.cpp, linalg_solve_kernels.cpp): the input as one
// contiguous compute-dtype tensor, its shape checks with PyTorch's messages, a parallel loop over the batch and the
// LAPACK-style info check.
#pragma once

#include <string>
#include <vector>

#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {

// float64 computes in double, the other float dtypes in float32 (results rounded back to theirs).
inline DType linalg_dtype(DType t) { return t == DType::float64 ? DType::float64 : DType::float32; }

// Calls f(T{}) with T = double for float64, float for every other dtype.
template <typename F> void with_compute_type(DType t, F&& f) {
  if (t == DType::float64) f(double{});
  else f(float{});
}

// A batch of matrices [lead..., m, n] as one contiguous compute-dtype tensor.
struct Mats {
  Tensor data;
  Dims lead;
  int64_t batch = 1, m = 0, n = 0;
};

inline Mats as_mats(const Tensor& x, std::string_view op, bool transposed = false) {
  AMPS_CHECK(x.dim() >= 2, "{}: The input tensor A must have at least 2 dimensions.", op);
  Mats r;
  r.data = contiguous(cast(transposed ? native::transpose(x, -2, -1) : x, linalg_dtype(x.dtype())));
  r.m = r.data.size(-2);
  r.n = r.data.size(-1);
  r.lead.assign(x.sizes().begin(), x.sizes().end() - 2);
  r.batch = numel_of(r.lead);
  return r;
}

inline void check_square(const Tensor& x, std::string_view op) {
  AMPS_CHECK(x.size(-2) == x.size(-1), "{}: A must be batches of square matrices, but they are {} by {} matrices", op,
             x.size(-2), x.size(-1));
}

// The new linalg kernels take float32 and float64 only, as PyTorch's CPU LAPACK: integers and the 16-bit floats
// are refused with PyTorch's messages (checkFloatingOrComplex).
inline void check_float_input(const Tensor& x, std::string_view op) {
  AMPS_CHECK(is_floating(x.dtype()), "{}: Expected a floating point or complex tensor as input. Got {}", op,
             dtype_name(x.dtype()));
  AMPS_CHECK(x.dtype() == DType::float32 || x.dtype() == DType::float64, "{}: Low precision dtypes not supported. "
             "Got {}", op, dtype_name(x.dtype()));
}

// A new compute-dtype tensor [lead..., tail...] on [dev].
inline Tensor batch_of(const Mats& a, const Dims& tail, Device dev) {
  Dims s = a.lead;
  s.insert(s.end(), tail.begin(), tail.end());
  return Tensor::empty(s, a.data.dtype(), dev);
}

// Runs f(b) for every matrix b of the batch, in parallel for large batches; [f] must not throw.
template <typename F> void for_batch(const Mats& a, F&& f) {
  const int64_t work = std::max<int64_t>(1, a.m * a.n * std::max(a.m, a.n));
  parallel_for(a.batch, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) f(b);
  });
}

// The first nonzero LAPACK-style info becomes "<op>: [(Batch element i): ]<what(info)>", as PyTorch's.
template <typename F> void check_infos(const std::vector<int64_t>& info, bool batched, std::string_view op, F what) {
  for (size_t b = 0; b < info.size(); ++b) {
    if (info[b] == 0) continue;
    std::string where = batched ? fmt::format("(Batch element {}): ", b) : std::string();
    AMPS_FAIL("{}: {}{}", op, where, what(info[b]));
  }
}

// PyTorch's error for getrf's info [i] > 0 where a factorization must be usable by lu_solve.
inline std::string lu_zero_pivot_message(int64_t i) {
  return fmt::format("U[{},{}] is zero and using it on lu_solve would result in a division by zero. If you still want "
                     "to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, "
                     "pivot)", i, i);
}

}  // namespace amps::rt::cpu
