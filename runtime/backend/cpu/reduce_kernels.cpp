// CPU reduction kernels: sum/mean/prod, max/min(+indices), amax/amin, argmax/argmin, var/std, norm,
// logsumexp, all/any, cumsum, cumprod. Inputs are viewed as [outer, inner] rows with the reduced dims innermost (read
// in place, or gathered row by row from the strided view: never a copy of the whole input); one long row
// is split across threads. Half types accumulate in float; floats sum per chunk, then in double.
#include <cmath>
#include <limits>
#include <memory>

#include "runtime/backend/common/reduce_layout.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// The input as rows [outer, inner]: [view] is the input permuted to (kept dims, reduced dims); row i starts at
// i * inner when [dense], else it is gathered through the view's strides.
struct Rows {
  Tensor view;
  bool dense = true;
  size_t nkept = 0;
  int64_t outer = 1, inner = 1;
  Dims out_shape;
};

using common::reduced_mask;
using common::sum_dtype;

Rows make_rows(const Tensor& x, const std::optional<Dims>& dims, bool keepdim) {
  common::ReducedLayout l = common::reduced_layout(x, dims, keepdim);
  Rows r;
  r.view = native::permute(x, l.perm);
  r.dense = r.view.is_contiguous();
  r.nkept = l.nkept;
  r.outer = l.outer;
  r.inner = l.inner;
  r.out_shape = std::move(l.out_shape);
  return r;
}

// Element offset of row [i]'s first element in the strided view.
int64_t row_offset(const Rows& r, int64_t i) {
  int64_t off = 0;
  for (size_t d = r.nkept; d-- > 0;) {
    off += (i % r.view.sizes()[d]) * r.view.strides()[d];
    i /= r.view.sizes()[d];
  }
  return off;
}

// Copies row [i] of the strided view into [buf] in row-major order of the reduced dims: the values a
// row-major copy of the view would hold, so row arithmetic is unchanged.
template <typename T> void gather_row(const Rows& r, int64_t i, T* buf) {
  const T* base = r.view.template data<T>() + row_offset(r, i);
  const Dims &sz = r.view.sizes(), &st = r.view.strides();
  const size_t nd = sz.size();
  if (r.inner == 0) return;
  if (nd == r.nkept) {
    buf[0] = base[0];
    return;
  }
  std::vector<int64_t> idx(nd - r.nkept, 0);
  const int64_t run = sz.back(), step = st.back();
  for (int64_t k = 0; k < r.inner; k += run) {
    int64_t off = 0;
    for (size_t j = 0; j + 1 < idx.size(); ++j) off += idx[j] * st[r.nkept + j];
    for (int64_t t = 0; t < run; ++t) buf[k + t] = base[off + t * step];
    for (size_t j = idx.size() - 1; j-- > 0;) {
      if (++idx[j] < sz[r.nkept + j]) break;
      idx[j] = 0;
    }
  }
}

// Calls f(i, row pointer) for every row, rows split across threads; strided rows go through a buffer.
template <typename T, typename F> void for_rows(const Rows& r, F&& f) {
  const T* base = r.view.template data<T>();
  int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(r.inner, 1));
  parallel_for(r.outer, grain, [&](int64_t b, int64_t e) {
    std::unique_ptr<T[]> buf(r.dense ? nullptr : new T[size_t(std::max<int64_t>(r.inner, 1))]);
    for (int64_t i = b; i < e; ++i) {
      if (r.dense) {
        f(i, base + i * r.inner);
        continue;
      }
      gather_row(r, i, buf.get());
      f(i, static_cast<const T*>(buf.get()));
    }
  });
}

// One dense row at least this long is split across threads (reduce-all on large tensors).
inline constexpr int64_t kSplitRow = 4 * kParallelGrain;

// part(begin, end) over per-thread pieces of [0, n) that start on kChunk boundaries (so chunked sums see
// the same chunks as a sequential pass); the partials come back in order. Single piece when n is short or
// already inside a parallel region.
template <typename P, typename F> std::vector<P> row_partials(int64_t n, F&& part) {
  int64_t nt = std::min<int64_t>(omp_get_max_threads(), n / kSplitRow);
  if (nt <= 1 || omp_in_parallel()) return {part(int64_t(0), n)};
  const int64_t piece = (n / nt + kChunk - 1) / kChunk * kChunk;
  nt = (n + piece - 1) / piece;
  std::vector<P> parts(static_cast<size_t>(nt));
#pragma omp parallel for num_threads(int(nt)) schedule(static, 1)
  for (int64_t t = 0; t < nt; ++t) parts[size_t(t)] = part(t * piece, std::min(n, (t + 1) * piece));
  return parts;
}

// Calls g(values, count, offset) over one row in compute-type chunks.
template <typename T, typename G> void visit_row(const T* p, int64_t n, G&& g) {
  using C = compute_t<T>;
  C buf[kChunk];
  for (int64_t off = 0; off < n; off += kChunk) {
    int64_t m = std::min(kChunk, n - off);
    g(load_chunk<T, C>(reinterpret_cast<const char*>(p + off), int64_t(sizeof(T)), m, buf), m, off);
  }
}

// Sum of one chunk: float lanes for floats (vectorises), then widened by the caller.
template <typename C> auto chunk_sum(const C* v, int64_t m) {
  if constexpr (std::is_same_v<C, float>) {
    float lanes[8] = {};
    int64_t i = 0;
    for (; i + 8 <= m; i += 8)
      for (int k = 0; k < 8; ++k) lanes[k] += v[i + k];
    double s = 0;
    for (; i < m; ++i) s += v[i];
    for (float l : lanes) s += l;
    return s;
  } else {
    acc_t<C> s = 0;
    for (int64_t i = 0; i < m; ++i) s += acc_t<C>(v[i]);
    return s;
  }
}

template <typename T> auto row_sum(const T* p, int64_t n) {
  using A = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, int64_t>;
  std::vector<A> parts = row_partials<A>(n, [p](int64_t b, int64_t e) {
    A s = 0;
    visit_row(p + b, e - b, [&](const compute_t<T>* v, int64_t m, int64_t) { s += A(chunk_sum(v, m)); });
    return s;
  });
  A s = 0;
  for (A v : parts) s += v;
  return s;
}

// Writes f(row) as OutT for each row into a new tensor of r.out_shape.
template <typename T, typename OutT, typename F> Tensor reduce_to(const Rows& r, DType out_dt, Device dev, F f) {
  Tensor out = Tensor::empty(r.out_shape, out_dt, dev);
  OutT* o = out.data<OutT>();
  for_rows<T>(r, [&](int64_t i, const T* p) { o[i] = OutT(f(p, r.inner)); });
  return out;
}

// Whether [x] is row-major and reduced over a leading block of dims only: then it is [R, K] row-major
// and its column sums stream the input once instead of gathering strided rows.
bool leading_block(const Tensor& x, const std::optional<Dims>& dims) {
  std::vector<bool> mask = reduced_mask(x, dims);
  if (!x.is_contiguous() || mask.empty() || !mask.front() || mask.back()) return false;
  return std::is_sorted(mask.begin(), mask.end(), [](bool a, bool b) { return a && !b; });
}

// a[k] += x[i, k] for rows [r0, r1) and columns [k0, k1) of the row-major x with K columns (vectorised along k).
template <typename T, typename A>
void add_rows(const T* p, int64_t K, int64_t r0, int64_t r1, int64_t k0, int64_t k1, A* a) {
  vectorized([&] {
    for (int64_t i = r0; i < r1; ++i)
      for (int64_t k = k0; k < k1; ++k) a[k] += A(compute_t<T>(p[i * K + k]));
  });
}

// out[k] = scale * sum_r x[r, k] in double (int64 for integers): columns split across threads when there
// are many, else rows split into per-thread partial sums added in order.
template <typename T, typename O> Tensor column_sums(const Tensor& x, const Rows& r, DType out_dt, Device dev, double scale) {
  using A = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, int64_t>;
  const int64_t R = r.inner, K = r.outer;
  const T* p = x.data<T>();
  const int64_t nt = std::clamp<int64_t>(R * K / kParallelGrain, 1, omp_in_parallel() ? 1 : omp_get_max_threads());
  const bool by_rows = K < nt * kChunk;
  const int64_t parts_n = by_rows ? nt : 1, piece = by_rows ? (R + nt - 1) / nt : R;
  std::vector<A> acc(size_t(parts_n * K), A(0));
#pragma omp parallel for num_threads(int(nt)) schedule(static) if (nt > 1)
  for (int64_t t = 0; t < nt; ++t) {
    const int64_t r0 = by_rows ? t * piece : 0, r1 = by_rows ? std::min(R, r0 + piece) : R;
    const int64_t k0 = by_rows ? 0 : t * K / nt, k1 = by_rows ? K : (t + 1) * K / nt;
    add_rows(p, K, r0, r1, k0, k1, acc.data() + (by_rows ? t * K : 0));
  }
  Tensor out = Tensor::empty(r.out_shape, out_dt, dev);
  O* o = out.data<O>();
  for (int64_t k = 0; k < K; ++k) {
    A s = 0;
    for (int64_t t = 0; t < parts_n; ++t) s += acc[size_t(t * K + k)];
    if constexpr (std::is_floating_point_v<A>) o[k] = O(s * scale);
    else o[k] = O(s);
  }
  return out;
}

// [x] converted to the reduction's result dtype first, as PyTorch's dtype= argument does (sum(dtype=float16) of
// float32 values past 65504 is inf or NaN, sum(dtype=int64) of 0.5s truncates each first), skipping the copy where
// the conversion is exact: integers and bools into int64, a float into a wider float.
Tensor as_reduced_dtype(const Tensor& x, DType out_dt) {
  const DType in = x.dtype();
  const bool exact = in == out_dt || (!is_floating(in) && out_dt == DType::int64) ||
                     (is_floating(in) && is_floating(out_dt) && dtype_size(out_dt) > dtype_size(in));
  return exact ? x : cast(x, out_dt);
}

// f(O{}) with O the storage type of [out_dt], for the result types as_reduced_dtype leaves for an input of storage type
// T: T itself, int64 (integers and bools), float32 or float64 (a wider float). Fewer instantiations than a second
// full dispatch (4 per input type instead of one per dtype).
template <typename T, typename F> auto dispatch_reduced_out(DType out_dt, F&& f) {
  switch (out_dt) {
    case DType::int64: return f(int64_t{});
    case DType::float32: return f(float{});
    case DType::float64: return f(double{});
    default:
      AMPS_ASSERT(out_dt == dtype_of<T>, "reduction to {} from {}", dtype_name(out_dt), dtype_name(dtype_of<T>));
      return f(T{});
  }
}

// sum/mean: the input as_reduced_dtype, reduced in its compute type, then converted to the output dtype.
Tensor sum_like(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, DType out_dt, Device dev, bool mean) {
  Tensor xin = as_reduced_dtype(x, out_dt);
  Rows r = make_rows(xin, dims, keepdim);
  const double scale = mean ? 1.0 / double(r.inner) : 1.0;
  const bool columns = !r.dense && leading_block(xin, dims);
  return AMPS_DISPATCH_ALL(xin.dtype(), T, [&] {
    return dispatch_reduced_out<T>(out_dt, [&](auto o_tag) {
      using O = decltype(o_tag);
      if (columns) return column_sums<T, O>(xin, r, out_dt, dev, scale);
      return reduce_to<T, O>(r, out_dt, dev, [scale](const T* p, int64_t n) {
        auto s = row_sum(p, n);
        if constexpr (std::is_floating_point_v<decltype(s)>) return s * scale;
        else return s;
      });
    });
  });
}

Tensors k_prod(const ArgReader& a, const KernelContext& kc) {
  DType out_dt = sum_dtype(a.tensor(0), a.opt_dtype(3));
  Tensor x = as_reduced_dtype(a.tensor(0), out_dt);
  std::optional<int64_t> d = a.opt_i64(1);
  Rows r = make_rows(x, d ? std::optional<Dims>(Dims{*d}) : std::nullopt, a.boolean(2));
  return {AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    return dispatch_reduced_out<T>(out_dt, [&](auto o_tag) {
      using O = decltype(o_tag);
      return reduce_to<T, O>(r, out_dt, kc.device, [](const T* p, int64_t n) {
        acc_t<compute_t<T>> s = 1;
        for (int64_t i = 0; i < n; ++i) s *= acc_t<compute_t<T>>(compute_t<T>(p[i]));
        return s;
      });
    });
  })};
}

// Index of the first extreme element of a row (NaN counts as the extreme, as in PyTorch).
template <typename T> int64_t arg_extreme_seq(const T* p, int64_t n, bool want_max) {
  using C = compute_t<T>;
  int64_t best = 0;
  C bv = C(p[0]);
  for (int64_t i = 1; i < n; ++i) {
    C v = C(p[i]);
    if (bv != bv) break;
    if (v != v || (want_max ? v > bv : v < bv)) {
      bv = v;
      best = i;
    }
  }
  return best;
}

// arg_extreme_seq over per-thread pieces; the earliest piece wins ties and NaNs, as a sequential pass would.
template <typename T> int64_t arg_extreme(const T* p, int64_t n, bool want_max) {
  std::vector<int64_t> parts = row_partials<int64_t>(n, [&](int64_t b, int64_t e) {
    return b + arg_extreme_seq(p + b, e - b, want_max);
  });
  using C = compute_t<T>;
  int64_t best = parts[0];
  for (int64_t i : parts) {
    const C bv = C(p[best]), v = C(p[i]);
    if (bv != bv) break;
    if (v != v || (want_max ? v > bv : v < bv)) best = i;
  }
  return best;
}

void check_nonempty(const Rows& r, OpId op) {
  AMPS_CHECK(r.inner > 0 || r.outer == 0, "{}(): Expected reduction dim to be specified for input.numel() == 0. "
             "Specify the reduction dim with the 'dim' argument.", op_name(op));
}

Tensor extreme_values(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, bool want_max, OpId op,
                      Device dev) {
  Rows r = make_rows(x, dims, keepdim);
  check_nonempty(r, op);
  return AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    return reduce_to<T, T>(r, x.dtype(), dev, [want_max](const T* p, int64_t n) { return p[arg_extreme(p, n, want_max)]; });
  });
}

Tensor extreme_indices(const Tensor& x, const std::optional<Dims>& dims, bool keepdim, bool want_max, OpId op,
                       Device dev) {
  Rows r = make_rows(x, dims, keepdim);
  check_nonempty(r, op);
  return AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    return reduce_to<T, int64_t>(r, DType::int64, dev, [want_max](const T* p, int64_t n) { return arg_extreme(p, n, want_max); });
  });
}

Tensors k_max(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(extreme_values(a.tensor(0), std::nullopt, false, true, a.op(), kc.device));
}
Tensors k_min(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(extreme_values(a.tensor(0), std::nullopt, false, false, a.op(), kc.device));
}
Tensors k_amax(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(extreme_values(a.tensor(0), a.ints(1), a.boolean(2), true, a.op(), kc.device));
}
Tensors k_amin(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(extreme_values(a.tensor(0), a.ints(1), a.boolean(2), false, a.op(), kc.device));
}

Tensors extreme_dim(const ArgReader& a, const KernelContext& kc, bool want_max) {
  Tensor x = a.tensor(0);
  Dims d{a.i64(1)};
  return {extreme_values(x, d, a.boolean(2), want_max, a.op(), kc.device),
          extreme_indices(x, d, a.boolean(2), want_max, a.op(), kc.device)};
}
Tensors k_max_dim(const ArgReader& a, const KernelContext& kc) { return extreme_dim(a, kc, true); }
Tensors k_min_dim(const ArgReader& a, const KernelContext& kc) { return extreme_dim(a, kc, false); }

// argmax/argmin: dim None flattens (keepdim then gives all-ones shape, like PyTorch).
Tensors arg_kernel(const ArgReader& a, const KernelContext& kc, bool want_max) {
  Tensor x = a.tensor(0);
  std::optional<int64_t> d = a.opt_i64(1);
  if (d) return one_tensor(extreme_indices(x, Dims{*d}, a.boolean(2), want_max, a.op(), kc.device));
  Tensor flat = extreme_indices(reshape(x, {-1}), Dims{0}, false, want_max, a.op(), kc.device);
  return one_tensor(a.boolean(2) ? native::view(flat, Dims(size_t(x.dim()), 1)) : flat);
}
Tensors k_argmax(const ArgReader& a, const KernelContext& kc) { return arg_kernel(a, kc, true); }
Tensors k_argmin(const ArgReader& a, const KernelContext& kc) { return arg_kernel(a, kc, false); }

// var/std: two passes in double per row.
Tensor var_like(const ArgReader& a, const KernelContext& kc, bool take_sqrt) {
  Tensor x = a.tensor(0);
  AMPS_CHECK(is_floating(x.dtype()), "{}: only floating point dtypes are supported, got {}", op_name(a.op()),
             dtype_name(x.dtype()));
  double correction = a.opt_scalar(2).value_or(Scalar(int64_t(1))).to_double();
  Rows r = make_rows(x, a.opt_ints(1), a.boolean(3));
  return AMPS_DISPATCH_FLOAT(x.dtype(), "var", T, [&] {
    return reduce_to<T, T>(r, x.dtype(), kc.device, [=](const T* p, int64_t n) {
      double mean = row_sum(p, n) / double(n), ss = 0;
      for (int64_t i = 0; i < n; ++i) ss += (double(p[i]) - mean) * (double(p[i]) - mean);
      double v = ss / std::max(0.0, double(n) - correction);
      return take_sqrt ? std::sqrt(v) : v;
    });
  });
}
Tensors k_var(const ArgReader& a, const KernelContext& kc) { return one_tensor(var_like(a, kc, false)); }
Tensors k_std(const ArgReader& a, const KernelContext& kc) { return one_tensor(var_like(a, kc, true)); }

template <typename T> double row_norm(const T* p, int64_t n, double ord) {
  double acc = ord == -INFINITY ? INFINITY : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double v = std::fabs(double(p[i]));
    if (ord == INFINITY) acc = std::max(acc, v);
    else if (ord == -INFINITY) acc = std::min(acc, v);
    else if (ord == 0) acc += v != 0;
    else if (ord == 1) acc += v;
    else if (ord == 2) acc += v * v;
    else acc += std::pow(v, ord);
  }
  if (ord == 2) return std::sqrt(acc);
  if (ord == 0 || ord == 1 || std::isinf(ord)) return acc;
  return std::pow(acc, 1.0 / ord);
}

Tensors k_norm(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  std::optional<DType> dt = a.opt_dtype(4);
  if (dt) x = cast(x, *dt);
  AMPS_CHECK(is_floating(x.dtype()), "linalg.vector_norm: Expected a floating point or complex tensor as input. "
             "Got {}", dtype_name(x.dtype()));
  double ord = a.opt_scalar(1).value_or(Scalar(2.0)).to_double();
  Rows r = make_rows(x, a.opt_ints(2), a.boolean(3));
  return {AMPS_DISPATCH_FLOAT(x.dtype(), "norm", T, [&] {
    return reduce_to<T, T>(r, x.dtype(), kc.device, [ord](const T* p, int64_t n) { return row_norm(p, n, ord); });
  })};
}

Tensors k_logsumexp(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  if (!is_floating(x.dtype())) x = cast(x, default_dtype());
  Rows r = make_rows(x, a.ints(1), a.boolean(2));
  return {AMPS_DISPATCH_FLOAT(x.dtype(), "logsumexp", T, [&] {
    return reduce_to<T, T>(r, x.dtype(), kc.device, [](const T* p, int64_t n) {
      double m = -INFINITY, s = 0;
      for (int64_t i = 0; i < n; ++i) m = std::max(m, double(p[i]));
      if (std::isinf(m)) return m;
      for (int64_t i = 0; i < n; ++i) s += std::exp(double(p[i]) - m);
      return m + std::log(s);
    });
  })};
}

Tensors bool_reduce(const ArgReader& a, const KernelContext& kc, bool want_all) {
  Tensor x = a.tensor(0);
  std::optional<int64_t> d = a.opt_i64(1);
  Rows r = make_rows(x, d ? std::optional<Dims>(Dims{*d}) : std::nullopt, a.boolean(2));
  // uint8 input gives a uint8 result (PyTorch 1.13 keeps it for all/any), every other dtype bool; the rows write
  // bools either way (a bool's byte is the uint8 0 or 1)
  const DType out_dt = x.dtype() == DType::uint8 ? DType::uint8 : DType::bool_;
  return {AMPS_DISPATCH_ALL(x.dtype(), T, [&] {
    return reduce_to<T, bool>(r, out_dt, kc.device, [want_all](const T* p, int64_t n) {
      std::vector<char> parts = row_partials<char>(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
          if ((compute_t<T>(p[i]) != compute_t<T>(0)) != want_all) return char(!want_all);
        return char(want_all);
      });
      return std::find(parts.begin(), parts.end(), char(!want_all)) == parts.end() ? want_all : !want_all;
    });
  })};
}
Tensors k_all(const ArgReader& a, const KernelContext& kc) { return bool_reduce(a, kc, true); }
Tensors k_any(const ArgReader& a, const KernelContext& kc) { return bool_reduce(a, kc, false); }

// cumsum / cumprod(input, dim, dtype=None): a running sum (kProduct false) or product along dim, in the dtype sum
// gives (dtype=, else floats as they are and integers as int64), dim moved innermost for the scan and back.
template <bool kProduct> Tensors k_scan(const ArgReader& a, const KernelContext& kc) {
  Tensor x = a.tensor(0);
  DType out_dt = sum_dtype(x, a.opt_dtype(2));
  int64_t d = wrap_dim(a.i64(1), x.dim());
  Tensor moved = x.dim() == 0 ? x : native::transpose(x, d, -1);
  Tensor rows = contiguous(cast(moved, out_dt));
  Tensor out = Tensor::empty(rows.sizes(), out_dt, kc.device);
  const int64_t inner = x.dim() == 0 ? 1 : rows.size(-1), outer = inner ? rows.numel() / inner : 0;
  AMPS_DISPATCH_ALL(out_dt, T, [&] {
    const T* in = rows.data<T>();
    T* o = out.data<T>();
    for (int64_t i = 0; i < outer; ++i) {
      // floats run in double, as PyTorch's CPU acc_type (a float32 running sum drifts over long rows)
      using A = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, acc_t<compute_t<T>>>;
      A s = kProduct ? A(1) : A(0);
      for (int64_t j = 0; j < inner; ++j) {
        const A v = A(compute_t<T>(in[i * inner + j]));
        if constexpr (std::is_integral_v<A>) {  // wraps around as PyTorch's (signed overflow would be undefined)
          const uint64_t us = uint64_t(s), uv = uint64_t(v);
          s = A(kProduct ? us * uv : us + uv);
        } else {
          s = kProduct ? s * v : s + v;
        }
        o[i * inner + j] = T(s);
      }
    }
  });
  return one_tensor(x.dim() == 0 ? out : contiguous(native::transpose(out, d, -1)));
}

}  // namespace

void register_reduce_kernels(KernelTable& t) {
  common::register_sum_kernels<sum_like>(t);
  t.add(OpId::prod, k_prod);
  t.add(OpId::max, k_max);
  t.add(OpId::min, k_min);
  t.add(OpId::max_dim, k_max_dim);
  t.add(OpId::min_dim, k_min_dim);
  t.add(OpId::amax, k_amax);
  t.add(OpId::amin, k_amin);
  t.add(OpId::argmax, k_argmax);
  t.add(OpId::argmin, k_argmin);
  t.add(OpId::var, k_var, kFloatDTypes);
  t.add(OpId::std, k_std, kFloatDTypes);
  t.add(OpId::norm, k_norm);
  t.add(OpId::logsumexp, k_logsumexp);
  t.add(OpId::all, k_all);
  t.add(OpId::any, k_any);
  t.add(OpId::cumsum, k_scan<false>);
  t.add(OpId::cumprod, k_scan<true>);
}

}  // namespace amps::rt::cpu
