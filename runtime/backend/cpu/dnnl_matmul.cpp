// oneDNN matmul: batched, broadcasting, strided C = alpha*(A·B + bias) + beta*C on raw buffers.
#include "runtime/backend/cpu/dnnl_matmul.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/backend/cpu/dnnl_staging.hpp"

namespace amps::rt::dnnl_cpu {

using namespace detail;

namespace {

constexpr const char* kOp = "matmul";
constexpr int64_t kDenseSrcElems = 64 * 64;  // below this a transposed src is not worth a copy

struct Entry {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  DnnlType compute;
  bool dense_in;   // a and b are staged dense because their strides only had a reference kernel
  bool reorder_a;  // a bound as it is, reordered by oneDNN into the row-major src the primitive takes
  // Set when every argument is bound as it is (no staging, no reorder): the memories of the user views
  // are made once and each call only swaps their data handles (no desc or memory creation per call).
  bool direct = false;
  std::unordered_map<int, dnnl::memory> args;
};

// 'x' left-padded with size-1 dims to rank 'r'; stride-0 dims (but the last 'keep') become size 1
// (oneDNN broadcasts size-1 batch dims), size-1 dims get plain-looking strides for fast kernels.
DnnlArg to_rank(const DnnlArg& x, size_t r, size_t keep) {
  DnnlArg a = explicit_strides(x);
  check(a.dims.size() <= r, kOp, "operand has more dims than dst");
  a.dims.insert(a.dims.begin(), r - a.dims.size(), 1);
  a.strides.insert(a.strides.begin(), r - a.strides.size(), 0);
  int64_t span = 1;
  for (size_t i = r; i-- > 0;) {
    if (a.strides[i] == 0 && i + keep < r) a.dims[i] = 1;
    if (a.dims[i] == 1) a.strides[i] = span;
    span = std::max(span, a.strides[i] * a.dims[i]);
  }
  return a;
}

bool dims_broadcast(const DnnlArg& x, const DnnlArg& dst, size_t n_matrix_dims) {
  for (size_t i = 0; i + n_matrix_dims < dst.dims.size(); ++i)
    if (x.dims[i] != 1 && x.dims[i] != dst.dims[i]) return false;
  return true;
}

void check_shapes(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias) {
  const size_t r = dst.dims.size();
  check(r >= 2 && a.dims.size() >= 2 && b.dims.size() >= 2, kOp, "operands need rank >= 2");
  check(a.dt == b.dt, kOp, "a and b must share a dtype");
  check(dst.dt == DnnlType::f32 || dst.dt == a.dt, kOp, "dst must be f32 or a's dtype");
  const int64_t m = a.dims[r - 2], k = a.dims[r - 1], n = b.dims[r - 1];
  check(b.dims[r - 2] == k, kOp, "inner dims differ");
  check(dst.dims[r - 2] == m && dst.dims[r - 1] == n, kOp, "dst is not [..., M, N]");
  check(dims_broadcast(a, dst, 2) && dims_broadcast(b, dst, 2), kOp, "batch dims do not broadcast");
  if (!bias) return;
  check(bias->dt == DnnlType::f32 || bias->dt == a.dt, kOp, "bias must be f32 or a's dtype");
  check(dims_broadcast(*bias, dst, 0), kOp, "bias does not broadcast to dst");
}

dnnl::matmul::primitive_desc make_pd(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst,
                                     const DnnlArg* bias, float alpha, float beta, DnnlType ct,
                                     bool dense_in, bool dense_a) {
  dnnl::primitive_attr attr;
  if (alpha != 1.f) attr.set_output_scales(0, {alpha});
  dnnl::post_ops po;
  if (beta != 0.f) po.append_sum(beta);
  attr.set_post_ops(po);
  Md ma = staged_md(a, io_type(a.dt, ct), dense_in || dense_a), mb = staged_md(b, io_type(b.dt, ct), dense_in, true);
  Md md = staged_md(dst, io_type(dst.dt, ct));
  auto d = bias ? dnnl::matmul::desc(ma, mb, staged_md(*bias, io_type(bias->dt, ct)), md)
                : dnnl::matmul::desc(ma, mb, md);
  return dnnl::matmul::primitive_desc(d, attr, ctx().engine);
}

bool impl_is(const dnnl::matmul::primitive_desc& pd, const char* prefix) {
  return std::string_view(pd.impl_info_str()).starts_with(prefix);
}

// Whether [x]'s matrices are column-major (a transposed view), big enough for a copy to pay off.
bool transposed_matrices(const DnnlArg& x) {
  const size_t r = x.dims.size();
  return x.strides[r - 2] == 1 && x.strides[r - 1] != 1 && x.dims[r - 2] * x.dims[r - 1] >= kDenseSrcElems;
}

// Sets e.direct and e.args when each argument's own view is what the primitive takes.
void bind_direct(Entry& e, const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias) {
  const std::pair<int, const DnnlArg*> views[] = {
      {DNNL_ARG_SRC, &a}, {DNNL_ARG_WEIGHTS, &b}, {DNNL_ARG_DST, &dst}, {DNNL_ARG_BIAS, bias}};
  if (e.dense_in || e.reorder_a) return;
  for (auto [arg, v] : views) {
    if (!v) continue;
    const Md md = md_of(*v);
    if (io_type(v->dt, e.compute) != v->dt || md != e.pd.query_md(dnnl::query::exec_arg_md, arg)) {
      e.args.clear();
      return;
    }
    e.args[arg] = dnnl::memory(md, ctx().engine, DNNL_MEMORY_NONE);
  }
  e.direct = true;
}

// Picks the compute type, then prefers dense staged inputs (copying is O(n^2), the product O(n^3)) when
// the strides given only have a reference kernel but dense ones have a fast one, and for a transposed
// src of oneDNN's sgemm-based kernel (gemm:jit, the one on CPUs without AVX-512), which runs it about
// 2x slower than a row-major one (AVX2 EPYC, f32 1024x512 by 512x256: 3.9 against 2.0 ms). A converted
// b keeps its own dim order (as an f32 b is bound): x @ W.t() stays a contiguous conversion, and that
// kernel runs a transposed b as fast or faster (256x1024 by 1024x1024: 4.4 against 6.9 ms row-major).
Entry make_entry(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias,
                 float alpha, float beta) {
  auto [pd, ct] = pick_dot_pd(a.dt, [&](DnnlType t) {
    return make_pd(a, b, dst, bias, alpha, beta, t, false, false);
  });
  bool dense = false, reorder_a = false;
  if (impl_is(pd, "ref") && !(is_dense(a) && is_dense(b))) {
    auto dpd = make_pd(a, b, dst, bias, alpha, beta, ct, true, false);
    if (!impl_is(dpd, "ref")) pd = dpd, dense = true;
  } else if (impl_is(pd, "gemm:") && io_type(a.dt, ct) == a.dt && transposed_matrices(a)) {
    auto dpd = make_pd(a, b, dst, bias, alpha, beta, ct, false, true);
    if (impl_is(dpd, "gemm:")) pd = dpd, reorder_a = true;  // oneDNN's JIT reorder transposes fast
  }
  Entry e{pd, dnnl::matmul(pd), ct, dense, reorder_a, false, {}};
  bind_direct(e, a, b, dst, bias);
  return e;
}

void run_direct(Entry& e, const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias) {
  e.args[DNNL_ARG_SRC].set_data_handle(a.data);
  e.args[DNNL_ARG_WEIGHTS].set_data_handle(b.data);
  e.args[DNNL_ARG_DST].set_data_handle(dst.data);
  if (bias) e.args[DNNL_ARG_BIAS].set_data_handle(bias->data);
  e.prim.execute(ctx().stream, e.args);
  ctx().stream.wait();
}

int64_t float_key(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

void run(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias, float alpha,
         float beta) {
  check_shapes(a, b, dst, bias);
  thread_local Key key;  // reused: its buffer keeps its capacity between calls
  key.v.clear();
  key.add(a).add(b).add(dst).add_opt(bias).add(float_key(alpha)).add(float_key(beta));
  thread_local PrimCache<Entry> cache;
  Entry& e = cache.get(key, [&] { return make_entry(a, b, dst, bias, alpha, beta); });
  if (e.direct) return run_direct(e, a, b, dst, bias);
  Staging st;
  Exec ex;
  ex.in(DNNL_ARG_SRC, e.reorder_a ? a : st.in(a, io_type(a.dt, e.compute), e.dense_in), e.pd.src_desc());
  ex.in(DNNL_ARG_WEIGHTS, st.in(b, io_type(b.dt, e.compute), e.dense_in, true), e.pd.weights_desc());
  if (bias) ex.in(DNNL_ARG_BIAS, st.in(*bias, io_type(bias->dt, e.compute)), e.pd.bias_desc());
  const bool load = beta != 0.f;
  ex.out(DNNL_ARG_DST, st.out(dst, io_type(dst.dt, e.compute), false, load), e.pd.dst_desc(), load);
  ex.run(e.prim);
  st.finish();
}

// Whether a batch dim of [dst] has no operand of its size: both were size 1 or expanded (stride 0, which
// to_rank makes size 1), and oneDNN cannot repeat a product along a dim no operand has.
bool dst_only_batch_dim(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst) {
  for (size_t i = 0; i + 2 < dst.dims.size(); ++i)
    if (dst.dims[i] != 1 && a.dims[i] == 1 && b.dims[i] == 1) return true;
  return false;
}

}  // namespace

void matmul(const DnnlArg& a, const DnnlArg& b, const DnnlArg& dst, const DnnlArg* bias,
            float alpha, float beta) {
  guard(kOp, [&] {
    const size_t r = dst.dims.size();
    check(r >= 2, kOp, "dst needs rank >= 2");
    DnnlArg ra = to_rank(a, r, 2), rb = to_rank(b, r, 2), rd = explicit_strides(dst);
    Staging st;  // an expanded operand that alone gives dst a batch dim is copied out in full (as PyTorch's)
    if (dst_only_batch_dim(ra, rb, rd)) {
      const DnnlArg fa = to_rank(a, r, r), fb = to_rank(b, r, r);
      for (size_t i = 0; i + 2 < r; ++i) {
        if (ra.dims[i] != 1 || rb.dims[i] != 1 || rd.dims[i] == 1) continue;
        if (fa.dims[i] == rd.dims[i]) ra = st.in(fa, fa.dt, true);
        else if (fb.dims[i] == rd.dims[i]) rb = st.in(fb, fb.dt, true);
      }
    }
    if (!bias) return run(ra, rb, rd, nullptr, alpha, beta);
    DnnlArg rbias = to_rank(*bias, r, 0);
    run(ra, rb, rd, &rbias, alpha, beta);
  });
}

}  // namespace amps::rt::dnnl_cpu
