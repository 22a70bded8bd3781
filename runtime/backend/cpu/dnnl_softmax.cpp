// oneDNN softmax and log_softmax along any axis: forward and backward.
#include "runtime/backend/cpu/dnnl_softmax.hpp"

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/backend/cpu/dnnl_staging.hpp"

namespace amps::rt::dnnl_cpu {

using namespace detail;

namespace {

constexpr const char* kOp = "softmax";

dnnl::algorithm algo(bool log) {
  return log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
}

struct FwdEntry {
  dnnl::softmax_v2_forward::primitive_desc pd;
  dnnl::softmax_v2_forward prim;
  DnnlType compute;
};

struct BwdEntry {
  dnnl::softmax_v2_backward::primitive_desc pd;
  dnnl::softmax_v2_backward prim;
  DnnlType compute;
};

// Dense descs: oneDNN's fast softmax wants dense data; strided views are staged.
dnnl::softmax_v2_forward::primitive_desc fwd_pd(const Dims& d, DnnlType s, DnnlType o, int axis,
                                                bool log, DnnlType ct) {
  dnnl::softmax_v2_forward::desc desc(dnnl::prop_kind::forward_training, algo(log),
                                      md_of(d, io_type(s, ct)), md_of(d, io_type(o, ct)), axis);
  return dnnl::softmax_v2_forward::primitive_desc(desc, ctx().engine);
}

void check_args(const DnnlArg& a, const DnnlArg& b, int axis) {
  check(a.dims == b.dims, kOp, "tensor dims differ");
  check(axis >= 0 && static_cast<size_t>(axis) < a.dims.size(), kOp, "axis out of range");
}

void forward(const DnnlArg& src, const DnnlArg& dst, int axis, bool log) {
  check_args(src, dst, axis);
  check(dst.dt == src.dt || dst.dt == DnnlType::f32, kOp, "dst must be f32 or src's dtype");
  thread_local PrimCache<FwdEntry> cache;
  Key k;
  k.add(src.dims).add(static_cast<int64_t>(src.dt)).add(static_cast<int64_t>(dst.dt)).add(axis).add(log);
  FwdEntry& e = cache.get(k, [&] {
    auto [pd, ct] = pick_pd(src.dt, [&](DnnlType t) { return fwd_pd(src.dims, src.dt, dst.dt, axis, log, t); });
    return FwdEntry{pd, dnnl::softmax_v2_forward(pd), ct};
  });
  Staging st;
  Exec ex;
  ex.in(DNNL_ARG_SRC, st.in(src, io_type(src.dt, e.compute), true), e.pd.src_desc());
  ex.out(DNNL_ARG_DST, st.out(dst, io_type(dst.dt, e.compute), true), e.pd.dst_desc());
  ex.run(e.prim);
  st.finish();
}

void backward(const DnnlArg& dst, const DnnlArg& dd, const DnnlArg& ds, int axis, bool log) {
  check_args(dst, dd, axis), check_args(dst, ds, axis);
  check(dd.dt == ds.dt, kOp, "diff_src dtype must equal diff_dst dtype");
  thread_local PrimCache<BwdEntry> cache;
  Key k;
  k.add(dst.dims).add(static_cast<int64_t>(dst.dt)).add(static_cast<int64_t>(dd.dt)).add(axis).add(log);
  BwdEntry& e = cache.get(k, [&] {
    auto [pd, ct] = pick_pd(dd.dt, [&](DnnlType t) {
      auto hint = fwd_pd(dst.dims, dd.dt, dst.dt, axis, log, t);
      const Md mdst = md_of(dst.dims, io_type(dst.dt, t)), mdiff = md_of(dst.dims, io_type(dd.dt, t));
      dnnl::softmax_v2_backward::desc desc(algo(log), mdiff, mdiff, mdst, axis);
      return dnnl::softmax_v2_backward::primitive_desc(desc, ctx().engine, hint);
    });
    return BwdEntry{pd, dnnl::softmax_v2_backward(pd), ct};
  });
  Staging st;
  Exec ex;
  ex.in(DNNL_ARG_DST, st.in(dst, io_type(dst.dt, e.compute), true), e.pd.dst_desc());
  ex.in(DNNL_ARG_DIFF_DST, st.in(dd, io_type(dd.dt, e.compute), true), e.pd.diff_dst_desc());
  ex.out(DNNL_ARG_DIFF_SRC, st.out(ds, io_type(ds.dt, e.compute), true), e.pd.diff_src_desc());
  ex.run(e.prim);
  st.finish();
}

}  // namespace

void softmax_forward(const DnnlArg& src, const DnnlArg& dst, int axis, bool log) {
  guard(log ? "log_softmax" : "softmax", [&] { forward(src, dst, axis, log); });
}

void softmax_backward(const DnnlArg& dst, const DnnlArg& diff_dst, const DnnlArg& diff_src,
                      int axis, bool log) {
  guard(log ? "log_softmax_backward" : "softmax_backward",
        [&] { backward(dst, diff_dst, diff_src, axis, log); });
}

}  // namespace amps::rt::dnnl_cpu
