#include "runtime/backend/common/pad_composites.hpp"

#include <fmt/format.h>

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// PyTorch's checks on a pad list for [x]: pairs (last dim first), no more pairs than dims.
void check_pad_list(const Tensor& x, const Dims& pad) {
  AMPS_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  AMPS_CHECK(int64_t(pad.size() / 2) <= x.dim(), "Padding length should be less than or equal to two times the "
             "input dimension but got padding length {} and input of dimension {}", pad.size(), x.dim());
}

// The dim padded by pair [i] of the pad list (pair 0 pads the last dim).
int64_t padded_dim(const Tensor& x, size_t i) { return x.dim() - 1 - int64_t(i); }

enum class IndexMode { reflect, replicate, circular };

// The source index of every output position along a dim of [n] padded by [left] and [right].
std::vector<double> pad_indices(IndexMode m, int64_t n, int64_t left, int64_t right) {
  std::vector<double> idx;
  for (int64_t j = -left; j < n + right; ++j) {
    int64_t s = j;
    if (m == IndexMode::replicate) s = std::clamp<int64_t>(j, 0, n - 1);
    if (m == IndexMode::reflect) s = j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
    if (m == IndexMode::circular) s = ((j % n) + n) % n;
    idx.push_back(double(s));
  }
  return idx;
}

// [x] padded along each dim of the pad list by gathering source positions (one index_select per dim).
Tensor index_pad(Tensor x, const Dims& pad, IndexMode m) {
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int64_t d = padded_dim(x, i), n = x.size(d), l = pad[2 * i], r = pad[2 * i + 1];
    if (l == 0 && r == 0) continue;
    Tensor index = Tensor::from_doubles(pad_indices(m, n, l, r), {n + l + r}, DType::int64);
    x = index_select(x, d, index.to(x.device()));
  }
  return x;
}

// The pad list's constraint for reflect/replicate/circular on [x] (PyTorch's messages).
void check_index_pad(const Tensor& x, const Dims& pad, IndexMode m, std::string_view name) {
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int64_t d = padded_dim(x, i), n = x.size(d), l = pad[2 * i], r = pad[2 * i + 1];
    AMPS_CHECK(l >= 0 && r >= 0, "{}: negative padding ({}, {}) at dimension {} is not supported; narrow the "
               "input instead", name, l, r, d);
    if (m == IndexMode::reflect)
      AMPS_CHECK(l < n && r < n, "Argument #4: Padding size should be less than the corresponding input dimension, "
                 "but got: padding ({}, {}) at dimension {} of input {}", l, r, d, format_shape(x.sizes()));
    if (m == IndexMode::replicate) AMPS_CHECK(n > 0, "{}: input dimension {} is empty", name, d);
    if (m == IndexMode::circular)
      AMPS_CHECK(l <= n && r <= n, "Padding value causes wrapping around more than once.");
  }
}

// The op PyTorch's pad dispatches to for [mode] on an input with [pairs] padded dims.
O index_pad_op(const std::string& mode, size_t pairs) {
  static const O reflect[] = {O::reflection_pad1d, O::reflection_pad2d, O::reflection_pad3d};
  static const O replicate[] = {O::replication_pad1d, O::replication_pad2d, O::replication_pad3d};
  return mode == "reflect" ? reflect[pairs - 1] : replicate[pairs - 1];
}

}  // namespace

// constant_pad_nd(input, pad, value): value around the input (negative pads crop), one cat per padded dim.
Tensors constant_pad_nd_math(Args& args) {
  ArgReader a(O::constant_pad_nd, args);
  Tensor x = a.tensor(0);
  const Dims pad = a.ints(1);
  const Scalar value = a.scalar(2);
  check_pad_list(x, pad);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int64_t d = padded_dim(x, i), n = x.size(d), l = pad[2 * i], r = pad[2 * i + 1];
    AMPS_CHECK(n + l + r >= 0, "The input size {}, plus negative padding {} and {} resulted in a negative output "
               "size, which is invalid. Check dimension {} of your input.", n, l, r, d);
    if (l < 0 || r < 0) x = x.narrow(d, std::max<int64_t>(-l, 0), n + std::min<int64_t>(l, 0) + std::min<int64_t>(r, 0));
    std::vector<Tensor> parts;
    Dims block = x.sizes();
    if (l > 0) { block[size_t(d)] = l; parts.push_back(full(block, value, x.dtype(), x.device())); }
    parts.push_back(x);
    if (r > 0) { block[size_t(d)] = r; parts.push_back(full(block, value, x.dtype(), x.device())); }
    if (parts.size() > 1) x = cat(parts, d);
  }
  return {x.is_same(a.tensor(0)) ? x.clone() : x};
}

Tensors index_pad_math(OpId op, Args& args) {
  ArgReader a(op, args);
  const Tensor x = a.tensor(0);
  const Dims pad = a.ints(1);
  const bool reflect = op == O::reflection_pad1d || op == O::reflection_pad2d || op == O::reflection_pad3d;
  const IndexMode m = reflect ? IndexMode::reflect : IndexMode::replicate;
  const int64_t nd = int64_t(pad.size() / 2);
  AMPS_CHECK(x.dim() == nd + 1 || x.dim() == nd + 2, "{}: expected {}D or {}D input (unbatched or batched) for "
             "{} padded dims, but got {}D input of size {}", op_name(op), nd + 1, nd + 2, nd, x.dim(),
             format_shape(x.sizes()));
  check_index_pad(x, pad, m, op_name(op));
  return {index_pad(x, pad, m)};
}

// pad(input, pad, mode, value): torch.nn.functional.pad.
Tensors pad_math(Args& args) {
  ArgReader a(O::pad, args);
  const Tensor x = a.tensor(0);
  const Dims pad = a.ints(1);
  const std::string mode = a.str(2);
  std::optional<double> value = a.opt_f64(3);
  check_pad_list(x, pad);
  if (mode == "constant") return {call_op(O::constant_pad_nd, x, pad, Scalar(value.value_or(0.0)))};
  AMPS_CHECK_KIND("NotImplementedError", mode == "reflect" || mode == "replicate" || mode == "circular",
                  "Unrecognised padding mode {} (use 'constant', 'reflect', 'replicate' or 'circular')", mode);
  AMPS_CHECK(!value || *value == 0.0, "Padding mode \"{}\" doesn't take in value argument", mode);
  const size_t pairs = pad.size() / 2;
  AMPS_CHECK(pairs >= 1 && pairs <= 3 && (x.dim() == int64_t(pairs) + 1 || x.dim() == int64_t(pairs) + 2),
             "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now (mode '{}' pads the last "
             "1-3 dims of an input with 1 or 2 leading dims; got {} pad values for a {}D input)", mode, pad.size(),
             x.dim());
  if (mode == "circular") {
    check_index_pad(x, pad, IndexMode::circular, "pad");
    return {index_pad(x, pad, IndexMode::circular)};
  }
  return {call_op(index_pad_op(mode, pairs), x, pad)};
}

}  // namespace amps::rt::common
