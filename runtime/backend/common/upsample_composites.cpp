#include "runtime/backend/common/upsample_composites.hpp"

#include <cmath>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

bool is_nearest(O op) { return op == O::upsample_nearest1d || op == O::upsample_nearest2d || op == O::upsample_nearest3d; }

// How far a source coordinate moves per output step along a dim of [in] -> [out] (PyTorch's area_pixel scale).
double source_step(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
  return scale && *scale > 0 ? 1.0 / *scale : double(in) / double(out);
}

Tensor index_tensor(const std::vector<double>& v, Device dev) {
  return Tensor::from_doubles(v, {int64_t(v.size())}, DType::int64).to(dev);
}

// [x] resampled along [d] to [out] positions by nearest source (floor(dst * step), clamped).
Tensor nearest_along(const Tensor& x, int64_t d, int64_t out, std::optional<double> scale) {
  const int64_t in = x.size(d);
  const double step = source_step(in, out, false, scale);
  std::vector<double> idx;
  for (int64_t j = 0; j < out; ++j) idx.push_back(double(std::min<int64_t>(int64_t(std::floor(double(j) * step)), in - 1)));
  return index_select(x, d, index_tensor(idx, x.device()));
}

// [x] resampled along [d] to [out] positions by linear interpolation between the two nearest sources.
Tensor linear_along(const Tensor& x, int64_t d, int64_t out, bool align_corners, std::optional<double> scale) {
  const int64_t in = x.size(d);
  const double step = source_step(in, out, align_corners, scale);
  std::vector<double> lo, hi, w;
  for (int64_t j = 0; j < out; ++j) {
    const double src = align_corners ? double(j) * step : std::max(0.0, (double(j) + 0.5) * step - 0.5);
    const int64_t i0 = std::min<int64_t>(int64_t(std::floor(src)), in - 1);
    lo.push_back(double(i0));
    hi.push_back(double(std::min<int64_t>(i0 + 1, in - 1)));
    w.push_back(src - double(i0));
  }
  Dims wshape(size_t(x.dim()), 1);
  wshape[size_t(d)] = out;
  Tensor wt = Tensor::from_doubles(w, wshape, x.dtype()).to(x.device());
  Tensor a = index_select(x, d, index_tensor(lo, x.device())), b = index_select(x, d, index_tensor(hi, x.device()));
  return a + (b - a) * wt;
}

int64_t spatial_dims(O op) {
  switch (op) {
    case O::upsample_nearest1d: case O::upsample_linear1d: return 1;
    case O::upsample_nearest2d: case O::upsample_bilinear2d: return 2;
    default: return 3;
  }
}

// The upsample op interpolate() calls for [mode] on [n] spatial dims; nullopt when the pair does not exist.
std::optional<O> upsample_op(const std::string& mode, int64_t n) {
  if (mode == "nearest") return n == 1 ? O::upsample_nearest1d : n == 2 ? O::upsample_nearest2d : O::upsample_nearest3d;
  if (mode == "linear" && n == 1) return O::upsample_linear1d;
  if (mode == "bilinear" && n == 2) return O::upsample_bilinear2d;
  if (mode == "trilinear" && n == 3) return O::upsample_trilinear3d;
  return std::nullopt;
}

}  // namespace

Tensors upsample_math(OpId op, Args& args) {
  ArgReader a(op, args);
  Tensor x = a.tensor(0);
  const int64_t n = spatial_dims(op);
  AMPS_CHECK(x.dim() == n + 2, "{}: expected a {}-D input (N, C, {} spatial dims), got {}-D input of size {}",
             op_name(op), n + 2, n, x.dim(), format_shape(x.sizes()));
  AMPS_CHECK(is_floating(x.dtype()), "{}: expected a floating input, got {}", op_name(op), dtype_name(x.dtype()));
  const Dims out = a.ints(1, size_t(n));
  const bool nearest = is_nearest(op);
  const bool align = !nearest && a.boolean(2);
  const std::optional<double> scale = a.opt_f64(nearest ? 2 : 3);
  for (int64_t i = 0; i < n; ++i) {
    AMPS_CHECK(out[size_t(i)] > 0 && x.size(2 + i) > 0, "Input and output sizes should be greater than 0, but got "
               "input ({}) and output ({})", format_shape(x.sizes()), format_shape(out));
    x = nearest ? nearest_along(x, 2 + i, out[size_t(i)], scale) : linear_along(x, 2 + i, out[size_t(i)], align, scale);
  }
  return {x};
}

// interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor).
Tensors interpolate_math(Args& args) {
  ArgReader a(O::interpolate, args);
  const Tensor x = a.tensor(0);
  const std::string mode = a.str(3);
  const int64_t n = x.dim() - 2;
  AMPS_CHECK(n >= 1 && n <= 3, "interpolate: expected a 3-D, 4-D or 5-D input (N, C, spatial...), got {}-D",
             x.dim());
  std::optional<O> op = upsample_op(mode, n);
  AMPS_CHECK_KIND("NotImplementedError", op.has_value(), "Input Error: Only 3D, 4D and 5D input Tensors supported "
                  "(got {}D) for the modes: nearest | linear | bilinear | trilinear (got {})", x.dim(), mode);
  std::optional<bool> align;
  if (!a.at(4).is_none()) align = a.boolean(4);
  AMPS_CHECK(!(is_nearest(*op) && align), "align_corners option can only be set with the interpolating modes: "
             "linear | bilinear | bicubic | trilinear");
  std::optional<Dims> size = a.opt_ints(1);
  std::optional<double> scale = a.opt_f64(2);
  AMPS_CHECK(size.has_value() != scale.has_value(), "only one of size or scale_factor should be defined");
  Dims out;
  if (size) {
    out = size->size() == 1 ? Dims(size_t(n), (*size)[0]) : *size;
    AMPS_CHECK(int64_t(out.size()) == n, "Input and output must have the same number of spatial dimensions, but got "
               "input with spatial dimensions of {} and output size of {}.", n, format_shape(out));
  } else {
    for (int64_t i = 0; i < n; ++i) out.push_back(int64_t(std::floor(double(x.size(2 + i)) * *scale)));
  }
  // PyTorch passes the user's scale on (it sets the source step) unless asked to recompute it from the sizes.
  IValue pass_scale = scale && !(a.at(5).is_none() ? false : a.boolean(5)) ? IValue(*scale) : IValue();
  if (is_nearest(*op)) return {call_op(*op, x, out, pass_scale)};
  return {call_op(*op, x, out, align.value_or(false), pass_scale)};
}

}  // namespace amps::rt::common
