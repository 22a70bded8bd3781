// CPU kernels for broadcasting binary and ternary elementwise ops: arithmetic, comparisons, where,
// masked_fill, addcmul/addcdiv/lerp, with PyTorch's type promotion and in-place/out rules.
#include <cmath>

#include "runtime/backend/common/binary_checks.hpp"
#include "runtime/backend/common/copy_kernels.hpp"
#include "runtime/backend/common/mask_checks.hpp"
#include "runtime/backend/common/shape_composites.hpp"
#include "runtime/backend/cpu/cpu_backend.hpp"
#include "runtime/backend/cpu/loops.hpp"
#include "runtime/backend/cpu/native.hpp"
#include "runtime/backend/cpu/simd_bf16_select.hpp"
#include "runtime/backend/cpu/simd_binary.hpp"
#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::cpu {
namespace {

enum class Bin { add, sub, mul, div, div_trunc, div_floor, pow, rem, fmod, max, min, atan2, eq, ne, lt, le, gt, ge, land, lor };

bool is_bool_result(Bin op) { return op >= Bin::eq; }

template <typename C> C py_mod(C a, C b) {
  C r;
  if constexpr (std::is_floating_point_v<C>) r = std::fmod(a, b);
  else if constexpr (std::is_signed_v<C>) r = b == C(-1) ? C(0) : C(a % b);  // min % -1 traps in hardware
  else r = a % b;
  if constexpr (std::is_signed_v<C>) {  // unsigned types and bool have no sign to fix up
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
  }
  return r;
}

// C's remainder (the sign of the dividend), torch.fmod's.
template <typename C> C c_mod(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return std::fmod(a, b);
  else if constexpr (std::is_signed_v<C>) return b == C(-1) ? C(0) : C(a % b);  // min % -1 traps in hardware
  else return C(a % b);
}

// a / b for integers; min / -1 wraps to min (the hardware division would trap).
template <typename C> C int_div(C a, C b) {
  if constexpr (std::is_signed_v<C> && !std::is_same_v<C, bool>)
    if (b == C(-1)) return C(std::make_unsigned_t<C>(0) - std::make_unsigned_t<C>(a));
  return C(a / b);
}

template <typename C> C floor_div(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return std::floor(a / b);
  else {
    if constexpr (std::is_signed_v<C> && !std::is_same_v<C, bool>)
      if (b == C(-1)) return int_div(a, b);
    C q = a / b;
    if constexpr (std::is_signed_v<C>) return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    return q;
  }
}

// Integer powers; a negative exponent gives PyTorch's integer results: 1 for base 1, +-1 for base -1, else 0.
template <typename C> C int_pow(C base, C exp) {
  if constexpr (std::is_same_v<C, bool>) {
    return base || !exp;  // b ** 1 = b, b ** 0 = 1
  } else {
    if constexpr (std::is_signed_v<C>)
      if (exp < 0) return base == C(1) ? C(1) : base == C(-1) ? C((exp & 1) ? -1 : 1) : C(0);
    C r = 1;
    for (; exp > 0; exp >>= 1, base *= base)
      if (exp & 1) r *= base;
    return r;
  }
}

template <typename T> void arith(Bin op, const Tensor& o, const Tensor& x, const Tensor& y, Scalar alpha) {
  using C = compute_t<T>;
  const C al = alpha.to<C>();
  switch (op) {
    case Bin::add:
      if (al == C(1)) return map2<T, T>(o, x, y, [](C a, C b) { return C(a + b); });
      return map2<T, T>(o, x, y, [al](C a, C b) { return C(a + al * b); });
    case Bin::sub:
      if (al == C(1)) return map2<T, T>(o, x, y, [](C a, C b) { return C(a - b); });
      return map2<T, T>(o, x, y, [al](C a, C b) { return C(a - al * b); });
    case Bin::mul: return map2<T, T>(o, x, y, [](C a, C b) { return C(a * b); });
    case Bin::div:  // integers divide in float32 (compute_dtype_for): no integer build
      if constexpr (std::is_floating_point_v<C>) return map2<T, T>(o, x, y, [](C a, C b) { return C(a / b); });
      break;
    case Bin::div_trunc:
      if constexpr (std::is_floating_point_v<C>) return map2<T, T>(o, x, y, [](C a, C b) { return std::trunc(a / b); });
      else return map2<T, T>(o, x, y, [](C a, C b) { return int_div(a, b); });
    case Bin::div_floor: return map2<T, T>(o, x, y, [](C a, C b) { return floor_div(a, b); });
    case Bin::rem: return map2<T, T>(o, x, y, [](C a, C b) { return py_mod(a, b); });
    case Bin::fmod: return map2<T, T>(o, x, y, [](C a, C b) { return c_mod(a, b); });
    case Bin::pow:
      if constexpr (std::is_floating_point_v<C>) return map2<T, T>(o, x, y, [](C a, C b) { return C(std::pow(a, b)); });
      else return map2<T, T>(o, x, y, [](C a, C b) { return int_pow(a, b); });
    // a on ties (maximum(0.0, -0.0) is 0.0, as PyTorch's)
    case Bin::max: return map2<T, T>(o, x, y, [](C a, C b) { return (a != a || a >= b) ? a : b; });
    case Bin::min: return map2<T, T>(o, x, y, [](C a, C b) { return (a != a || a <= b) ? a : b; });
    case Bin::atan2:
      if constexpr (std::is_floating_point_v<C>) return map2<T, T>(o, x, y, [](C a, C b) { return std::atan2(a, b); });
      break;  // integer inputs are computed in float32 (compute_dtype_for)
    default: break;
  }
  AMPS_ASSERT(false, "not an arithmetic op");
}

// pow with a Python-number exponent as PyTorch computes it (pow_tensor_scalar_kernel): 1 a copy, 2, 3 and -2 as products
// (x * x * x rounds differently from powf), 0.5, -0.5 and -1 as sqrt, rsqrt and reciprocal. False for any other
// exponent (powf).
template <typename T> bool pow_special_exponent(const Tensor& o, const Tensor& x, double e) {
  using C = compute_t<T>;
  if constexpr (std::is_floating_point_v<C>) {
    if (e == 1) return map1<T, T>(o, x, [](C v) { return v; }), true;  // pow's gradient at exponent 2
    if (e == 2) return map1<T, T>(o, x, [](C v) { return C(v * v); }), true;
    if (e == 3) return map1<T, T>(o, x, [](C v) { return C(v * v * v); }), true;
    if (e == -2) return map1<T, T>(o, x, [](C v) { return C(C(1) / (v * v)); }), true;
    if (e == 0.5) return map1<T, T>(o, x, [](C v) { return std::sqrt(v); }), true;
    if (e == -0.5) return map1<T, T>(o, x, [](C v) { return C(C(1) / std::sqrt(v)); }), true;
    if (e == -1) return map1<T, T>(o, x, [](C v) { return C(C(1) / v); }), true;
  }
  return false;
}

template <typename T> void compare(Bin op, const Tensor& o, const Tensor& x, const Tensor& y) {
  using C = compute_t<T>;
  switch (op) {
    case Bin::eq: return map2<bool, T>(o, x, y, [](C a, C b) { return a == b; });
    case Bin::ne: return map2<bool, T>(o, x, y, [](C a, C b) { return a != b; });
    case Bin::lt: return map2<bool, T>(o, x, y, [](C a, C b) { return a < b; });
    case Bin::le: return map2<bool, T>(o, x, y, [](C a, C b) { return a <= b; });
    case Bin::gt: return map2<bool, T>(o, x, y, [](C a, C b) { return a > b; });
    case Bin::ge: return map2<bool, T>(o, x, y, [](C a, C b) { return a >= b; });
    case Bin::land: return map2<bool, T>(o, x, y, [](C a, C b) { return a != C(0) && b != C(0); });
    case Bin::lor: return map2<bool, T>(o, x, y, [](C a, C b) { return a != C(0) || b != C(0); });
    default: break;
  }
  AMPS_ASSERT(false, "not a comparison op");
}

// The dtype the op computes in: PyTorch's result type, floats for true division and atan2 of integers.
DType compute_dtype_for(Bin op, const Tensor& x, const Tensor& y) {
  DType dt = result_type({&x, &y});
  if ((op == Bin::div || op == Bin::atan2) && !is_floating(dt)) dt = default_dtype();
  return dt;
}

void check_operands(Bin op, OpId id, DType dt, const Tensor& y) {
  AMPS_CHECK(!(op == Bin::sub && dt == DType::bool_), "Subtraction, the `-` operator, with two bool tensors is "
             "not supported. Use the `^` or `logical_xor()` operator instead.");
  bool int_div = !is_floating(dt) && (op == Bin::div_trunc || op == Bin::div_floor || op == Bin::rem ||
                                         op == Bin::fmod);
  if (int_div) {
    Tensor zero = Tensor::empty(y.sizes(), DType::bool_, y.device());
    compare<int64_t>(Bin::eq, zero, cast(y, DType::int64), Tensor::scalar(int64_t(0)));
    for (double v : zero.to_doubles()) AMPS_CHECK_KIND("ZeroDivisionError", v == 0, "ZeroDivisionError");
  }
  (void)id;
}

// Checks that an in-place result of [dt] and [shape] fits [self] (PyTorch's messages).
void check_inplace(OpId id, const Tensor& self, DType dt, const Dims& shape) {
  AMPS_CHECK(shape == self.sizes(), "{}: output with shape {} doesn't match the broadcast shape {}", op_name(id),
             format_shape(self.sizes()), format_shape(shape));
  bool ok = !(is_floating(dt) && !is_floating(self.dtype())) && !(dt != DType::bool_ && self.dtype() == DType::bool_);
  AMPS_CHECK(ok, "{}: result type {} can't be cast to the desired output type {}", op_name(id), dtype_name(dt),
             dtype_name(self.dtype()));
}

// float32 add/sub (alpha 1), mul and div as a vectorised flat loop; nullopt for everything else.
std::optional<FlatOp> flat_op(Bin op, DType dt, Scalar alpha) {
  if (dt != DType::float32) return std::nullopt;
  switch (op) {
    case Bin::add: return alpha.to<float>() == 1.0f ? std::optional(FlatOp::add) : std::nullopt;
    case Bin::sub: return alpha.to<float>() == 1.0f ? std::optional(FlatOp::sub) : std::nullopt;
    case Bin::mul: return FlatOp::mul;
    case Bin::div: return FlatOp::div;
    default: return std::nullopt;
  }
}

// The common case of training loops: two dense floating tensors of one dtype and one shape, out of
// place. Nothing to promote, broadcast, cast or check (the operand checks concern integers and bools),
// so the result is allocated and computed directly. Undefined when the case does not apply.
Tensor dense_binary(Bin op, const Tensor& x, const Tensor& y, const KernelContext& kc, Scalar alpha) {
  const DType dt = x.dtype();
  if (y.dtype() != dt || !is_floating(dt) || !x.is_contiguous() || !y.is_contiguous() || x.sizes() != y.sizes())
    return Tensor();
  Tensor out = Tensor::empty(x.sizes(), is_bool_result(op) ? DType::bool_ : dt, kc.device);
  if (std::optional<FlatOp> f = flat_op(op, dt, alpha)) {
    float* o = out.data<float>();
    const float *xp = x.data<float>(), *yp = y.data<float>();
    parallel_for(out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
      flat_binary_f32(*f, o + b, xp + b, yp + b, e - b);
    });
    return out;
  }
  AMPS_DISPATCH_ALL(dt, T, [&] {
    if (is_bool_result(op)) compare<T>(op, out, x, y);
    else arith<T>(op, out, x, y, alpha);
  });
  return out;
}

Tensor binary(Bin op, const ArgReader& a, const KernelContext& kc, bool inplace, Scalar alpha = int64_t(1)) {
  if (op == Bin::pow) common::check_integer_pow(a);
  if (op == Bin::add || op == Bin::sub) common::check_alpha(a, alpha);
  if (op == Bin::sub) common::check_bool_sub(a);
  if (!inplace)
    if (const Tensor *xp = a.tensor_in_place(0), *yp = a.tensor_in_place(1); xp && yp)
      if (Tensor out = dense_binary(op, *xp, *yp, kc, alpha); out.defined()) return out;
  Tensor x = a.tensor(0), y = a.tensor(1);
  const DType dt = compute_dtype_for(op, x, y);
  check_operands(op, a.op(), dt, y);
  Dims shape = broadcast_pair(x, y, op_name(a.op()));
  const DType out_dt = is_bool_result(op) ? DType::bool_ : dt;
  if (inplace) check_inplace(a.op(), x, out_dt, shape);
  const bool direct = inplace && out_dt == x.dtype();
  Tensor out = direct ? x : Tensor::empty(std::move(shape), out_dt, kc.device);
  Tensor xc = cast(x, dt), yc = cast(y, dt);
  const bool number_exponent = op == Bin::pow && is_floating(dt) && y.impl()->is_wrapped_number;
  AMPS_DISPATCH_ALL(dt, T, [&] {
    if (is_bool_result(op)) compare<T>(op, out, xc, yc);
    else if (!number_exponent || !pow_special_exponent<T>(out, xc, y.item<double>())) arith<T>(op, out, xc, yc, alpha);
  });
  if (inplace && !direct) copy_into(x, out);
  return inplace ? x : out;
}

Bin div_kind(const ArgReader& a, size_t i) {
  std::optional<std::string> mode = a.opt_str(i);
  if (!mode) return Bin::div;
  if (*mode == "trunc") return Bin::div_trunc;
  if (*mode == "floor") return Bin::div_floor;
  AMPS_FAIL("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", *mode);
}

#define AMPS_BINARY_KERNEL(name, kind, inplace) \
  Tensors k_##name(const ArgReader& a, const KernelContext& kc) { return one_tensor(binary(kind, a, kc, inplace)); }
AMPS_BINARY_KERNEL(mul, Bin::mul, false)
AMPS_BINARY_KERNEL(mul_, Bin::mul, true)
AMPS_BINARY_KERNEL(pow, Bin::pow, false)
AMPS_BINARY_KERNEL(pow_, Bin::pow, true)
AMPS_BINARY_KERNEL(remainder, Bin::rem, false)
AMPS_BINARY_KERNEL(fmod, Bin::fmod, false)
AMPS_BINARY_KERNEL(floor_divide, Bin::div_floor, false)
AMPS_BINARY_KERNEL(maximum, Bin::max, false)
AMPS_BINARY_KERNEL(minimum, Bin::min, false)
AMPS_BINARY_KERNEL(atan2, Bin::atan2, false)
AMPS_BINARY_KERNEL(eq, Bin::eq, false)
AMPS_BINARY_KERNEL(ne, Bin::ne, false)
AMPS_BINARY_KERNEL(lt, Bin::lt, false)
AMPS_BINARY_KERNEL(le, Bin::le, false)
AMPS_BINARY_KERNEL(gt, Bin::gt, false)
AMPS_BINARY_KERNEL(ge, Bin::ge, false)
AMPS_BINARY_KERNEL(logical_and, Bin::land, false)
AMPS_BINARY_KERNEL(logical_or, Bin::lor, false)
#undef AMPS_BINARY_KERNEL

Tensors k_add(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(Bin::add, a, kc, false, a.scalar(2)));
}
Tensors k_add_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(Bin::add, a, kc, true, a.scalar(2)));
}
Tensors k_sub(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(Bin::sub, a, kc, false, a.scalar(2)));
}
Tensors k_sub_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(binary(Bin::sub, a, kc, true, a.scalar(2)));
}
Tensors k_div(const ArgReader& a, const KernelContext& kc) { return one_tensor(binary(div_kind(a, 2), a, kc, false)); }
Tensors k_div_(const ArgReader& a, const KernelContext& kc) { return one_tensor(binary(div_kind(a, 2), a, kc, true)); }

// ---- ternary ops ----

enum class Tern { addcmul, addcdiv, lerp, where };

template <typename T> void ternary_apply(Tern op, const Tensor& o, const Tensor& x, const Tensor& y,
                                         const Tensor& z, Scalar value) {
  using C = compute_t<T>;
  const C v = value.to<C>();
  switch (op) {
    case Tern::addcmul: return map3<T, T>(o, x, y, z, [v](C a, C b, C c) { return C(a + v * b * c); });
    case Tern::where: return map3<T, T>(o, x, y, z, [](C c, C a, C b) { return c != C(0) ? a : b; });
    default: break;
  }
  if constexpr (std::is_floating_point_v<C>) {  // addcdiv and lerp refuse integers (ternary): no integer builds
    if (op == Tern::addcdiv) return map3<T, T>(o, x, y, z, [v](C a, C b, C c) { return C(a + v * (b / c)); });
    return map3<T, T>(o, x, y, z, [](C a, C e, C w) {
      return std::abs(double(w)) < 0.5 ? C(a + w * (e - a)) : C(e - (e - a) * (C(1) - w));
    });
  }
}

// out = op(x, y, z) broadcasting all three; [x] is the in-place target when [inplace].
Tensor ternary(Tern op, const ArgReader& a, const KernelContext& kc, bool inplace, Scalar value) {
  Tensor x = a.tensor(0), y = a.tensor(1), z = a.tensor(2);
  DType dt = result_type({&x, &y, &z});
  AMPS_CHECK(!(op == Tern::addcdiv && !is_floating(dt)), "Integer division with addcdiv is no longer supported, "
             "and in a future release addcdiv will perform a true division of tensor1 and tensor2.");
  AMPS_CHECK(op != Tern::lerp || is_floating(dt), "lerp: expected floating point tensors, got {}", dtype_name(dt));
  Dims shape = broadcast_shapes(broadcast_pair(x, y, op_name(a.op())), z.sizes(), op_name(a.op()));
  if (inplace) check_inplace(a.op(), x, dt, shape);
  bool direct = inplace && dt == x.dtype();
  Tensor out = direct ? x : Tensor::empty(shape, dt, kc.device);
  Tensor xc = cast(x, dt), yc = cast(y, dt), zc = cast(z, dt);
  AMPS_DISPATCH_ALL(dt, T, [&] { ternary_apply<T>(op, out, xc, yc, zc, value); });
  if (inplace && !direct) copy_into(x, out);
  return inplace ? x : out;
}

Tensors k_addcmul(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(Tern::addcmul, a, kc, false, a.scalar(3)));
}
Tensors k_addcmul_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(Tern::addcmul, a, kc, true, a.scalar(3)));
}
Tensors k_addcdiv(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(Tern::addcdiv, a, kc, false, a.scalar(3)));
}
Tensors k_addcdiv_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(Tern::addcdiv, a, kc, true, a.scalar(3)));
}
Tensors k_lerp(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(Tern::lerp, a, kc, false, 1.0));
}
Tensors k_lerp_(const ArgReader& a, const KernelContext& kc) {
  return one_tensor(ternary(Tern::lerp, a, kc, true, 1.0));
}

Tensors k_where(const ArgReader& a, const KernelContext& kc) {
  Tensor c = a.tensor(0), x = a.tensor(1), y = a.tensor(2);
  // a uint8 condition is read as bool, as PyTorch 1.13 still accepts it (deprecated)
  AMPS_CHECK(c.dtype() == DType::bool_ || c.dtype() == DType::uint8, "where expected condition to be a boolean "
             "tensor, but got a tensor with dtype {}", common::torch_type_name(c.dtype()));  // 1.13's spelling: Long
  c = cast(c, DType::bool_);
  DType dt = result_type({&x, &y});
  Dims shape = broadcast_shapes(broadcast_pair(c, x, "where"), y.sizes(), "where");
  Tensor out = Tensor::empty(shape, dt, kc.device);
  Tensor cc = cast(c, dt), xc = cast(x, dt), yc = cast(y, dt);
  AMPS_DISPATCH_ALL(dt, T, [&] { ternary_apply<T>(Tern::where, out, cc, xc, yc, 0.0); });
  return one_tensor(out);
}

Tensor masked_fill(const ArgReader& a, const KernelContext& kc, bool inplace) {
  Tensor x = a.tensor(0), m = a.tensor(1);
  Scalar v = a.scalar(2);
  common::check_fill_value(v, x.dtype());
  AMPS_CHECK(m.dtype() == DType::bool_ || m.dtype() == DType::uint8, "masked_fill_ only supports boolean masks, "
             "but got mask with dtype {}", dtype_name(m.dtype()));  // uint8: read as bool, as PyTorch 1.13 (deprecated)
  common::check_byte_mask(m);
  m = cast(m, DType::bool_);
  Dims shape = broadcast_pair(x, m, "masked_fill");
  if (inplace) check_inplace(a.op(), x, x.dtype(), shape);
  Tensor out = inplace ? x : Tensor::empty(shape, x.dtype(), kc.device);
  Tensor mc = cast(m, x.dtype()), fill_value = Tensor::scalar(v, x.dtype());
  AMPS_DISPATCH_ALL(x.dtype(), T, [&] { ternary_apply<T>(Tern::where, out, mc, fill_value, x, 0.0); });
  return out;
}

Tensors k_masked_fill(const ArgReader& a, const KernelContext& kc) { return one_tensor(masked_fill(a, kc, false)); }
Tensors k_masked_fill_(const ArgReader& a, const KernelContext& kc) { return one_tensor(masked_fill(a, kc, true)); }

// ---- threshold_backward: relu's gradient in one pass, without a mask tensor ----

// o = x <= th ? 0 : g over n dense elements, branch-free (the mask is data, half of it random for relu).
// Half types compare in float but copy g's bits (no rounding).
template <typename T> void threshold_run(T* o, const T* g, const T* x, compute_t<T> th, int64_t n) {
  if constexpr (std::is_same_v<T, compute_t<T>>) {
    for (int64_t i = 0; i < n; ++i) {
      const T gv = g[i];  // read unconditionally: a select, not a branch
      o[i] = x[i] <= th ? T(0) : gv;
    }
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    bf16_zero_where_le(reinterpret_cast<uint16_t*>(o), reinterpret_cast<const uint16_t*>(g),
                       reinterpret_cast<const uint16_t*>(x), th, n);
  } else {
    float buf[kChunk];
    for (int64_t off = 0; off < n; off += kChunk) {
      const int64_t m = std::min(kChunk, n - off);
      const float* xf = load_chunk<T, float>(reinterpret_cast<const char*>(x + off), sizeof(T), m, buf);
      const uint16_t* gb = reinterpret_cast<const uint16_t*>(g + off);
      uint16_t* ob = reinterpret_cast<uint16_t*>(o + off);
      for (int64_t i = 0; i < m; ++i) ob[i] = uint16_t(gb[i] & -uint16_t(!(xf[i] <= th)));
    }
  }
}

// PyTorch's threshold_backward: 0 where self <= threshold, else grad_output (so a NaN self passes the
// gradient through, as in PyTorch). Dense same-shape operands of one dtype take the flat loop.
Tensors k_threshold_backward(const ArgReader& a, const KernelContext& kc) {
  Tensor g = a.tensor(0), x = a.tensor(1);
  const DType dt = result_type({&g, &x});
  Tensor out = Tensor::empty(broadcast_pair(g, x, "threshold_backward"), dt, kc.device);
  const bool dense = g.dtype() == dt && x.dtype() == dt && g.is_contiguous() && x.is_contiguous() &&
                     g.sizes() == out.sizes() && x.sizes() == out.sizes();
  Tensor gc = cast(g, dt), xc = cast(x, dt);
  AMPS_DISPATCH_FLOAT(dt, "threshold_backward", T, [&] {
    using C = compute_t<T>;
    const C th = a.scalar(2).to<C>();
    if (!dense) return map2<T, T>(out, gc, xc, [th](C gv, C xv) { return xv <= th ? C(0) : gv; });
    T* o = out.data<T>();
    const T *gp = gc.data<T>(), *xp = xc.data<T>();
    parallel_for(out.numel(), kParallelGrain,
                 [&](int64_t b, int64_t e) { threshold_run<T>(o + b, gp + b, xp + b, th, e - b); });
  });
  return one_tensor(out);
}

}  // namespace

void register_binary_kernels(KernelTable& t) {
#define AMPS_BINARY_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#define AMPS_TERNARY_OP(name, dtypes) t.add(OpId::name, k_##name, dtypes);
#include "runtime/backend/common/elementwise_ops.def"
#undef AMPS_BINARY_OP
#undef AMPS_TERNARY_OP
}

}  // namespace amps::rt::cpu
