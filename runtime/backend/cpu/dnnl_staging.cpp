// f32<->bf16/f16 conversion and staging of arguments whose dtype or layout a primitive cannot take.
#include "runtime/backend/cpu/dnnl_staging.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/half.hpp"
#include "runtime/host_block_cache.hpp"

namespace amps::rt::dnnl_cpu::detail {

namespace {

// Rows of one conversion: contiguous runs go through the vectorised bulk converters of runtime/half
// (the one implementation of the roundings), strided ones element by element through the same
// scalar functions.
template <class S, class D>
void convert_row(const void* src, int64_t ss, void* dst, int64_t ds, int64_t n) {
  const S* s = static_cast<const S*>(src);
  D* d = static_cast<D*>(dst);
  if (ss == 1 && ds == 1) {
    if constexpr (std::is_same_v<S, D>) return void(std::memcpy(d, s, size_t(n) * sizeof(S)));
    if constexpr (std::is_same_v<S, float> && std::is_same_v<D, BFloat16>) return convert_float_to_bf16(s, d, n);
    if constexpr (std::is_same_v<S, BFloat16> && std::is_same_v<D, float>) return convert_bf16_to_float(s, d, n);
    if constexpr (std::is_same_v<S, float> && std::is_same_v<D, Half>) return convert_float_to_half(s, d, n);
    if constexpr (std::is_same_v<S, Half> && std::is_same_v<D, float>) return convert_half_to_float(s, d, n);
  }
  for (int64_t i = 0; i < n; ++i) d[i * ds] = D(float(s[i * ss]));
}

using RowFn = void (*)(const void*, int64_t, void*, int64_t, int64_t);

template <class S>
RowFn row_fn_to(DnnlType d) {
  switch (d) {
    case DnnlType::f32: return convert_row<S, float>;
    case DnnlType::bf16: return convert_row<S, BFloat16>;
    case DnnlType::f16: return convert_row<S, Half>;
  }
  return nullptr;
}

RowFn row_fn(DnnlType s, DnnlType d) {
  switch (s) {
    case DnnlType::f32: return row_fn_to<float>(d);
    case DnnlType::bf16: return row_fn_to<BFloat16>(d);
    case DnnlType::f16: return row_fn_to<Half>(d);
  }
  return nullptr;
}

char* at(const DnnlArg& a, int64_t off) {
  return static_cast<char*>(a.data) + off * dnnl_type_size(a.dt);
}

// Conversions below this many elements stay on the calling thread (an OpenMP fork costs microseconds).
constexpr int64_t kParallelElems = 32768;

// The iteration space of one copy: dims (innermost last) with both sides' strides, size-1 dims dropped
// and neighbours merged where both sides are dense across them, so dense copies are a single row.
struct Walk {
  Dims dims, ss, ds;
};

Walk walk_of(const DnnlArg& s, const DnnlArg& d) {
  Walk w;
  for (size_t k = 0; k < s.dims.size(); ++k) {
    if (s.dims[k] == 1) continue;
    if (!w.dims.empty() && w.ss.back() == s.dims[k] * s.strides[k] && w.ds.back() == s.dims[k] * d.strides[k]) {
      w.dims.back() *= s.dims[k], w.ss.back() = s.strides[k], w.ds.back() = d.strides[k];
      continue;
    }
    w.dims.push_back(s.dims[k]), w.ss.push_back(s.strides[k]), w.ds.push_back(d.strides[k]);
  }
  if (w.dims.empty()) w.dims = {1}, w.ss = {1}, w.ds = {1};
  return w;
}

// Rows [r0, r1) of [w] (a row is a run of the innermost dim): offsets from the row number once, then
// an odometer over the outer dims.
void convert_rows(const Walk& w, RowFn fn, const DnnlArg& s, const DnnlArg& d, int64_t r0, int64_t r1) {
  const size_t outer = w.dims.size() - 1;
  std::vector<int64_t> idx(outer, 0);
  int64_t so = 0, dof = 0;
  for (size_t k = outer, r = size_t(r0); k-- > 0;) {
    idx[k] = int64_t(r % size_t(w.dims[k])), r /= size_t(w.dims[k]);
    so += idx[k] * w.ss[k], dof += idx[k] * w.ds[k];
  }
  for (int64_t row = r0; row < r1; ++row) {
    fn(at(s, so), w.ss.back(), at(d, dof), w.ds.back(), w.dims.back());
    for (size_t k = outer; k-- > 0;) {
      if (++idx[k] < w.dims[k]) {
        so += w.ss[k], dof += w.ds[k];
        break;
      }
      so -= w.ss[k] * (w.dims[k] - 1), dof -= w.ds[k] * (w.dims[k] - 1);
      idx[k] = 0;
    }
  }
}

// Offsets into both sides of the start of outer row [r] of [w] (all dims but the last [inner] ones).
std::pair<int64_t, int64_t> outer_offsets(const Walk& w, size_t inner, int64_t r) {
  int64_t so = 0, dof = 0;
  for (size_t k = w.dims.size() - inner; k-- > 0;) {
    const int64_t i = r % w.dims[k];
    r /= w.dims[k];
    so += i * w.ss[k], dof += i * w.ds[k];
  }
  return {so, dof};
}

// A walk whose innermost dim is strided in the source while the dim before it is contiguous: a transpose.
// Row by row it would read one element per cache line.
bool transposes(const Walk& w) {
  const size_t n = w.dims.size();
  return n >= 2 && w.ss[n - 1] != 1 && w.ss[n - 2] == 1;
}

// Source elements read per row of a strip. The strip's destination rows are a power-of-two stride apart
// in the common case and so share few cache sets: 8 of them stay in L1 where 32 thrash (AVX2 EPYC, a
// 1024x512 f32 transpose: 8 rows 1.7x faster than 32).
constexpr int64_t kStrip = 8;

// Strips [u0, u1) of a transposing walk [w] (dims [..., A, B], the source contiguous along A): a strip is
// kStrip values of A across the whole of B, copied as short rows along A (contiguous reads; the writes
// stay within the strip's kStrip destination rows).
void convert_strips(const Walk& w, RowFn fn, const DnnlArg& s, const DnnlArg& d, int64_t u0, int64_t u1) {
  const size_t n = w.dims.size();
  const int64_t A = w.dims[n - 2], B = w.dims[n - 1], strips = (A + kStrip - 1) / kStrip;
  for (int64_t u = u0; u < u1; ++u) {
    const auto [so, dof] = outer_offsets(w, 2, u / strips);
    const int64_t a0 = u % strips * kStrip, len = std::min(kStrip, A - a0);
    for (int64_t b = 0; b < B; ++b)
      fn(at(s, so + a0 + b * w.ss[n - 1]), 1, at(d, dof + a0 * w.ds[n - 2] + b * w.ds[n - 1]), w.ds[n - 2], len);
  }
}

void convert_transposing(const Walk& w, RowFn fn, const DnnlArg& s, const DnnlArg& d, int64_t n) {
  const size_t r = w.dims.size();
  const int64_t units = n / (w.dims[r - 2] * w.dims[r - 1]) * ((w.dims[r - 2] + kStrip - 1) / kStrip);
  const int threads = n < kParallelElems || omp_in_parallel() ? 1 : int(std::min<int64_t>(omp_get_max_threads(), units));
  if (threads == 1) return convert_strips(w, fn, s, d, 0, units);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int t = 0; t < threads; ++t) convert_strips(w, fn, s, d, units * t / threads, units * (t + 1) / threads);
}

}  // namespace

uint16_t f32_to_bf16(float f) { return float_to_bf16_bits(f); }
float bf16_to_f32(uint16_t h) { return bf16_bits_to_float(h); }
uint16_t f32_to_f16(float f) { return float_to_half_bits(f); }
float f16_to_f32(uint16_t h) { return half_bits_to_float(h); }

// Large copies are split over the OpenMP threads: by rows, or a single long row by element ranges;
// transposing copies by strips.
void copy_convert(const DnnlArg& src_in, const DnnlArg& dst_in) {
  const DnnlArg s = explicit_strides(src_in), d = explicit_strides(dst_in);
  const int64_t n = numel(s.dims);
  if (n == 0) return;
  const Walk w = walk_of(s, d);
  const RowFn fn = row_fn(s.dt, d.dt);
  if (transposes(w)) return convert_transposing(w, fn, s, d, n);
  const int64_t inner = w.dims.back(), rows = n / inner;
  int threads = n < kParallelElems || omp_in_parallel() ? 1 : omp_get_max_threads();
  if (rows > 1) threads = int(std::min<int64_t>(threads, rows));
  if (threads == 1) return convert_rows(w, fn, s, d, 0, rows);
  if (rows > 1) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int t = 0; t < threads; ++t) convert_rows(w, fn, s, d, rows * t / threads, rows * (t + 1) / threads);
    return;
  }
  const int64_t ss = w.ss.back(), ds = w.ds.back();
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int t = 0; t < threads; ++t) {
    const int64_t b = inner * t / threads / 16 * 16, e = t + 1 == threads ? inner : inner * (t + 1) / threads / 16 * 16;
    if (e > b) fn(at(s, b * ss), ss, at(d, b * ds), ds, e - b);
  }
}

DnnlType io_type(DnnlType user, DnnlType compute) {
  if (compute == DnnlType::f32 || user == DnnlType::f16) return DnnlType::f32;
  return user;
}

Dims kept_order_strides(const DnnlArg& x) {
  const DnnlArg a = explicit_strides(x);
  std::vector<size_t> order(a.dims.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) { return a.strides[i] > a.strides[j]; });
  int64_t span = 1;
  for (size_t k = order.size(); k-- > 0;) {
    const size_t i = order[k];
    if (a.dims[i] != 1 && a.strides[i] != span) return dense_strides(a.dims);  // gaps, overlaps, broadcasts
    span *= a.dims[i];
  }
  return a.strides;
}

namespace {
// The strides of [a]'s staged copy: one decision for staged_md and Staging::in.
Dims staged_strides(const DnnlArg& a, bool dense, bool keep_order) {
  return keep_order && !dense ? kept_order_strides(a) : dense_strides(a.dims);
}
}  // namespace

Md staged_md(const DnnlArg& a, DnnlType t, bool dense, bool keep_order) {
  if (a.dt == t && (!dense || is_dense(a))) return md_of(a);
  return Md(a.dims, to_dnnl(t), staged_strides(a, dense, keep_order));
}

bool exact_reorder(const Md& from, const Md& to) {
  thread_local std::vector<std::tuple<Md, Md, bool>> seen;  // few distinct pairs per model
  for (const auto& [f, t, ok] : seen)
    if (f == from && t == to) return ok;
  if (seen.size() >= 256) seen.clear();
  dnnl::reorder::primitive_desc pd(ctx().engine, from, ctx().engine, to);
  const bool narrows_to_bf16 = from.data_type() == dnnl::memory::data_type::f32 &&
                               to.data_type() == dnnl::memory::data_type::bf16;
  const bool ok = std::string_view(pd.impl_info_str()).starts_with("jit:") &&
                  !(narrows_to_bf16 && native_bf16_dot());
  seen.emplace_back(from, to, ok);
  return ok;
}

bool direct_bf16(const DnnlArg& a, DnnlType ct, const Md& want, bool in) {
  if (a.dt != DnnlType::bf16 || ct != DnnlType::f32) return false;
  const Md user = md_of(a);
  return in ? exact_reorder(user, want) : exact_reorder(want, user);
}

DnnlArg Staging::temp(const std::vector<int64_t>& dims, DnnlType t, Dims strides) {
  const size_t bytes = size_t(numel(dims) * dnnl_type_size(t)) + sizeof(float);  // never 0
  bufs_.emplace_back(host_block_alloc(bytes), bytes);
  return DnnlArg{bufs_.back().first, t, dims, strides.empty() ? dense_strides(dims) : std::move(strides)};
}

Staging::~Staging() {
  for (auto& [p, n] : bufs_) host_block_free(p, n);
}

DnnlArg Staging::in(const DnnlArg& a, DnnlType t, bool dense, bool keep_order) {
  if (a.dt == t && (!dense || is_dense(a))) return explicit_strides(a);
  DnnlArg tmp = temp(a.dims, t, staged_strides(a, dense, keep_order));
  copy_convert(a, tmp);
  return tmp;
}

DnnlArg Staging::out(const DnnlArg& a, DnnlType t, bool dense, bool load) {
  if (a.dt == t && (!dense || is_dense(a))) return explicit_strides(a);
  DnnlArg tmp = temp(a.dims, t);
  if (load) copy_convert(a, tmp);
  back_.emplace_back(tmp, a);
  return tmp;
}

void Staging::finish() {
  for (auto& [tmp, user] : back_) copy_convert(tmp, user);
  back_.clear();
}

}  // namespace amps::rt::dnnl_cpu::detail
