// CPU kernels for the matrix-product family (mm, bmm, matmul, ..., linear; shape logic in
// runtime/backend/common/matmul_kernels.hpp): float32/bfloat16/float16 on oneDNN, float64 on OpenBLAS (blas_gemm.hpp),
// the rest (integers) on the reference loops below.
#include "runtime/backend/common/matmul_kernels.hpp"
#include "runtime/backend/cpu/blas_gemm.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/dnnl_matmul.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// Reference: dst[b] = alpha * (a[b] @ w[b]) + beta * dst[b] over equal (already expanded) batch dims.
template <typename T>
void gemm_loops(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha, double beta) {
  const int64_t M = dst.size(-2), N = dst.size(-1), K = a.size(-1), B = M * N != 0 ? dst.numel() / (M * N) : 0;
  Tensor a3 = reshape(contiguous(a), {B, M, K}), w3 = reshape(contiguous(w), {B, K, N});
  Tensor d3 = contiguous(dst);
  const T *pa = a3.data<T>(), *pw = w3.data<T>();
  T* pd = d3.data<T>();
  parallel_for(B * M, std::max<int64_t>(1, 4096 / std::max<int64_t>(K * N, 1)), [&](int64_t r0, int64_t r1) {
    std::vector<double> row(static_cast<size_t>(N));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = r / M, i = r % M;
      std::fill(row.begin(), row.end(), 0.0);
      for (int64_t k = 0; k < K; ++k) {
        const double av = double(pa[(b * M + i) * K + k]);
        const T* wr = pw + (b * K + k) * N;
        for (int64_t j = 0; j < N; ++j) row[size_t(j)] += av * double(wr[j]);
      }
      T* out = pd + (b * M + i) * N;
      // small integers wrap through int64 (uint8 products past 255 keep their low bits, as PyTorch's)
      for (int64_t j = 0; j < N; ++j)
        out[j] = to_result<T>(alpha * row[size_t(j)] + (beta == 0 ? 0.0 : beta * double(out[j])));
    }
  });
  if (!d3.is_same(dst)) copy_into(dst, d3);
}

// dst = alpha * (a @ w) + beta * dst with a [..., M, K], w [..., K, N] broadcast to dst's batch dims.
void gemm(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha, double beta) {
  if (dst.numel() == 0) return;
  Dims batch(dst.sizes().begin(), dst.sizes().end() - 2);
  auto full = [&](const Tensor& t) {
    Dims s = batch;
    s.push_back(t.size(-2));
    s.push_back(t.size(-1));
    return native::expand(t, s);
  };
  if (dnnl_dtype_ok(a.dtype()) && a.size(-1) != 0) {
    dnnl_cpu::matmul(dnnl_arg(full(a)), dnnl_arg(full(w)), dnnl_arg(dst), nullptr, float(alpha), float(beta));
    return;
  }
  if (a.dtype() == DType::float64 && a.size(-1) != 0 && blas::dgemm(full(a), full(w), dst, alpha, beta)) return;
  // Also an empty inner dimension: the product is zero, so dst = beta * dst (linear's bias with no inputs).
  AMPS_DISPATCH_ALL(a.dtype(), T, [&] { gemm_loops<T>(full(a), full(w), dst, alpha, beta); });
}

// dst = a @ w + bias for 2-D a, w and dst, bias broadcasting to dst: oneDNN adds the bias as it writes dst (no
// broadcast copy of it into dst and no second pass over dst), else the reference loops add a copy of it.
void gemm_bias(const Tensor& a, const Tensor& w, const Tensor& dst, const Tensor& bias) {
  if (dnnl_dtype_ok(a.dtype()) && a.size(-1) != 0 && dst.numel() != 0) {
    const dnnl_cpu::DnnlArg b = dnnl_arg(bias);
    dnnl_cpu::matmul(dnnl_arg(a), dnnl_arg(w), dnnl_arg(dst), &b);
    return;
  }
  copy_into(dst, bias);
  gemm(a, w, dst, 1.0, 1.0);
}

// The device primitives the shared matrix-product kernels run on.
struct CpuMatmul {
  static void gemm(const Tensor& a, const Tensor& w, const Tensor& dst, double alpha, double beta) {
    cpu::gemm(a, w, dst, alpha, beta);
  }
  static void gemm_bias(const Tensor& a, const Tensor& w, const Tensor& dst, const Tensor& bias) {
    cpu::gemm_bias(a, w, dst, bias);
  }
  static void copy_into(const Tensor& dst, const Tensor& src) { cpu::copy_into(dst, src); }
  static Tensor cast(const Tensor& t, DType dtype) { return cpu::cast(t, dtype); }
  static Tensor reshape(const Tensor& t, const Dims& shape) { return cpu::reshape(t, shape); }
};

}  // namespace

void register_matmul_kernels(KernelTable& t) {
  common::register_matmul_kernels<CpuMatmul>(t, kNumericDTypes);  // every type but bool, as PyTorch's CPU
}

}  // namespace amps::rt::cpu
