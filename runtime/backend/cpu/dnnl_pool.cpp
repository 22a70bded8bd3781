// oneDNN max/avg pooling (1d/2d/3d): forward (with max-pool workspace), backward, argmax indices.
#include "runtime/backend/cpu/dnnl_pool.hpp"

#include <algorithm>

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/backend/cpu/dnnl_staging.hpp"

namespace amps::rt::dnnl_cpu {

using namespace detail;

namespace {

constexpr const char* kOp = "pool";

// oneDNN geometry: dilation 0 = none, right padding derived from the dst size.
struct Geo {
  Dims kernel, strides, dilates, pad_l, pad_r;
};

Geo geometry(const PoolParams& p, const Dims& src, const Dims& dst) {
  const size_t sp = src.size() - 2;
  check(sp >= 1 && sp <= 3 && dst.size() == src.size(), kOp, "src and dst need equal ranks 3 to 5");
  check(src[0] == dst[0] && src[1] == dst[1], kOp, "src and dst differ in N or C");
  check(p.kernel.size() == sp && p.stride.size() == sp && p.padding.size() == sp, kOp,
        "kernel, stride and padding need one entry per spatial dim");
  check(p.dilation.empty() || p.dilation.size() == sp, kOp, "dilation needs one entry per spatial dim");
  Geo g{p.kernel, p.stride, {}, p.padding, {}};
  for (size_t i = 0; i < sp; ++i) {
    const int64_t d = p.dilation.empty() ? 1 : p.dilation[i], span = d * (p.kernel[i] - 1) + 1;
    g.dilates.push_back(d - 1);
    // Exact right padding; a negative one (floor mode dropped a partial window) becomes 0, which
    // oneDNN's floor-division size check accepts and which changes no window.
    const int64_t pad_r = (dst[2 + i] - 1) * p.stride[i] + span - src[2 + i] - p.padding[i];
    g.pad_r.push_back(std::max<int64_t>(pad_r, 0));
  }
  return g;
}

dnnl::algorithm algo(const PoolParams& p) {
  if (p.max) return dnnl::algorithm::pooling_max;
  return p.count_include_pad ? dnnl::algorithm::pooling_avg_include_padding
                             : dnnl::algorithm::pooling_avg_exclude_padding;
}

// Torch's include-pad divisor counts a window only up to input + right padding; oneDNN's counts
// the whole kernel. They differ only for ceil-mode windows that hang past the padding; there the
// result is scaled by kernel / torch-divisor ('factors': one per dst position of each dim).
std::vector<std::vector<float>> ceil_factors(const PoolParams& p, const Dims& src, const Dims& dst) {
  std::vector<std::vector<float>> f(src.size() - 2);
  bool any = false;
  for (size_t i = 0; i < f.size(); ++i)
    for (int64_t o = 0; o < dst[2 + i]; ++o) {
      const int64_t start = o * p.stride[i] - p.padding[i];
      const int64_t end = std::min(start + p.kernel[i], src[2 + i] + p.padding[i]);
      f[i].push_back(static_cast<float>(p.kernel[i]) / static_cast<float>(end - start));
      any = any || end - start != p.kernel[i];
    }
  if (!any || p.max || !p.count_include_pad) f.clear();
  return f;
}

// Multiplies a dense f32 [N, C, *sp] buffer by the per-position 'factors'.
void apply_factors(const DnnlArg& dense, const std::vector<std::vector<float>>& factors) {
  float* x = static_cast<float*>(dense.data);
  const Dims& d = dense.dims;
  const int64_t sp = numel(d) / (d[0] * d[1]);
  for (int64_t i = 0; i < numel(d); ++i) {
    float f = 1.f;
    for (size_t k = factors.size(), rest = static_cast<size_t>(i % sp); k-- > 0;)
      f *= factors[k][rest % d[2 + k]], rest /= d[2 + k];
    x[i] *= f;
  }
}

struct FwdEntry {
  dnnl::pooling_v2_forward::primitive_desc pd;
  dnnl::pooling_v2_forward prim;
  DnnlType compute;
};

dnnl::pooling_v2_forward::primitive_desc fwd_pd(const PoolParams& p, const Geo& g, const Dims& src,
                                                const Dims& dst, DnnlType user, DnnlType ct,
                                                bool training) {
  const auto prop = training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  const DnnlType t = io_type(user, ct);
  dnnl::pooling_v2_forward::desc d(prop, algo(p), md_of(src, t), md_of(dst, t), g.strides,
                                   g.kernel, g.dilates, g.pad_l, g.pad_r);
  return dnnl::pooling_v2_forward::primitive_desc(d, ctx().engine);
}

Key pool_key(int pass, const PoolParams& p, const Dims& src, const Dims& dst, DnnlType t) {
  Key k;
  k.add(pass).add(p.kernel).add(p.stride).add(p.padding).add(p.dilation).add(p.max);
  return k.add(p.count_include_pad).add(src).add(dst).add(static_cast<int64_t>(t));
}

// Forward primitive for dims and user dtype; mixed ceil-mode averages compute in f32 so that the
// divisor fix-up rounds once. Shared by forward, workspace queries and as backward hint.
FwdEntry& fwd_entry(const PoolParams& p, const Dims& src, const Dims& dst, DnnlType user, bool training) {
  thread_local PrimCache<FwdEntry> cache;
  return cache.get(pool_key(training, p, src, dst, user), [&] {
    const Geo g = geometry(p, src, dst);
    const DnnlType want = ceil_factors(p, src, dst).empty() ? user : DnnlType::f32;
    auto [pd, ct] = pick_pd(want, [&](DnnlType t) { return fwd_pd(p, g, src, dst, user, t, training); });
    return FwdEntry{pd, dnnl::pooling_v2_forward(pd), ct};
  });
}

void forward(const PoolParams& p, const DnnlArg& src, const DnnlArg& dst, void* workspace) {
  check(src.dt == dst.dt, kOp, "src and dst must share a dtype");
  const bool training = p.max && workspace;
  FwdEntry& e = fwd_entry(p, src.dims, dst.dims, src.dt, training);
  const DnnlType t = io_type(src.dt, e.compute);
  Staging st;
  Exec ex;
  ex.in(DNNL_ARG_SRC, st.in(src, t, true), e.pd.src_desc());
  const DnnlArg out = st.out(dst, t, true);
  ex.out(DNNL_ARG_DST, out, e.pd.dst_desc());
  if (training) ex.raw(DNNL_ARG_WORKSPACE, e.pd.workspace_desc(), workspace);
  ex.run(e.prim);
  auto factors = ceil_factors(p, src.dims, dst.dims);
  if (!factors.empty()) apply_factors(out, factors);
  st.finish();
}

struct BwdEntry {
  dnnl::pooling_v2_backward::primitive_desc pd;
  dnnl::pooling_v2_backward prim;
  DnnlType compute;
};

BwdEntry& bwd_entry(const PoolParams& p, const Dims& src, const Dims& dst, DnnlType user) {
  thread_local PrimCache<BwdEntry> cache;
  return cache.get(pool_key(2, p, src, dst, user), [&] {
    const Geo g = geometry(p, src, dst);
    const DnnlType want = ceil_factors(p, src, dst).empty() ? user : DnnlType::f32;
    auto [pd, ct] = pick_pd(want, [&](DnnlType t) {
      auto hint = fwd_pd(p, g, src, dst, user, t, true);
      const DnnlType io = io_type(user, t);
      dnnl::pooling_v2_backward::desc d(algo(p), md_of(src, io), md_of(dst, io), g.strides,
                                        g.kernel, g.dilates, g.pad_l, g.pad_r);
      return dnnl::pooling_v2_backward::primitive_desc(d, ctx().engine, hint);
    });
    return BwdEntry{pd, dnnl::pooling_v2_backward(pd), ct};
  });
}

void backward(const PoolParams& p, const DnnlArg& diff_dst, const DnnlArg& diff_src, const void* ws) {
  check(diff_src.dt == diff_dst.dt, kOp, "diff_src and diff_dst must share a dtype");
  check(!p.max || ws, kOp, "max-pool backward needs the forward's workspace");
  BwdEntry& e = bwd_entry(p, diff_src.dims, diff_dst.dims, diff_dst.dt);
  const DnnlType t = io_type(diff_dst.dt, e.compute);
  Staging st;
  Exec ex;
  auto factors = ceil_factors(p, diff_src.dims, diff_dst.dims);
  DnnlArg dd = st.in(diff_dst, t, true);
  if (!factors.empty()) {  // scale a private copy: the caller's diff_dst stays untouched
    DnnlArg copy = st.temp(dd.dims, t);
    copy_convert(dd, copy);
    apply_factors(copy, factors);
    dd = copy;
  }
  ex.in(DNNL_ARG_DIFF_DST, dd, e.pd.diff_dst_desc());
  ex.out(DNNL_ARG_DIFF_SRC, st.out(diff_src, t, true), e.pd.diff_src_desc());
  if (p.max) ex.raw(DNNL_ARG_WORKSPACE, e.pd.workspace_desc(), const_cast<void*>(ws));
  ex.run(e.prim);
  st.finish();
}

// Kernel-window position 'k' (row-major over the kernel) of dst position 'o' -> input plane index.
int64_t input_index(const PoolParams& p, const Dims& src, const Dims& dst, int64_t o, int64_t k) {
  int64_t flat = 0, mul = 1;
  for (size_t i = p.kernel.size(); i-- > 0;) {
    const int64_t oi = o % dst[2 + i], ki = k % p.kernel[i], d = p.dilation.empty() ? 1 : p.dilation[i];
    o /= dst[2 + i], k /= p.kernel[i];
    flat += (oi * p.stride[i] - p.padding[i] + ki * d) * mul, mul *= src[2 + i];
  }
  return flat;
}

void write_indices(const PoolParams& p, const Dims& src, const Dims& dst, const void* ws, int64_t* out) {
  check(p.max, kOp, "indices exist for max pooling only");
  FwdEntry& e = fwd_entry(p, src, dst, DnnlType::f32, true);
  const bool u8 = e.pd.workspace_desc().data_type() == dnnl::memory::data_type::u8;
  const int64_t sp = numel(dst) / (dst[0] * dst[1]);
  for (int64_t i = 0; i < numel(dst); ++i) {
    const int64_t k = u8 ? static_cast<const uint8_t*>(ws)[i] : static_cast<const int32_t*>(ws)[i];
    out[i] = input_index(p, src, dst, i % sp, k);
  }
}

}  // namespace

int64_t pool_workspace_bytes(const PoolParams& p, const DnnlArg& src, const DnnlArg& dst) {
  int64_t bytes = 0;
  guard("pool_workspace_bytes", [&] {
    if (p.max) bytes = fwd_entry(p, src.dims, dst.dims, src.dt, true).pd.workspace_desc().get_size();
  });
  return bytes;
}

void pool_forward(const PoolParams& p, const DnnlArg& src, const DnnlArg& dst, void* workspace) {
  guard("pool_forward", [&] { forward(p, src, dst, workspace); });
}

void pool_backward(const PoolParams& p, const DnnlArg& diff_dst, const DnnlArg& diff_src,
                   const void* workspace) {
  guard("pool_backward", [&] { backward(p, diff_dst, diff_src, workspace); });
}

void pool_indices(const PoolParams& p, const std::vector<int64_t>& src_dims,
                  const std::vector<int64_t>& dst_dims, const void* workspace, int64_t* indices) {
  guard("pool_indices", [&] { write_indices(p, src_dims, dst_dims, workspace, indices); });
}

}  // namespace amps::rt::dnnl_cpu
