#include "runtime/backend/common/pool3d_composites.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// [input] as a batched [N, C, D, H, W] (PyTorch's 4-D-or-5-D check first; [C, D, H, W] gets a batch of 1).
Tensor batched_5d(std::string_view op, const Tensor& x) {
  AMPS_CHECK(x.dim() == 4 || x.dim() == 5, "{}: non-empty 4D or 5D (batch mode) tensor expected for input, but got "
             "a {}-D tensor", op, x.dim());
  return x.dim() == 4 ? x.unsqueeze(0) : x;
}

// The 3 window values of argument [i] ([one] value broadcast; an empty stride stays empty: the kernel size).
Dims three(const ArgReader& a, size_t i) {
  Dims v = a.ints(i);
  if (v.size() == 1) v = {v[0], v[0], v[0]};
  AMPS_CHECK(v.empty() || v.size() == 3, "{}: each window argument takes 1 or 3 values, got {}", op_name(a.op()), v.size());
  return v;
}

// The window values of the (H, W) stage and of the depth stage ([d, unit] on the [D, OH*OW] planes).
Dims hw(const Dims& v) { return v.empty() ? Dims{} : Dims{v[1], v[2]}; }
Dims depth(const Dims& v, int64_t unit) { return v.empty() ? Dims{} : Dims{v[0], unit}; }

// [y] ([N, C*D, OH, OW] from the first stage) as the depth stage's [N, C, D, OH*OW] planes.
Tensor depth_planes(const Tensor& y, const Tensor& x5) {
  return y.reshape({x5.size(0), x5.size(1), x5.size(2), y.size(-2) * y.size(-1)});
}

// [z] ([N, C, OD, OH*OW]) as [N, C, OD, OH, OW], unbatched again when the input was.
Tensor unflatten_out(const Tensor& z, const Tensor& y, const Tensor& input) {
  Tensor out = z.reshape({z.size(0), z.size(1), z.size(2), y.size(-2), y.size(-1)});
  return input.dim() == 4 ? out.squeeze(0) : out;
}

Tensor wide(const Tensor& x) {
  return x.dtype() == DType::float16 || x.dtype() == DType::bfloat16 ? x.to(DType::float32) : x;
}

Tensor slices(const Tensor& x5) { return x5.reshape({x5.size(0), x5.size(1) * x5.size(2), x5.size(3), x5.size(4)}); }

// The two 2-D passes of a 3-D max pooling with [op] (max_pool2d or max_pool2d_with_indices) on the op's arguments:
// over (H, W) per depth slice, then over D; each pass's outputs.
struct MaxPasses {
  Tensor input, x;  // as given, and as [N, C, D, H, W]
  Tensors hw, depth;
};

MaxPasses max_passes(const ArgReader& a, std::string_view name, O op) {
  MaxPasses m;
  m.input = a.tensor(0);
  m.x = batched_5d(name, m.input);
  const Dims k = three(a, 1), s = three(a, 2), p = three(a, 3), d = three(a, 4);
  AMPS_CHECK(!k.empty(), "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
  const bool ceil = a.boolean(5);
  m.hw = dispatch(op, Args{slices(m.x), hw(k), hw(s), hw(p), hw(d), ceil});
  m.depth = dispatch(op, Args{depth_planes(m.hw[0], m.x), depth(k, 1), depth(s.empty() ? k : s, 1), depth(p, 0),
                              depth(d, 1), ceil});
  return m;
}

}  // namespace

Tensors max_pool3d_math(Args& args) {
  const MaxPasses m = max_passes(ArgReader(O::max_pool3d, args), "max_pool3d", O::max_pool2d);
  return {unflatten_out(m.depth[0], m.hw[0], m.input)};
}

// As max_pool3d, and each maximum's flat index into its input volume (d * H * W + h * W + w): the depth pass
// gives d, the (H, W) pass's index of slice d is read back at it.
Tensors max_pool3d_with_indices_math(Args& args) {
  const MaxPasses m = max_passes(ArgReader(O::max_pool3d_with_indices, args), "max_pool3d_with_indices",
                                 O::max_pool2d_with_indices);
  const Tensor &y = m.hw[0], &x = m.x;
  const Tensor at_depth = call_op(O::div, m.depth[1], Scalar(y.size(-2) * y.size(-1)), std::string("floor"));
  const Tensor hw_index = call_op(O::gather, depth_planes(m.hw[1], x), int64_t(2), at_depth);
  const Tensor index = call_op(O::add, hw_index, call_op(O::mul, at_depth, Scalar(x.size(3) * x.size(4))));
  return {unflatten_out(m.depth[0], y, m.input), unflatten_out(index, y, m.input)};
}

// float16/bfloat16 average in float32 and round once at the end, as PyTorch's accumulation does (the stages'
// intermediate would otherwise round too).
Tensors avg_pool3d_math(Args& args) {
  ArgReader a(O::avg_pool3d, args);
  const Tensor input = a.tensor(0), x = wide(batched_5d("avg_pool3d", input));
  const Dims k = three(a, 1), s = three(a, 2), p = three(a, 3);
  AMPS_CHECK(!k.empty(), "avg_pool3d: kernel_size must either be a single int, or a tuple of three ints");
  const bool ceil = a.boolean(4), include_pad = a.boolean(5);
  const std::optional<int64_t> divisor = a.opt_i64(6);
  AMPS_CHECK(!divisor || *divisor != 0, "avg_pool3d: divisor must be not zero");
  // with divisor_override both stages sum (divisor 1) and the second divides by it
  const IValue sum_only = divisor ? IValue(int64_t(1)) : IValue();
  const Tensor y = call_op(O::avg_pool2d, slices(x), hw(k), hw(s), hw(p), ceil, include_pad, sum_only);
  Tensor z = call_op(O::avg_pool2d, depth_planes(y, x), depth(k, 1), depth(s.empty() ? k : s, 1), depth(p, 0), ceil,
                     include_pad, sum_only);
  if (divisor) z = call_op(O::div, z, Scalar(*divisor));
  return {unflatten_out(z, y, input).to(input.dtype())};
}

Tensors adaptive_avg_pool3d_math(Args& args) {
  ArgReader a(O::adaptive_avg_pool3d, args);
  const Tensor input = a.tensor(0), x = wide(batched_5d("adaptive_avg_pool3d", input));
  const Dims out = three(a, 1);
  AMPS_CHECK(out.size() == 3, "adaptive_avg_pool3d: output_size must be 3");
  const Tensor y = call_op(O::adaptive_avg_pool2d, slices(x), Dims{out[1], out[2]});
  const Tensor z = call_op(O::adaptive_avg_pool2d, depth_planes(y, x), Dims{out[0], y.size(-2) * y.size(-1)});
  return {unflatten_out(z, y, input).to(input.dtype())};
}

}  // namespace amps::rt::common
