// float64 matrix products on OpenBLAS: strided views bound as they are, batches looped (0.3.21 has no gemm_batch).
#include "runtime/backend/cpu/blas_gemm.hpp"

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <vector>

#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"

namespace amps::rt::cpu::blas {
namespace {

// One r x c matrix at element strides (rs, cs).
struct Mat {
  double* p;
  int64_t r, c, rs, cs;
  Mat t() const { return {p, c, r, cs, rs}; }
  Mat at(int64_t offset) const { return {p + offset, r, c, rs, cs}; }
};

// How BLAS reads a matrix: row-major as it is (NoTrans, rows x cols = r x c), or the transpose of a row-major
// c x r matrix (Trans); ld is the row-major leading dim. Size-1 dims take any stride.
struct Layout {
  CBLAS_TRANSPOSE trans;
  int64_t ld;
};

std::optional<Layout> layout_of(const Mat& m) {
  if ((m.c == 1 || m.cs == 1) && (m.r == 1 || m.rs >= std::max<int64_t>(m.c, 1)))
    return Layout{CblasNoTrans, m.r == 1 ? std::max<int64_t>(m.c, 1) : m.rs};
  if ((m.r == 1 || m.rs == 1) && (m.c == 1 || m.cs >= std::max<int64_t>(m.r, 1)))
    return Layout{CblasTrans, m.c == 1 ? std::max<int64_t>(m.r, 1) : m.cs};
  return std::nullopt;
}

Mat mat_of(const Tensor& t) {
  return {t.data<double>(), t.size(-2), t.size(-1), t.stride(-2), t.stride(-1)};
}

Tensor dense_copy(const Tensor& t) {
  Tensor c = Tensor::empty(t.sizes(), t.dtype(), t.device());
  copy_into(c, t);
  return c;
}

// [x], or a copy of it when it lives in [dst]'s storage (x.addmm_(x, y)): BLAS writes dst while it reads x.
Tensor apart_from(const Tensor& x, const Tensor& dst) { return x.storage() == dst.storage() ? dense_copy(x) : x; }

// [t], or a dense copy when its matrices have no layout BLAS reads (e.g. a stride-0 row or column).
Tensor blas_readable(const Tensor& t) { return layout_of(mat_of(t)) ? t : contiguous(t); }

// The element offset of each matrix of [t] (batch dims: all but the last two), in row-major batch order.
std::vector<int64_t> batch_offsets(const Tensor& t) {
  std::vector<int64_t> offs{0};
  for (int64_t d = t.dim() - 3; d >= 0; --d) {
    std::vector<int64_t> next;
    next.reserve(offs.size() * size_t(t.size(d)));
    for (int64_t i = 0; i < t.size(d); ++i)
      for (int64_t o : offs) next.push_back(o + i * t.stride(d));
    offs = std::move(next);
  }
  return offs;
}

// y = alpha * op(m) @ x + beta * y with x, y vectors at element strides incx, incy (non-zero).
void gemv(const Mat& m, const double* x, int64_t incx, double* y, int64_t incy, double alpha, double beta) {
  const Layout l = *layout_of(m);
  if (beta == 0)  // BLAS scales y by beta, and 0 * NaN is NaN: PyTorch's beta == 0 ignores y's old contents
    for (int64_t i = 0; i < m.r; ++i) y[i * incy] = 0.0;
  const int64_t rows = l.trans == CblasNoTrans ? m.r : m.c, cols = l.trans == CblasNoTrans ? m.c : m.r;
  cblas_dgemv(CblasRowMajor, l.trans, int(rows), int(cols), alpha, m.p, int(l.ld), x, int(incx), beta, y, int(incy));
}

// One product d = alpha * a @ w + beta * d, d row-major (its layout NoTrans), a and w with a layout (so no vector
// below has stride 0 but a single element's). A single column or row of d is a matrix-vector product (BLAS's gemv
// runs it faster than gemm does).
void product(const Mat& a, const Mat& w, const Mat& d, double alpha, double beta) {
  const int64_t K = a.c;
  if (d.c == 1) return gemv(a, w.p, K == 1 ? 1 : w.rs, d.p, d.r == 1 ? 1 : d.rs, alpha, beta);  // a @ w's column
  if (d.r == 1) return gemv(w.t(), a.p, K == 1 ? 1 : a.cs, d.p, d.cs, alpha, beta);  // d^T = w^T @ a's row
  const Layout la = *layout_of(a), lw = *layout_of(w), ld = *layout_of(d);
  // beta == 0: OpenBLAS's gemm zeroes C before it adds the product (no NaN from C's old contents).
  cblas_dgemm(CblasRowMajor, la.trans, lw.trans, int(d.r), int(d.c), int(K), alpha, a.p, int(la.ld), w.p, int(lw.ld),
              beta, d.p, int(ld.ld));
}

bool fits_blas_int(const Tensor& t) {
  for (int64_t d = std::max<int64_t>(0, t.dim() - 2); d < t.dim(); ++d)
    if (t.size(d) >= INT_MAX || t.stride(d) >= INT_MAX) return false;
  return true;
}

}  // namespace

bool dgemm(const Tensor& a_in, const Tensor& w_in, const Tensor& dst, double alpha, double beta) {
  const Tensor a = blas_readable(apart_from(a_in, dst)), w = blas_readable(apart_from(w_in, dst));
  const bool dst_ok = layout_of(mat_of(dst)).has_value();
  const Tensor d = dst_ok ? dst : beta == 0 ? Tensor::empty(dst.sizes(), dst.dtype(), dst.device()) : contiguous(dst);
  if (!fits_blas_int(a) || !fits_blas_int(w) || !fits_blas_int(d)) return false;
  Mat ma = mat_of(a), mw = mat_of(w), md = mat_of(d);
  std::vector<int64_t> oa = batch_offsets(a), ow = batch_offsets(w), od = batch_offsets(d);
  if (layout_of(md)->trans == CblasTrans) {  // a column-major dst: d^T = w^T @ a^T, row-major
    std::swap(ma, mw);
    std::swap(oa, ow);
    ma = ma.t(), mw = mw.t(), md = md.t();
  }
  // Below ~64^3 multiply-adds OpenBLAS runs one thread: a batch of them is spread over the threads instead (inside
  // the parallel region each call runs single-threaded); bigger products run one after another, each threaded.
  const int64_t work = std::max<int64_t>(md.r * md.c * ma.c, 1), B = int64_t(od.size());
  const int64_t grain = work <= 262144 ? std::max<int64_t>(1, 65536 / work) : B;
  parallel_for(B, grain, [&](int64_t b0, int64_t b1) {
    for (size_t b = size_t(b0); b < size_t(b1); ++b) product(ma.at(oa[b]), mw.at(ow[b]), md.at(od[b]), alpha, beta);
  });
  if (!dst_ok) copy_into(dst, d);
  return true;
}

int openblas_threads() { return openblas_get_num_threads(); }

}  // namespace amps::rt::cpu::blas
