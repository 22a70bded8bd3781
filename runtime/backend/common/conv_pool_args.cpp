// Device-independent argument handling of convolution, pooling and batch_norm (see conv_pool_args.hpp).
#include "runtime/backend/common/conv_pool_args.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::common {

namespace {

// PyTorch's checks of the convolution hyper-parameters (a zero stride divided by zero before).
void check_conv_params(OpId op, const ConvParams& p) {
  for (size_t i = 0; i < p.stride.size(); ++i) {
    AMPS_CHECK(p.stride[i] > 0, "{}: non-positive stride is not supported", op_name(op));
    AMPS_CHECK(p.padding[i] >= 0, "{}: negative padding is not supported", op_name(op));
    AMPS_CHECK(p.dilation[i] > 0, "{}: dilation should be greater than zero", op_name(op));
    if (p.transposed)
      AMPS_CHECK(p.output_padding[i] >= 0 && (p.output_padding[i] < p.stride[i] || p.output_padding[i] < p.dilation[i]),
                 "{}: output padding must be smaller than either stride or dilation, but got output_padding={}",
                 op_name(op), p.output_padding[i]);
  }
  AMPS_CHECK(p.groups > 0, "{}: non-positive groups is not supported", op_name(op));
}

}  // namespace

ConvParams conv_forward_params(const ArgReader& a, size_t nd, bool transposed) {
  ConvParams p;
  p.stride = a.ints(3, nd);
  p.padding = a.ints(4, nd);
  p.transposed = transposed;
  p.groups = a.i64(6);
  if (transposed) {
    p.output_padding = a.ints(5, nd);
    p.dilation = a.ints(7, nd);
  } else {
    p.dilation = a.ints(5, nd);
  }
  check_conv_params(a.op(), p);
  return p;
}

ConvParams conv_backward_params(const ArgReader& a, size_t nd) {
  ConvParams p;
  p.stride = a.ints(3, nd);
  p.padding = a.ints(4, nd);
  p.dilation = a.ints(5, nd);
  p.transposed = a.boolean(6);
  p.output_padding = p.transposed ? a.ints(7, nd) : Dims(nd, 0);
  p.groups = a.i64(8);
  check_conv_params(a.op(), p);
  return p;
}

Tensor batched_conv_input(OpId op, const Tensor& input, size_t nd) {
  Tensor x = input.dim() == int64_t(nd) + 1 ? native::unsqueeze(input, 0) : input;
  AMPS_CHECK(x.dim() == int64_t(nd) + 2, "{}: Expected {}D (unbatched) or {}D (batched) input, but got "
             "input of size: {}", op_name(op), nd + 1, nd + 2, format_shape(input.sizes()));
  return x;
}

void check_conv(OpId op, const Tensor& input, const Tensor& weight, const Tensor& bias, const ConvParams& p) {
  const size_t nd = p.stride.size();
  AMPS_CHECK(weight.dim() == int64_t(nd) + 2, "{}: expected weight to be {}-D, got {}-D with shape {}", op_name(op),
             nd + 2, weight.dim(), format_shape(weight.sizes()));
  AMPS_CHECK(input.dtype() == weight.dtype(), "{}: Input type ({}) and weight type ({}) should be the same",
             op_name(op), dtype_name(input.dtype()), dtype_name(weight.dtype()));
  const int64_t groups = p.groups, cin = input.size(1);
  // PyTorch's message, its double brackets included (plain and transposed weights both split dim 0 in groups).
  AMPS_CHECK(weight.size(0) % groups == 0, "Given groups={}, expected weight to be divisible by {} at dimension 0, "
             "but got weight of size [[{}]] instead", groups, groups, fmt::join(weight.sizes(), ", "));
  const int64_t expect = p.transposed ? weight.size(0) : weight.size(1) * groups;
  AMPS_CHECK(groups > 0 && cin == expect, "Given groups={}, weight of size [{}], expected input[{}] to have {} "
             "channels, but got {} channels instead", groups, fmt::join(weight.sizes(), ", "),
             fmt::join(input.sizes(), ", "), expect, cin);
  const int64_t cout = p.transposed ? weight.size(1) * groups : weight.size(0);
  AMPS_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == cout), "Given weight of size [{}], expected bias "
             "to be 1-dimensional with {} elements, but got bias of size [{}] instead", fmt::join(weight.sizes(), ", "),
             cout, bias.defined() ? fmt::format("{}", fmt::join(bias.sizes(), ", ")) : "");
}

Dims conv_out_shape(const Dims& in, const Dims& w, const ConvParams& p) {
  const int64_t cout = p.transposed ? w[1] * p.groups : w[0];
  Dims out{in[0], cout};
  for (size_t i = 0; i + 2 < in.size(); ++i) {
    const int64_t k = w[i + 2], s = p.stride[i], pd = p.padding[i], d = p.dilation[i];
    int64_t o = p.transposed ? (in[i + 2] - 1) * s - 2 * pd + d * (k - 1) + p.output_padding[i] + 1
                             : (in[i + 2] + 2 * pd - d * (k - 1) - 1) / s + 1;
    AMPS_CHECK(o > 0, "Calculated output size is too small: input {} with kernel {} gives {}", format_shape(in),
               format_shape(w), o);
    out.push_back(o);
  }
  return out;
}

void check_conv_backward_shapes(OpId op, const Dims& in, const Dims& w, const Tensor& g, const ConvParams& p) {
  AMPS_CHECK(in.size() == w.size() && g.dim() == int64_t(w.size()) && w.size() >= 3 && w.size() <= 5,
             "{}: expected batched input, weight and grad_output of equal rank 3 to 5", op_name(op));
  const int64_t cin = p.transposed ? w[0] : w[1] * p.groups;
  AMPS_CHECK(in[1] == cin && w[0] % p.groups == 0, "{}: input of size {} does not fit weight {} with groups={}",
             op_name(op), format_shape(in), format_shape(w), p.groups);
  Dims want = conv_out_shape(in, w, p);
  AMPS_CHECK(g.sizes() == want, "{}: grad_output has shape {}, expected {}", op_name(op), format_shape(g.sizes()),
             format_shape(want));
}

int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  int64_t o = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;  // floor division, as PyTorch's div_rtn
  if (ceil_mode && (o - 1) * s >= in + p) --o;
  return o;
}

Pool read_pool(const ArgReader& a, bool max, size_t first) {
  Pool r;
  r.input = a.tensor(first);
  r.p.kernel = a.ints(first + 1, 2);
  Dims stride = a.ints(first + 2);
  r.p.stride = stride.empty() ? Dims(r.p.kernel) : expand_param(stride, 2, op_name(a.op()), "stride");
  r.p.padding = a.ints(first + 3, 2);
  r.p.max = max;
  r.p.dilation = max ? a.ints(first + 4, 2) : Dims{1, 1};
  r.ceil_mode = a.boolean(first + (max ? 5 : 4));
  if (!max) r.p.count_include_pad = a.boolean(5);
  if (!max) r.divisor = a.opt_i64(6);
  AMPS_CHECK(!r.divisor || *r.divisor != 0, "divisor must be not zero");
  const Dims &k = r.p.kernel, &s = r.p.stride, &d = r.p.dilation;
  AMPS_CHECK(k[0] > 0 && k[1] > 0, "kernel size should be greater than zero, but got kH: {} kW: {}", k[0], k[1]);
  AMPS_CHECK(s[0] > 0 && s[1] > 0, "stride should be greater than zero, but got dH: {} dW: {}", s[0], s[1]);
  AMPS_CHECK(d[0] > 0 && d[1] > 0, "dilation should be greater than zero, but got dilationH: {} dilationW: {}", d[0],
             d[1]);
  AMPS_CHECK(r.p.padding[0] >= 0 && r.p.padding[1] >= 0, "pad must be non-negative, but got padH: {} padW: {}",
             r.p.padding[0], r.p.padding[1]);
  for (size_t i = 0; i < 2; ++i)
    AMPS_CHECK(r.p.padding[i] * 2 <= r.p.kernel[i], "pad should be at most half of effective kernel size, but got "
               "pad={}, kernel_size={}", r.p.padding[i], r.p.kernel[i]);
  return r;
}

Dims pool_shape(OpId op, const Pool& pl, const Tensor& x) {
  AMPS_CHECK(x.dim() == 4, "{}: Expected 3D or 4D (batch mode) tensor for input, got {}", op_name(op),
             format_shape(pl.input.sizes()));
  Dims shape{x.size(0), x.size(1)};
  for (size_t i = 0; i < 2; ++i) {
    int64_t o = pool_out(x.size(int64_t(i) + 2), pl.p.kernel[i], pl.p.stride[i], pl.p.padding[i],
                         pl.p.max ? pl.p.dilation[i] : 1, pl.ceil_mode);
    AMPS_CHECK(o > 0, "{}: Given input size {}, calculated output size is too small", op_name(op),
               format_shape(pl.input.sizes()));
    shape.push_back(o);
  }
  return shape;
}

Dims pool_out_shape(OpId op, const Pool& pl) {
  Tensor x = pl.input.dim() == 3 ? native::unsqueeze(pl.input, 0) : pl.input;
  Dims shape = pool_shape(op, pl, x);
  if (pl.input.dim() == 3) shape.erase(shape.begin());
  return shape;
}

AvgPoolBackward read_avg_pool_backward(const ArgReader& a) {
  AvgPoolBackward r;
  r.in = a.ints(1);
  r.kernel = a.ints(2, 2);
  Dims st = a.ints(3);
  r.stride = st.empty() ? r.kernel : expand_param(st, 2, "avg_pool2d", "stride");
  r.padding = a.ints(4, 2);
  r.count_include_pad = a.boolean(6);
  r.divisor = a.opt_i64(7);
  return r;
}

BatchNormLayout batch_norm_layout(const Tensor& x, const Tensor& rm, const Tensor& rv, const Tensor& w,
                                  const Tensor& b, bool training) {
  AMPS_CHECK(x.dim() >= 2, "batch_norm: expected 2D or more input (got {}D input)", x.dim());
  AMPS_CHECK(training || (rm.defined() && rv.defined()), "batch_norm: running_mean and running_var must be "
             "defined in evaluation mode");
  const int64_t C = x.size(1), per = C ? x.numel() / C : 0;
  const std::pair<const Tensor*, const char*> per_channel[] = {{&rm, "running_mean"}, {&rv, "running_var"},
                                                               {&w, "weight"}, {&b, "bias"}};
  for (const auto& [t, name] : per_channel) {
    if (!t->defined()) continue;
    AMPS_CHECK(t->numel() == C, "{} should contain {} elements not {}", name, C, t->numel());
    AMPS_CHECK(is_floating(t->dtype()), "batch_norm: {} must be a floating point tensor, got {}", name,
               dtype_name(t->dtype()));
  }
  AMPS_CHECK(!training || per > 1, "Expected more than 1 value per channel when training, got input size {}",
             format_shape(x.sizes()));
  return {C, per};
}

}  // namespace amps::rt::common
