#include "runtime/backend/common/grid_composites.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// [steps] points from -1 to 1 in [like]'s dtype and device, scaled by (steps - 1) / steps to the pixel centres
// unless align_corners; one step is the single point 0 (PyTorch's linspace_from_neg_one).
Tensor linspace_from_neg_one(const Tensor& like, int64_t steps, bool align_corners) {
  if (steps <= 1) return zeros({}, like.dtype(), like.device());
  Tensor range = call_op(O::linspace, -1.0, 1.0, steps, like.dtype(), like.device());
  return align_corners ? range : range * double(steps - 1) / double(steps);
}

// The [spatial..., K + 1] base grid of the spatial sizes [s] (outer to inner): component a holds the points along
// the a-th innermost dim (x first), the last component 1.
Tensor base_grid(const Tensor& theta, const Dims& s, bool align_corners) {
  const int64_t k = int64_t(s.size());
  std::vector<Tensor> parts;
  for (int64_t a = 0; a < k; ++a) {
    Tensor lin = linspace_from_neg_one(theta, s[size_t(k - 1 - a)], align_corners);
    if (lin.dim() == 1)
      for (int64_t d = 0; d < a; ++d) lin = lin.unsqueeze(-1);
    parts.push_back(lin.expand(s));
  }
  parts.push_back(ones(s, theta.dtype(), theta.device()));
  return stack(parts, -1);
}

}  // namespace

// affine_grid_generator(theta, size, align_corners): the base grid of size's spatial dims, batched N times, times
// theta^T ([N, points, K + 1] x [N, K + 1, K]), shaped [N, spatial..., K].
Tensors affine_grid_generator_math(Args& args) {
  ArgReader a(O::affine_grid_generator, args);
  const Tensor theta = a.tensor(0);
  const Dims size = a.ints(1);
  AMPS_CHECK(size.size() == 4 || size.size() == 5, "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) "
             "inputs.");
  for (int64_t v : size) AMPS_CHECK(v >= 0, "affine_grid_generator: expected non-negative sizes, got {}", v);
  const Dims spatial(size.begin() + 2, size.end());
  const int64_t k = int64_t(spatial.size()), n = size[0];
  int64_t points = 1;
  for (int64_t v : spatial) points *= v;
  Tensor base = base_grid(theta, spatial, a.boolean(2)).reshape({1, points, k + 1}).expand({n, points, k + 1});
  Dims out{n};
  out.insert(out.end(), spatial.begin(), spatial.end());
  out.push_back(k);
  return {bmm(base, theta.transpose(1, 2)).reshape(out)};
}

// grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners): the 2-D kernel for a 4-D input, the
// 3-D one (whose checks name the 5-D shapes) for any other.
Tensors grid_sampler_math(Args& args) {
  ArgReader a(O::grid_sampler, args);
  const O op = a.tensor(0).dim() == 4 ? O::grid_sampler_2d : O::grid_sampler_3d;
  return {call_op(op, a.tensor(0), a.tensor(1), a.i64(2), a.i64(3), a.boolean(4))};
}

}  // namespace amps::rt::common
