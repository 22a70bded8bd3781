// torch.histogram and torch.histogramdd: bins found by binary search among the edges (the last bin includes its right
// edge), weights summed with index_add, so they run on every device; PyTorch 1.13's argument forms, edges and errors.
#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::interp {
namespace {

using O = rt::OpId;

const std::vector<Value>* items_of(const Value& v) {
  return v.is(ObjKind::Tuple) ? &v.as<Tuple>()->items : v.is(ObjKind::List) ? &v.as<List>()->items : nullptr;
}

const std::vector<std::string> kHistogramFields = {"hist", "bin_edges"};

// The (leftmost, rightmost) edges for [bins] equal bins: range, else the data's (an empty input spans [0, 1], a
// single value v spans [v - 0.5, v + 0.5]), as torch.histogram picks them.
std::pair<double, double> outer_edges(const rt::Tensor& x, const Value& range, const Span& where) {
  double lo = 0, hi = 0;
  if (!range.is_undef() && !range.is_none()) {
    const std::vector<Value>* r = range.is(ObjKind::Tuple) ? &range.as<Tuple>()->items
                                  : range.is(ObjKind::List) ? &range.as<List>()->items : nullptr;
    if (!r || r->size() != 2) Interp::fail("TypeError", "histogram(): range must be a pair of numbers (min, max)", where);
    auto num = [&](const Value& v) {
      if (!v.is_float() && !v.is_int() && !v.is_bool())
        Interp::fail("TypeError", fmt::format("histogram(): range must hold numbers, not {}", type_name(v)), where);
      return v.is_float() ? v.as_float() : double(v.as_int());
    };
    lo = num((*r)[0]), hi = num((*r)[1]);
  } else if (x.numel() > 0) {
    lo = rt::min(x).item().to_double(), hi = rt::max(x).item().to_double();
  }
  AMPS_CHECK(lo <= hi || std::isnan(lo) || std::isnan(hi), "torch.histogramdd: min should not exceed max, but got min "
             "{} max {} for dimension 0", lo, hi);
  AMPS_CHECK(std::isfinite(lo) && std::isfinite(hi), "torch.histogramdd: dimension 0's range [{}, {}] is not finite",
             lo, hi);
  if (x.numel() == 0 && lo == hi && (range.is_undef() || range.is_none())) hi = 1;
  else if (lo == hi) lo -= 0.5, hi += 0.5;
  return {lo, hi};
}

// Per bin of the sorted [edges], the summed weight of the elements of [x] it holds (the last bin includes its right
// edge; values outside the edges and NaNs count nowhere).
// Each element's bin among the sorted [edges] (clamped into range) and whether it lies inside them.
std::pair<rt::Tensor, rt::Tensor> bin_index(const rt::Tensor& flat, const rt::Tensor& edges) {
  const int64_t nbins = edges.size(0) - 1;
  rt::Tensor idx = rt::dispatch(O::searchsorted, {edges, flat, false, true, rt::IValue(), rt::IValue()})[0] -
                   rt::Scalar(int64_t(1));
  const rt::Tensor last = edges.select(0, nbins);
  idx = rt::where(rt::eq(flat, last), rt::full({}, rt::Scalar(nbins - 1), rt::DType::int64, flat.device()), idx);
  const rt::Tensor inside = rt::call_op(O::logical_and, rt::ge(flat, edges.select(0, 0)), rt::le(flat, last));
  return {rt::clamp(idx, rt::Scalar(int64_t(0)), rt::Scalar(nbins - 1)), inside};
}

// [w] (or ones) summed per [index] into [n] bins of [dt], elements outside ([inside] false) counting nowhere.
rt::Tensor weighted_counts(const rt::Tensor& index, const rt::Tensor& inside, const rt::Tensor& w, int64_t n,
                           rt::DType dt) {
  const rt::Tensor weights = w.defined() ? w.reshape({-1}) : rt::ones({index.numel()}, dt, index.device());
  const rt::Tensor kept = rt::where(inside, weights, rt::zeros({}, weights.dtype(), weights.device()));
  return rt::call_op(O::index_add, rt::zeros({n}, dt, index.device()), int64_t(0), index, kept);
}

rt::Tensor bin_counts(const rt::Tensor& x, const rt::Tensor& edges, const rt::Tensor& weight) {
  const auto [index, inside] = bin_index(x.reshape({-1}), edges);
  return weighted_counts(index, inside, weight, edges.size(0) - 1, x.dtype());
}

rt::Tensor histogram_edges(const rt::Tensor& x, const Value& bins, const Value& range, const Span& where) {
  if (const rt::Tensor* b = tensor_of(bins)) {
    AMPS_CHECK(b->dtype() == x.dtype(), "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
               "but got input with dtype {} and bins for dimension 0 with dtype {}", aten_type_name(x.dtype()),
               aten_type_name(b->dtype()));
    AMPS_CHECK(b->dim() == 1 && b->numel() > 0, "torch.histogramdd: bins tensor should have one dimension and at "
               "least 1 entry, but got {} dimensions and {} entries", b->dim(), b->numel());
    return *b;
  }
  if (!bins.is_int()) Interp::fail("TypeError", "histogram(): bins must be an int or a 1-D tensor of bin edges", where);
  AMPS_CHECK(bins.as_int() > 0, "torch.histogram(): bins must be > 0, but got {} for dimension 0", bins.as_int());
  const auto [lo, hi] = outer_edges(x, range, where);
  return rt::dispatch(O::linspace, {rt::Scalar(lo), rt::Scalar(hi), bins.as_int() + 1, x.dtype(), x.device(), false})[0];
}

// histogram(input, bins=100, *, range=None, weight=None, density=False) -> (hist, bin_edges).
Value b_histogram(Interp&, CallArgs& a) {
  check_keywords(a, "histogram", {"input", "bins", "range", "weight", "density"});
  if (a.pos.size() > 2) Interp::fail("TypeError", "histogram() takes 2 positional arguments (range, weight and density "
                                     "are keyword-only)", a.span);
  const Value input = a.pos.empty() ? keyword(a, "input") : a.pos[0];
  const rt::Tensor* x = tensor_of(input);
  if (!x) Interp::fail("TypeError", "histogram(): argument 'input' must be Tensor", a.span);
  Value bins = a.pos.size() > 1 ? a.pos[1] : keyword(a, "bins");
  if (bins.is_undef()) bins = Value(int64_t(100));
  return guarded(a.span, [&] {
    AMPS_CHECK(x->is_floating_point(), "\"histogramdd\" not implemented for '{}'",
               rt::common::torch_type_name(x->dtype()));
    const Value wv = keyword(a, "weight"), density = keyword(a, "density");
    const rt::Tensor* w = wv.is_undef() || wv.is_none() ? nullptr : tensor_of(wv);
    AMPS_CHECK(!w || w->sizes() == x->sizes(), "torch.histogramdd: if weight tensor is provided it should have the "
               "same shape as the input tensor excluding its innermost dimension, but got input with shape {} and "
               "weight with shape {}", rt::common::list_shape(x->sizes()), rt::common::list_shape(w->sizes()));
    const rt::Tensor edges = histogram_edges(*x, bins, keyword(a, "range"), a.span);
    rt::Tensor hist = bin_counts(*x, edges, w ? *w : rt::Tensor());
    if (!density.is_undef() && density.is_bool() && density.as_bool()) {
      const rt::Tensor widths = edges.slice(0, 1, std::nullopt) - edges.slice(0, 0, -1);
      hist = hist / (rt::sum(hist) * widths);
    }
    Value r = make_tuple({wrap(hist), wrap(edges)});
    r.as<Tuple>()->field_names = &kHistogramFields;
    return r;
  });
}

// ---- histogramdd

const std::vector<std::string> kHistogramddFields = {"hist", "bin_edges"};

// Dim [d]'s bin edges for histogramdd: its tensor of edges, or [count] equal bins over its (lo, hi) range pair.
rt::Tensor dd_edges(const rt::Tensor& column, const Value& bins, size_t d, const Value& range, const Span& where) {
  const std::vector<Value>* per_dim = items_of(bins);
  const Value spec = per_dim ? (*per_dim)[d] : bins;
  Value pair = Value::undef();
  if (!range.is_undef() && !range.is_none()) {
    const std::vector<Value>& r = *items_of(range);
    pair = make_tuple({r[2 * d], r[2 * d + 1]});
  }
  return histogram_edges(column, spec, pair, where);
}

// The weighted counts of histogramdd's points in the D-dimensional grid of bins; [edges] receives each dim's edges.
rt::Tensor dd_counts(const rt::Tensor& x, const Value& bins, const Value& range, const Value& wv,
                     std::vector<Value>& edges, const Span& where) {
  const int64_t D = x.size(-1);
  const rt::Tensor points = x.reshape({-1, D});
  rt::Dims sizes;
  rt::Tensor linear = rt::zeros({points.size(0)}, rt::DType::int64, x.device());
  rt::Tensor inside = rt::ones({points.size(0)}, rt::DType::bool_, x.device());
  for (int64_t d = 0; d < D; ++d) {  // the bin's row-major index in the grid, and whether every coordinate is inside
    const rt::Tensor column = points.select(1, d).contiguous();
    const rt::Tensor e = dd_edges(column, bins, size_t(d), range, where);
    const auto [index, in] = bin_index(column, e);
    linear = linear * rt::Scalar(e.size(0) - 1) + index;
    inside = rt::call_op(O::logical_and, inside, in);
    sizes.push_back(e.size(0) - 1);
    edges.push_back(wrap(e));
  }
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  const rt::Tensor* w = wv.is_undef() || wv.is_none() ? nullptr : tensor_of(wv);
  return weighted_counts(linear, inside, w ? *w : rt::Tensor(), total, x.dtype()).reshape(sizes);
}

// [hist] as a density: divided by its total and by each bin's volume (the product of its widths).
rt::Tensor dd_density(const rt::Tensor& hist, const std::vector<Value>& edges) {
  rt::Tensor volume = rt::ones({}, hist.dtype(), hist.device());
  for (size_t d = 0; d < edges.size(); ++d) {
    const rt::Tensor& e = *tensor_of(edges[d]);
    rt::Dims shape(edges.size(), 1);
    shape[d] = -1;
    volume = volume * (e.slice(0, 1, std::nullopt) - e.slice(0, 0, -1)).reshape(shape);
  }
  return hist / (rt::sum(hist) * volume);
}

// histogramdd(input, bins, *, range=None, weight=None, density=False) -> (hist, bin_edges): input's last dim holds
// the D coordinates of each point; bins an int, D ints or D edge tensors; range 2 * D numbers (min, max per dim).
Value b_histogramdd(Interp&, CallArgs& a) {
  check_keywords(a, "histogramdd", {"input", "bins", "range", "weight", "density"});
  if (a.pos.size() > 2) Interp::fail("TypeError", "histogramdd() takes 2 positional arguments", a.span);
  const rt::Tensor* x = tensor_of(a.pos.empty() ? keyword(a, "input") : a.pos[0]);
  if (!x) Interp::fail("TypeError", "histogramdd(): argument 'input' must be Tensor", a.span);
  const Value bins = a.pos.size() > 1 ? a.pos[1] : keyword(a, "bins"), range = keyword(a, "range");
  const Value wv = keyword(a, "weight"), density = keyword(a, "density");
  return guarded(a.span, [&] {
    AMPS_CHECK(x->is_floating_point(), "\"histogramdd\" not implemented for '{}'",
               rt::common::torch_type_name(x->dtype()));
    AMPS_CHECK(x->dim() >= 2, "torch.histogramdd: input tensor should have at least 2 dimensions");
    const int64_t D = x->size(-1);
    const std::vector<Value>* per_dim = items_of(bins);
    if (!bins.is_int() && (!per_dim || int64_t(per_dim->size()) < D))
      Interp::fail("TypeError", fmt::format("histogramdd(): bins must be an int or a sequence of {} ints or tensors",
                                            D), a.span);
    const std::vector<Value>* r = range.is_undef() || range.is_none() ? nullptr : items_of(range);
    if (!r && !range.is_undef() && !range.is_none())
      Interp::fail("TypeError", "histogramdd(): range must be a sequence of 2 * D numbers", a.span);
    AMPS_CHECK(!r || int64_t(r->size()) == 2 * D, "torch.histogramdd: for a {}-dimensional histogram range should "
               "have {} elements, but got {}", D, 2 * D, r ? r->size() : 0);
    std::vector<Value> edges;
    rt::Tensor hist = dd_counts(*x, bins, range, wv, edges, a.span);
    if (density.is_bool() && density.as_bool()) hist = dd_density(hist, edges);
    Value result = make_tuple({wrap(hist), make_tuple(std::move(edges))});
    result.as<Tuple>()->field_names = &kHistogramddFields;
    return result;
  });
}

}  // namespace

void install_torch_histograms(Interp& in) {
  in.def_native("histogram", b_histogram);
  in.def_native("histogramdd", b_histogramdd);
}

// x.histogram(bins, *, range=None, weight=None, density=False).
void add_histogram_method(std::unordered_map<Atom, Value>& m) { m[intern("histogram")] = make<Native>("histogram", b_histogram); }

}  // namespace amps::interp
