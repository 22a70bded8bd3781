#include "runtime/backend/common/elementwise_composites.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {

using O = OpId;

// frac(input): input - trunc(input) (gradient 1); floating dtypes only, as PyTorch's (the composite table's dtypes).
Tensors frac_math(Args& args) {
  ArgReader a(O::frac, args);
  const Tensor& x = a.tensor(0);
  return {sub(x, call_op(O::trunc, x))};
}

// clamp(input, min: Tensor, max: Tensor): min where input < min, then max where that exceeds max (broadcasting,
// promoting). The gradient goes to input where min <= input <= max, to min below it and to max above it, as
// PyTorch's clamp.Tensor (a tie with a bound goes to input).
Tensors clamp_tensor_math(Args& args) {
  ArgReader a(O::clamp_tensor, args);
  const Tensor x = a.tensor(0), lo = a.opt_tensor(1), hi = a.opt_tensor(2);
  AMPS_CHECK(lo.defined() || hi.defined(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor out = x;
  if (lo.defined()) out = where(lt(out, lo), lo, out);
  if (hi.defined()) out = where(gt(out, hi), hi, out);
  return {out};
}

// where(condition): the coordinates of condition's nonzero elements as one int64 vector per dim
// (nonzero(condition, as_tuple=True)).
Tensors where_condition_math(Args& args) {
  ArgReader a(O::where_condition, args);
  const Tensor& c = a.tensor(0);
  const Tensor nz = call_op(O::nonzero, c.dim() == 0 ? c.reshape({1}) : c);
  Tensors out;
  for (int64_t d = 0; d < nz.size(1); ++d) out.push_back(nz.select(1, d).contiguous());
  return out;
}

// tile(input, dims): repeat(dims) with dims padded by leading 1s to input.dim() (each dim expanded behind a new dim of
// its count, then the pair merged).
Tensors tile_math(Args& args) {
  ArgReader a(O::tile, args);
  const Tensor& x = a.tensor(0);
  Dims reps = a.ints(1);
  for (int64_t r : reps) AMPS_CHECK(r >= 0, "Trying to create tensor with negative dimension {}", r);
  if (int64_t(reps.size()) < x.dim()) reps.insert(reps.begin(), size_t(x.dim()) - reps.size(), 1);
  Dims padded(reps.size() - size_t(x.dim()), 1);
  padded.insert(padded.end(), x.sizes().begin(), x.sizes().end());
  Dims pairs, expanded, out;
  for (size_t i = 0; i < reps.size(); ++i) {
    pairs.insert(pairs.end(), {1, padded[i]});
    expanded.insert(expanded.end(), {reps[i], padded[i]});
    out.push_back(reps[i] * padded[i]);
  }
  const Tensor tiled = x.reshape(pairs).expand(expanded).reshape(out);
  // The result is always a new row-major tensor, as PyTorch's: reshape copies only when it cannot view, so a view
  // (all-1 counts, or a count on a leading dim, which leaves stride-0 dims behind) is copied here.
  const bool fresh = tiled.is_contiguous() && tiled.numel() != x.numel();
  return {fresh ? tiled : call_op(O::clone, tiled)};
}

// meshgrid(tensors, indexing=None): one grid per 0-D/1-D input, each input laid along its own dim and expanded over
// the others ("ij", the default); "xy" swaps the first two dims (Cartesian indexing). Copies, not views.
Tensors meshgrid_math(Args& args) {
  ArgReader a(O::meshgrid, args);
  std::vector<Tensor> ts = a.tensors(0);
  const std::string how = a.opt_str(1).value_or("ij");
  AMPS_CHECK(how == "ij" || how == "xy", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {}", how);
  AMPS_CHECK(!ts.empty(), "meshgrid expects a non-empty TensorList");
  for (const Tensor& t : ts)
    AMPS_CHECK(t.dim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a {}-D tensor", t.dim());
  const bool swap = how == "xy" && ts.size() >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  Dims shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  Tensors grids;
  for (size_t i = 0; i < ts.size(); ++i) {
    Dims along(ts.size(), 1);
    along[i] = -1;
    grids.push_back(call_op(O::clone, ts[i].reshape(along).expand(shape)));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

// bernoulli(input): 1 where a uniform draw (float32 for half types, from the context's generator) is below the
// probability input, else 0, in input's dtype.
Tensors bernoulli_math(Args& args) {
  ArgReader a(O::bernoulli, args);
  const Tensor& p = a.tensor(0);
  const DType draw = p.dtype() == DType::float64 ? DType::float64 : DType::float32;
  const Tensor u = call_op(O::rand_like, p, draw);
  return {lt(u, p).to(p.dtype())};
}

}  // namespace amps::rt::common
