#include "runtime/backend/common/adaptive_max_composites.hpp"

#include <vector>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// [out, K] input positions of each output's adaptive window along an axis of [in]: start + k, the window's last
// position repeated past its end (a repeat cannot change the window's first maximum, which comes first).
Tensor window_table(int64_t in, int64_t out, Device dev) {
  int64_t width = 0;
  for (int64_t j = 0; j < out; ++j) width = std::max(width, ((j + 1) * in + out - 1) / out - j * in / out);
  std::vector<double> at;
  for (int64_t j = 0; j < out; ++j) {
    const int64_t start = j * in / out, end = ((j + 1) * in + out - 1) / out;
    for (int64_t k = 0; k < width; ++k) at.push_back(double(std::min(start + k, end - 1)));
  }
  return Tensor::from_doubles(at, {out, width}, DType::int64).to(dev);
}

struct AxisMax {
  Tensor values, positions;  // [..., out] along the pooled (last) axis; positions index its input
};

// Adaptive max of [x] along its last axis to [out] outputs.
AxisMax last_axis_max(const Tensor& x, int64_t out) {
  const Tensor table = window_table(x.size(-1), out, x.device());
  Dims shape = x.sizes();
  shape.back() = out;
  shape.push_back(table.size(1));
  const Tensor windows = index_select(x, x.dim() - 1, table.reshape({-1})).reshape(shape);
  const Tensors m = dispatch(O::max_dim, Args{windows, int64_t(-1), false});
  const Tensor starts = table.select(1, 0);
  return {m[0], call_op(O::add, m[1], starts)};
}

// Adaptive max pooling of the last [sizes.size()] axes of [x] to [sizes], and each maximum's flat index into its
// input plane (row-major over those axes). Axes go last to first; a pooled axis moves to the back and returns.
Tensors adaptive_max(const Tensor& x, const Dims& sizes) {
  const int64_t k = int64_t(sizes.size()), lead = x.dim() - k;
  Tensor values = x;
  std::vector<Tensor> positions(static_cast<size_t>(k));  // per axis, positions within that axis, each [..., sizes so far]
  for (int64_t axis = k - 1; axis >= 0; --axis) {
    const int64_t d = lead + axis;
    AxisMax m = last_axis_max(values.transpose(d, -1), sizes[size_t(axis)]);
    values = m.values.transpose(d, -1);
    for (int64_t later = axis + 1; later < k; ++later) {  // read the later axes' choices back at this axis' picks
      const Tensor pick = m.positions.transpose(d, -1);
      positions[size_t(later)] = call_op(O::gather, positions[size_t(later)], d, pick);
    }
    positions[size_t(axis)] = m.positions.transpose(d, -1);
  }
  Tensor flat = positions[0];
  for (int64_t axis = 1; axis < k; ++axis)
    flat = call_op(O::add, call_op(O::mul, flat, Scalar(x.size(lead + axis))), positions[size_t(axis)]);
  return {values, flat};
}

Tensors adaptive_max_op(O op, Args& args, int64_t k) {
  ArgReader a(op, args);
  const Tensor x = a.tensor(0);
  Dims sizes = a.ints(1);
  if (sizes.size() == 1) sizes.assign(size_t(k), sizes[0]);
  AMPS_CHECK(int64_t(sizes.size()) == k, "{}: internal error: output_size must be {}", op_name(op), k);
  AMPS_CHECK(x.dim() == k + 1 || x.dim() == k + 2, "{}(): Expected {}D or {}D tensor, but got {}", op_name(op), k + 1,
             k + 2, x.dim());
  for (int64_t i = 0; i < x.dim(); ++i)
    AMPS_CHECK(x.size(i) > 0 || (i == 0 && x.dim() == k + 2), "{}(): Expected input to have non-zero size for "
               "non-batch dimensions, but input has sizes {} with dimension {} being empty", op_name(op),
               format_shape(x.sizes()), i);
  for (int64_t s : sizes) AMPS_CHECK(s > 0, "{}: output_size values must be positive, got {}", op_name(op), s);
  return adaptive_max(x, sizes);
}

// max_unpool: [input]'s values at their flat [indices] of a zero [output_size] plane per (batch, channel).
Tensors max_unpool(O op, Args& args, int64_t k) {
  ArgReader a(op, args);
  const Tensor x = a.tensor(0), idx = a.tensor(1);
  const Dims out = a.ints(2);
  AMPS_CHECK(int64_t(out.size()) == k, "{}: There should be exactly {} elements but got {}", op_name(op), k, out.size());
  AMPS_CHECK(idx.dtype() == DType::int64, "{}: elements in indices should be type int64 but got: {}", op_name(op),
             dtype_name(idx.dtype()));
  AMPS_CHECK(x.sizes() == idx.sizes(), "{}: Expected shape of indices to be same as that of the input tensor ({}) "
             "but got indices tensor with shape: {}", op_name(op), format_shape(x.sizes()), format_shape(idx.sizes()));
  AMPS_CHECK(x.dim() == k + 1 || x.dim() == k + 2, "{}: Input to max_unpooling{}d should be a {}d or {}d Tensor, but "
             "got a tensor with {} dimensions.", op_name(op), k, k + 1, k + 2, x.dim());
  Dims planes(x.sizes().begin(), x.sizes().end() - k), shape = planes;
  int64_t volume = 1;
  for (int64_t s : out) volume *= s;
  planes.push_back(volume);
  shape.insert(shape.end(), out.begin(), out.end());
  const Tensor flat_idx = idx.flatten(x.dim() - k), flat_x = x.flatten(x.dim() - k);
  const Tensor bad = call_op(O::logical_or, lt(flat_idx, Scalar(int64_t(0))), ge(flat_idx, Scalar(volume)));
  AMPS_CHECK(!call_op(O::any, bad).item<bool>(), "{}: Found an invalid max index (output volumes are of size {})",
             op_name(op), format_shape(out));
  const Tensor zero = zeros(planes, x.dtype(), x.device());
  return {call_op(O::scatter, zero, int64_t(-1), flat_idx, flat_x).reshape(shape)};
}

}  // namespace

Tensors adaptive_max_pool1d_math(Args& args) { return adaptive_max_op(O::adaptive_max_pool1d, args, 1); }
Tensors adaptive_max_pool2d_math(Args& args) { return adaptive_max_op(O::adaptive_max_pool2d, args, 2); }
Tensors adaptive_max_pool3d_math(Args& args) { return adaptive_max_op(O::adaptive_max_pool3d, args, 3); }
Tensors max_unpool2d_math(Args& args) { return max_unpool(O::max_unpool2d, args, 2); }
Tensors max_unpool3d_math(Args& args) { return max_unpool(O::max_unpool3d, args, 3); }

}  // namespace amps::rt::common
