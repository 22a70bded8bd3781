// oneDNN convolution and transposed convolution (1d/2d/3d): forward, backward data, backward weights.
#include "runtime/backend/cpu/dnnl_conv.hpp"

#include <type_traits>
#include <utility>

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/backend/cpu/dnnl_staging.hpp"

namespace amps::rt::dnnl_cpu {

using namespace detail;

namespace {

constexpr const char* kOp = "conv";

// The oneDNN primitive types of one family; convolution and deconvolution share every signature.
struct ConvTypes {
  using Fwd = dnnl::convolution_forward;
  using BwdData = dnnl::convolution_backward_data;
  using BwdWeights = dnnl::convolution_backward_weights;
  static constexpr dnnl::algorithm algo = dnnl::algorithm::convolution_direct;
};
struct DeconvTypes {
  using Fwd = dnnl::deconvolution_forward;
  using BwdData = dnnl::deconvolution_backward_data;
  using BwdWeights = dnnl::deconvolution_backward_weights;
  static constexpr dnnl::algorithm algo = dnnl::algorithm::deconvolution_direct;
};

// Shapes and geometry in oneDNN terms (dilation 0 = none; right padding from the output size).
struct Geo {
  Dims src, wei, dst, strides, dilates, pad_l, pad_r;
};

// Torch weight [C_out, C_in/g, *k] (conv) or [C_in, C_out/g, *k] (transposed) as a view in
// oneDNN's [(g,) C_out/g, C_in/g, *k]: a split and a swap of dims, no copy.
DnnlArg weight_view(const ConvParams& p, const DnnlArg& w) {
  DnnlArg v = explicit_strides(w);
  check(v.dims.size() >= 3 && v.dims[0] % p.groups == 0, kOp, "weight dims do not fit groups");
  if (p.groups > 1) {
    const int64_t per = v.dims[0] / p.groups;
    v.dims[0] = per;
    v.dims.insert(v.dims.begin(), p.groups);
    v.strides.insert(v.strides.begin(), per * v.strides[0]);
  }
  const size_t o = p.groups > 1 ? 1 : 0;
  if (p.transposed) std::swap(v.dims[o], v.dims[o + 1]), std::swap(v.strides[o], v.strides[o + 1]);
  return v;
}

int64_t param(const std::vector<int64_t>& v, size_t i, int64_t dflt) {
  return i < v.size() ? v[i] : dflt;
}

// Checks channels and output size against torch's formulas and derives oneDNN's geometry.
Geo geometry(const ConvParams& p, const Dims& src, const DnnlArg& wv, const Dims& dst) {
  const size_t sp = src.size() - 2, o = p.groups > 1 ? 1 : 0;
  check(sp >= 1 && sp <= 3 && dst.size() == src.size() && wv.dims.size() == sp + 2 + o, kOp,
        "src, weight and dst need matching ranks 3 to 5");
  check(p.stride.size() == sp && p.padding.size() == sp && p.dilation.size() == sp, kOp,
        "stride, padding and dilation need one entry per spatial dim");
  check(src[1] == p.groups * wv.dims[o + 1] && dst[1] == p.groups * wv.dims[o], kOp,
        "channel counts do not match the weight and groups");
  Geo g{src, wv.dims, dst, p.stride, {}, p.padding, {}};
  for (size_t i = 0; i < sp; ++i) {
    const int64_t s = p.stride[i], d = p.dilation[i], pad = p.padding[i], op = param(p.output_padding, i, 0);
    const int64_t span = d * (wv.dims[o + 2 + i] - 1) + 1, in = src[2 + i], out = dst[2 + i];
    const int64_t want = p.transposed ? (in - 1) * s - 2 * pad + span + op : (in + 2 * pad - span) / s + 1;
    check(out == want, kOp, "dst spatial size does not match torch's output-size formula");
    g.dilates.push_back(d - 1);
    g.pad_r.push_back(p.transposed ? pad - op : pad);
  }
  return g;
}

Md any(const Dims& d, DnnlType user, DnnlType ct) { return md_any(d, io_type(user, ct)); }

// Binds [a] as the primitive's input or output [arg]: bf16 straight into oneDNN's reorder where that
// converts exactly (one pass), else staged in the compute type first (the conversion, then the reorder).
void bind(Exec& ex, Staging& st, int arg, const DnnlArg& a, DnnlType ct, const Md& want, bool in) {
  if (direct_bf16(a, ct, want, in)) return in ? ex.in(arg, a, want) : ex.out(arg, a, want);
  in ? ex.in(arg, st.in(a, io_type(a.dt, ct)), want) : ex.out(arg, st.out(a, io_type(a.dt, ct)), want);
}

// The forward pd; 'bias_dt' null when there is no bias. Also the hint for both backward passes.
// Whether [g] may use Winograd: a result of half type [out] computed in [ct] = f32 (bf16 without
// bf16 products on this CPU; f16 always), a 2-D 3x3 stride-1 undilated ungrouped convolution with
// at least 16 channels in and out. Winograd's error, tens of f32 ulps, is far below the rounding of
// the half-precision result (2^13 to 2^16 f32 ulps), and on AVX-512 it runs all three passes ~1.6x
// faster than direct there; a first layer with few input channels does more transform work than it
// saves, so it stays direct. f32 convolutions stay direct, as PyTorch's, and so does the transposed family.
template <class T>
bool winograd_fits(const Geo& g, DnnlType out, DnnlType ct) {
  if constexpr (!std::is_same_v<T, ConvTypes>) return false;
  if (out == DnnlType::f32 || ct != DnnlType::f32 || g.wei.size() != 4) return false;
  const bool k3s1 = g.wei[2] == 3 && g.wei[3] == 3 && g.strides == Dims{1, 1} && g.dilates == Dims{0, 0};
  return k3s1 && g.wei[0] >= 16 && g.wei[1] >= 16;
}

// make(algorithm) with Winograd where it fits and oneDNN has a kernel for it, else T::algo.
template <class T, class Make>
auto with_algo(const Geo& g, DnnlType out, DnnlType ct, Make&& make) -> decltype(make(T::algo)) {
  if (winograd_fits<T>(g, out, ct)) {
    try {
      return make(dnnl::algorithm::convolution_winograd);
    } catch (const dnnl::error&) {
      // no Winograd kernel for this shape or CPU: direct below
    }
  }
  return make(T::algo);
}

template <class T>
typename T::Fwd::primitive_desc fwd_pd(const Geo& g, DnnlType s, DnnlType w, DnnlType d,
                                       const DnnlType* bias_dt, DnnlType ct) {
  using D = typename T::Fwd::desc;
  const auto prop = dnnl::prop_kind::forward_training;
  Md ms = any(g.src, s, ct), mw = any(g.wei, w, ct), md = any(g.dst, d, ct);
  return with_algo<T>(g, d, ct, [&](dnnl::algorithm algo) {
    D desc = bias_dt ? D(prop, algo, ms, mw, any({g.dst[1]}, *bias_dt, ct), md, g.strides,
                         g.dilates, g.pad_l, g.pad_r)
                     : D(prop, algo, ms, mw, md, g.strides, g.dilates, g.pad_l, g.pad_r);
    return typename T::Fwd::primitive_desc(desc, ctx().engine);
  });
}

template <class Pd, class Prim>
struct Entry {
  Pd pd;
  Prim prim;
  DnnlType compute;
};

Key conv_key(int pass, const ConvParams& p) {
  Key k;
  k.add(pass).add(p.stride).add(p.padding).add(p.dilation).add(p.output_padding);
  return k.add(p.groups).add(p.transposed);
}

const DnnlType* opt_dt(const DnnlArg* a) { return a ? &a->dt : nullptr; }

template <class T>
void forward(const ConvParams& p, const DnnlArg& src, const DnnlArg& weight, const DnnlArg* bias,
             const DnnlArg& dst) {
  using Pd = typename T::Fwd::primitive_desc;
  const DnnlArg wv = weight_view(p, weight);
  const Geo g = geometry(p, src.dims, wv, dst.dims);
  thread_local PrimCache<Entry<Pd, typename T::Fwd>> cache;
  auto& e = cache.get(conv_key(0, p).add(src).add(wv).add_opt(bias).add(dst), [&] {
    auto [pd, ct] = pick_dot_pd(src.dt, [&](DnnlType t) {
      return fwd_pd<T>(g, src.dt, wv.dt, dst.dt, opt_dt(bias), t);
    });
    return Entry<Pd, typename T::Fwd>{pd, typename T::Fwd(pd), ct};
  });
  Staging st;
  Exec ex;
  bind(ex, st, DNNL_ARG_SRC, src, e.compute, e.pd.src_desc(), true);
  bind(ex, st, DNNL_ARG_WEIGHTS, wv, e.compute, e.pd.weights_desc(), true);
  if (bias) bind(ex, st, DNNL_ARG_BIAS, *bias, e.compute, e.pd.bias_desc(), true);
  bind(ex, st, DNNL_ARG_DST, dst, e.compute, e.pd.dst_desc(), false);
  ex.run(e.prim);
  st.finish();
}

template <class T>
void backward_data(const ConvParams& p, const DnnlArg& diff_dst, const DnnlArg& weight,
                   const DnnlArg& diff_src) {
  using Pd = typename T::BwdData::primitive_desc;
  const DnnlArg wv = weight_view(p, weight);
  const Geo g = geometry(p, diff_src.dims, wv, diff_dst.dims);
  thread_local PrimCache<Entry<Pd, typename T::BwdData>> cache;
  auto& e = cache.get(conv_key(1, p).add(diff_dst).add(wv).add(diff_src), [&] {
    auto [pd, ct] = pick_dot_pd(diff_dst.dt, [&](DnnlType t) {
      auto hint = fwd_pd<T>(g, diff_src.dt, wv.dt, diff_dst.dt, nullptr, t);
      return with_algo<T>(g, diff_src.dt, t, [&](dnnl::algorithm algo) {
        typename T::BwdData::desc d(algo, any(g.src, diff_src.dt, t), any(g.wei, wv.dt, t),
                                    any(g.dst, diff_dst.dt, t), g.strides, g.dilates, g.pad_l, g.pad_r);
        return Pd(d, ctx().engine, hint);
      });
    });
    return Entry<Pd, typename T::BwdData>{pd, typename T::BwdData(pd), ct};
  });
  Staging st;
  Exec ex;
  bind(ex, st, DNNL_ARG_DIFF_DST, diff_dst, e.compute, e.pd.diff_dst_desc(), true);
  bind(ex, st, DNNL_ARG_WEIGHTS, wv, e.compute, e.pd.weights_desc(), true);
  bind(ex, st, DNNL_ARG_DIFF_SRC, diff_src, e.compute, e.pd.diff_src_desc(), false);
  ex.run(e.prim);
  st.finish();
}

template <class T>
typename T::BwdWeights::primitive_desc bwd_weights_pd(const Geo& g, DnnlType s, DnnlType w,
                                                      DnnlType d, const DnnlType* bias_dt,
                                                      DnnlType t) {
  using D = typename T::BwdWeights::desc;
  auto hint = fwd_pd<T>(g, s, w, d, bias_dt, t);
  Md ms = any(g.src, s, t), mw = any(g.wei, w, t), md = any(g.dst, d, t);
  return with_algo<T>(g, w, t, [&](dnnl::algorithm algo) {
    D desc = bias_dt ? D(algo, ms, mw, any({g.dst[1]}, *bias_dt, t), md, g.strides, g.dilates,
                         g.pad_l, g.pad_r)
                     : D(algo, ms, mw, md, g.strides, g.dilates, g.pad_l, g.pad_r);
    return typename T::BwdWeights::primitive_desc(desc, ctx().engine, hint);
  });
}

template <class T>
void backward_weights(const ConvParams& p, const DnnlArg& src, const DnnlArg& diff_dst,
                      const DnnlArg& diff_weight, const DnnlArg* diff_bias) {
  using Pd = typename T::BwdWeights::primitive_desc;
  const DnnlArg wv = weight_view(p, diff_weight);
  const Geo g = geometry(p, src.dims, wv, diff_dst.dims);
  thread_local PrimCache<Entry<Pd, typename T::BwdWeights>> cache;
  auto& e = cache.get(conv_key(2, p).add(src).add(diff_dst).add(wv).add_opt(diff_bias), [&] {
    auto [pd, ct] = pick_dot_pd(src.dt, [&](DnnlType t) {
      return bwd_weights_pd<T>(g, src.dt, wv.dt, diff_dst.dt, opt_dt(diff_bias), t);
    });
    return Entry<Pd, typename T::BwdWeights>{pd, typename T::BwdWeights(pd), ct};
  });
  Staging st;
  Exec ex;
  const DnnlType ct = e.compute;
  bind(ex, st, DNNL_ARG_SRC, src, ct, e.pd.src_desc(), true);
  bind(ex, st, DNNL_ARG_DIFF_DST, diff_dst, ct, e.pd.diff_dst_desc(), true);
  bind(ex, st, DNNL_ARG_DIFF_WEIGHTS, wv, ct, e.pd.diff_weights_desc(), false);
  if (diff_bias) bind(ex, st, DNNL_ARG_DIFF_BIAS, *diff_bias, ct, e.pd.diff_bias_desc(), false);
  ex.run(e.prim);
  st.finish();
}

}  // namespace

void conv_forward(const ConvParams& p, const DnnlArg& src, const DnnlArg& weight,
                  const DnnlArg* bias, const DnnlArg& dst) {
  guard("conv_forward", [&] {
    p.transposed ? forward<DeconvTypes>(p, src, weight, bias, dst)
                 : forward<ConvTypes>(p, src, weight, bias, dst);
  });
}

void conv_backward_data(const ConvParams& p, const DnnlArg& diff_dst, const DnnlArg& weight,
                        const DnnlArg& diff_src) {
  guard("conv_backward_data", [&] {
    p.transposed ? backward_data<DeconvTypes>(p, diff_dst, weight, diff_src)
                 : backward_data<ConvTypes>(p, diff_dst, weight, diff_src);
  });
}

void conv_backward_weights(const ConvParams& p, const DnnlArg& src, const DnnlArg& diff_dst,
                           const DnnlArg& diff_weight, const DnnlArg* diff_bias) {
  guard("conv_backward_weights", [&] {
    p.transposed ? backward_weights<DeconvTypes>(p, src, diff_dst, diff_weight, diff_bias)
                 : backward_weights<ConvTypes>(p, src, diff_dst, diff_weight, diff_bias);
  });
}

}  // namespace amps::rt::dnnl_cpu
