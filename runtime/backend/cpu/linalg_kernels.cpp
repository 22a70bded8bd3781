// CPU kernels for the linear-algebra family: trace, cdist, cholesky, inverse, qr, svd, batched over leading
// dims. float64 computes in double, the other float dtypes in float32 (results rounded back to theirs).
#include <cmath>

#include "runtime/backend/common/nn_args.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/linalg_algos.hpp"
#include "runtime/backend/cpu/linalg_batch.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// cholesky(input, upper): upper reads the upper triangle, i.e. factors A^T's lower one and transposes.
Tensors k_cholesky(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  const bool upper = a.boolean(1);
  Mats m = as_mats(x, "linalg.cholesky", upper);
  check_square(x, "linalg.cholesky");
  Tensor l = batch_of(m, {m.n, m.n}, kc.device);
  std::vector<int64_t> info(size_t(m.batch));
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T* out = l.data<T>();
    for_batch(m, [&](int64_t b) { info[size_t(b)] = linalg::cholesky_lower(in + b * m.n * m.n, out + b * m.n * m.n, m.n); });
  });
  check_infos(info, x.dim() > 2, "linalg.cholesky", [](int64_t k) {
    return fmt::format("The factorization could not be completed because the input is not positive-definite (the "
                       "leading minor of order {} is not positive-definite).", k);
  });
  return one_tensor(cast(upper ? contiguous(native::transpose(l, -2, -1)) : l, x.dtype()));
}

Tensors k_inverse(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  Mats m = as_mats(x, "linalg.inv");
  check_square(x, "linalg.inv");
  Tensor inv = batch_of(m, {m.n, m.n}, kc.device);
  std::vector<int64_t> info(size_t(m.batch));
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T* out = inv.data<T>();
    for_batch(m, [&](int64_t b) { info[size_t(b)] = linalg::lu_inverse(in + b * m.n * m.n, out + b * m.n * m.n, m.n); });
  });
  check_infos(info, x.dim() > 2, "linalg.inv", [](int64_t k) {
    return fmt::format("The diagonal element {} is zero, the inversion could not be completed because the input "
                       "matrix is singular.", k);
  });
  return one_tensor(cast(inv, x.dtype()));
}

// qr(input, some): Q [m, k], R [k, n] when some (k = min(m, n)), else Q [m, m], R [m, n].
Tensors k_qr(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  Mats m = as_mats(x, "linalg.qr");
  const int64_t k = a.boolean(1) ? std::min(m.m, m.n) : m.m;
  Tensor q = batch_of(m, {m.m, k}, kc.device), r = batch_of(m, {k, m.n}, kc.device);
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T *qo = q.data<T>(), *ro = r.data<T>();
    for_batch(m, [&](int64_t b) {
      linalg::householder_qr(in + b * m.m * m.n, m.m, m.n, qo + b * m.m * k, k, ro + b * k * m.n, k);
    });
  });
  return {cast(q, x.dtype()), cast(r, x.dtype())};
}

// svd(input, some, compute_uv) -> (U, S, V) with input = U diag(S) V^T (torch.svd returns V, not V^T).
// Without compute_uv, U and V are zero-filled [m, m] and [n, n], as PyTorch's.
Tensors k_svd(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  const bool some = a.boolean(1), compute_uv = a.boolean(2);
  Mats m = as_mats(x, "linalg.svd");
  const int64_t k = std::min(m.m, m.n), uc = some ? k : m.m, vc = some ? k : m.n;
  Tensor u = batch_of(m, {m.m, uc}, kc.device), s = batch_of(m, {k}, kc.device), v = batch_of(m, {m.n, vc}, kc.device);
  std::vector<int64_t> bad(size_t(m.batch));
  with_compute_type(m.data.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = m.data.data<T>();
    T *uo = u.data<T>(), *so = s.data<T>(), *vo = v.data<T>();
    for_batch(m, [&](int64_t b) {
      bad[size_t(b)] = !linalg::jacobi_svd(in + b * m.m * m.n, m.m, m.n, uo + b * m.m * uc, uc, so + b * k, vo + b * m.n * vc, vc);
    });
  });
  check_infos(bad, x.dim() > 2, "linalg.svd", [](int64_t) {
    return std::string("The algorithm failed to converge because the input matrix contained non-finite values.");
  });
  if (!compute_uv) {
    u = batch_of(m, {m.m, m.m}, kc.device);
    v = batch_of(m, {m.n, m.n}, kc.device);
    fill(u, Scalar(0.0));
    fill(v, Scalar(0.0));
  }
  return {cast(u, x.dtype()), cast(s, x.dtype()), cast(v, x.dtype())};
}

// The p-norm of x - y over n elements (p = 0 counts nonzeros, p = inf takes the max).
template <typename T> double p_distance(const T* x, const T* y, int64_t n, double p) {
  double acc = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = std::fabs(double(x[i]) - double(y[i]));
    if (p == 2) acc += d * d;
    else if (p == 1) acc += d;
    else if (p == 0) acc += d != 0;
    else if (std::isinf(p)) acc = std::max(acc, d);
    else acc += std::pow(d, p);
  }
  if (p == 2) return std::sqrt(acc);
  if (p == 0 || p == 1 || std::isinf(p)) return acc;
  return std::pow(acc, 1.0 / p);
}

// x1 [*, P, M] and x2 [*, R, M] with broadcast batch dims -> [*, P, R].
Tensors k_cdist(const ArgReader& a, const KernelContext& kc) {
  Tensor x1 = a.tensor(0), x2 = a.tensor(1);
  const double p = a.f64(2);
  common::check_cdist(x1, x2, p);
  const int64_t P = x1.size(-2), R = x2.size(-2), M = x1.size(-1);
  Dims batch = broadcast_shapes(Dims(x1.sizes().begin(), x1.sizes().end() - 2),
                                Dims(x2.sizes().begin(), x2.sizes().end() - 2), "cdist");
  const DType dt = promote(x1.dtype(), x2.dtype()), ct = linalg_dtype(dt);
  auto full = [&](const Tensor& t, int64_t rows) {
    Dims s = batch;
    s.insert(s.end(), {rows, M});
    return contiguous(cast(native::expand(t, s), ct));
  };
  Tensor a1 = full(x1, P), a2 = full(x2, R);
  Dims os = batch;
  os.insert(os.end(), {P, R});
  Tensor out = Tensor::empty(os, ct, kc.device);
  with_compute_type(ct, [&](auto z) {
    using T = decltype(z);
    const T *p1 = a1.data<T>(), *p2 = a2.data<T>();
    T* o = out.data<T>();
    parallel_for(numel_of(batch) * P, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, R * M)),
                 [&](int64_t r0, int64_t r1) {
                   for (int64_t row = r0; row < r1; ++row)
                     for (int64_t j = 0; j < R; ++j)
                       o[row * R + j] = T(p_distance(p1 + row * M, p2 + (row / P * R + j) * M, M, p));
                 });
  });
  return one_tensor(cast(out, dt));
}

// trace of a 2-D tensor: floats keep their dtype, integers and bool sum to int64 (as torch.trace).
Tensors k_trace(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  AMPS_CHECK(x.dim() == 2, "trace: expected a matrix, but got tensor with dim {}", x.dim());
  const int64_t k = std::min(x.size(0), x.size(1)), step = x.stride(0) + x.stride(1);
  return {AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    using A = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, int64_t>;
    const T* p = x.data<T>();
    A s = 0;
    for (int64_t i = 0; i < k; ++i) s += A(compute_t<T>(p[i * step]));
    Tensor out = Tensor::empty({}, is_floating(x.dtype()) ? x.dtype() : DType::int64, kc.device);
    fill(out, Scalar(s));
    return out;
  })};
}

}  // namespace

void register_linalg_kernels(KernelTable& t) {
  t.add(OpId::trace, k_trace, kAllDTypes);
  t.add(OpId::cdist, k_cdist, kFloatDTypes);
  t.add(OpId::cholesky, k_cholesky, kFloatDTypes);
  t.add(OpId::inverse, k_inverse, kFloatDTypes);
  t.add(OpId::qr, k_qr, kFloatDTypes);
  t.add(OpId::svd, k_svd, kFloatDTypes);
}

}  // namespace amps::rt::cpu
