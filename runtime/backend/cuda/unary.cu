// Unary elementwise kernels (math, activations, rounding, clamp, nan_to_num, predicates), one per type, and
// gelu's gradient.
#include <cfloat>

#include "runtime/backend/common/special_math.hpp"
#include "runtime/backend/cuda/elementwise.cuh"

namespace amps::rt::cuda {
namespace {

template <typename C> __device__ __forceinline__ C keep_op(UnOp op, C v) {
  switch (op) {
    case UnOp::neg: return C(-v);
    case UnOp::abs: return v <= C(0) ? C(C(0) - v) : v;  // abs(-0.0) is 0.0
    case UnOp::square: return C(v * v);
    case UnOp::sign:
      if constexpr (std::is_unsigned_v<C>) return C(v != C(0));  // uint8: 0 or 1
      else return C((C(0) < v) - (v < C(0)));
    case UnOp::relu: return v <= C(0) ? C(0) : v;  // NaN stays NaN, as in PyTorch
    default: break;
  }
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case UnOp::floor: return floor(v);
      case UnOp::ceil: return ceil(v);
      case UnOp::round: return nearbyint(v);
      case UnOp::trunc: return trunc(v);
      default: break;
    }
  }
  return v;  // rounding integers is the identity
}

template <typename C> __device__ __forceinline__ C float_op(UnOp op, C v, const UnaryParams& p) {
  switch (op) {
    case UnOp::sqrt: return sqrt(v);
    case UnOp::rsqrt: return C(1) / sqrt(v);
    case UnOp::exp: return exp(v);
    case UnOp::log: return log(v);
    case UnOp::log2: return log2(v);
    case UnOp::log1p: return log1p(v);
    case UnOp::expm1: return expm1(v);
    case UnOp::sin: return sin(v);
    case UnOp::cos: return cos(v);
    case UnOp::tanh: return tanh(v);
    case UnOp::sigmoid: return C(1) / (C(1) + exp(-v));
    case UnOp::erf: return erf(v);
    case UnOp::reciprocal: return C(1) / v;
    case UnOp::tan: return tan(v);
    case UnOp::sinh: return sinh(v);
    case UnOp::cosh: return cosh(v);
    case UnOp::asin: return asin(v);
    case UnOp::acos: return acos(v);
    case UnOp::atan: return atan(v);
    case UnOp::log10: return log10(v);
    case UnOp::erfinv: return erfinv(v);
    case UnOp::asinh: return asinh(v);
    case UnOp::acosh: return acosh(v);
    case UnOp::atanh: return atanh(v);
    case UnOp::erfc: return erfc(v);
    case UnOp::exp2: return exp2(v);
    case UnOp::lgamma: return lgamma(v);
    case UnOp::gelu: return C(0.5) * v * (C(1) + erf(v * C(0.7071067811865476)));
    case UnOp::gelu_tanh: {
      const C k = C(0.7978845608028654);  // sqrt(2 / pi)
      return C(0.5) * v * (C(1) + tanh(k * (v + C(0.044715) * v * v * v)));
    }
    case UnOp::silu: return v / (C(1) + exp(-v));
    case UnOp::leaky_relu: return v > C(0) ? v : C(v * C(p.p0));
    case UnOp::softplus: return v * C(p.p0) > C(p.p1) ? v : C(log1p(exp(v * C(p.p0))) / C(p.p0));
    default: return v;
  }
}

// digamma and polygamma: series in double (special_math.hpp), large code. Only the strided kernels hold them
// (launch_unary sends them there): a packed kernel would unroll them once per pack element, which made this file
// compile twice as long.
__host__ __device__ constexpr bool is_bulky(UnOp op) { return op == UnOp::digamma || op == UnOp::polygamma; }
template <typename C> __device__ __forceinline__ C bulky_op(UnOp op, C v, const UnaryParams& p) {
  if (op == UnOp::digamma) return C(special::digamma(double(v)));
  return C(special::polygamma(int64_t(p.p0), double(v)));
}

template <typename C> __device__ __forceinline__ C clamp_op(UnOp op, C v, const UnaryParams& p) {
  if (op == UnOp::clamp) {
    if (v != v) return v;
    const C lo = convert<C>(p.p0), hi = convert<C>(p.p1);  // small integers through int64, as the CPU kernel
    if (p.has_lo && v < lo) v = lo;
    if (p.has_hi && v > hi) v = hi;
    return v;
  }
  if constexpr (std::is_floating_point_v<C>) {  // nan_to_num
    if (v != v) return C(p.p0);
    if (isinf(v)) return v > C(0) ? C(p.p1) : C(p.p2);
  }
  return v;
}

template <typename C> __device__ __forceinline__ bool bool_op(UnOp op, C v) {
  switch (op) {
    case UnOp::isnan: return v != v;
    case UnOp::isinf: return v - v != v - v && v == v;
    case UnOp::isfinite: return v - v == v - v;
    case UnOp::logical_not: return v == C(0);
    default: return false;
  }
}

// One element of an op that keeps the dtype (every op before isfinite), in compute_t<T> (int for bool).
// kBulky: whether this kernel holds the bulky ops (the strided ones); the others never see them.
template <bool kBulky, typename T> __device__ __forceinline__ T unary_value(UnOp op, T x, const UnaryParams& p) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
  const C v = C(widen(x));
  C r;
  if (op <= UnOp::relu) r = keep_op(op, v);
  else if (op >= UnOp::clamp) r = clamp_op(op, v, p);
  else if constexpr (std::is_floating_point_v<C>) {
    if constexpr (kBulky) r = is_bulky(op) ? bulky_op(op, v, p) : float_op(op, v, p);
    else r = float_op(op, v, p);
  } else {
    r = v;  // the host casts integers to float32 before float math
  }
  return convert<T>(r);
}

// One element of a predicate (isfinite and after).
template <typename T> __device__ __forceinline__ bool unary_pred(UnOp op, T x) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
  return bool_op(op, C(widen(x)));
}

// out = op(x) on path P; the op is the compile-time kOp when it is not -1 (the hot ones, flat only: no switch).
template <Path P, typename T, int kOp>
__global__ void unary_kernel(Shape sh, Walk w, Ops<2> ops, UnOp rt_op, UnaryParams p) {
  const UnOp op = kOp < 0 ? rt_op : UnOp(kOp);
  const bool pred = op >= UnOp::isfinite;
  if constexpr (is_packed(P)) {
    constexpr int V = kPack<T>;
    for_each_pack<P, V>(sh, w, ops, [&](const PackAt<2>& at) {
      T x[V];
      load_pack(ops, w, at, 1, x);
      if (pred) {
        bool r[V];
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = unary_pred(op, x[k]);
        store_pack(ops, at, r);
      } else {
        T r[V];
#pragma unroll
        for (int k = 0; k < V; ++k) r[k] = unary_value<false>(op, x[k], p);
        store_pack(ops, at, r);
      }
    });
  } else {
    for_each_strided<P == Path::strided32>(sh, w, ops, [&](const auto& off) {
      const T x = load<T>(ops.o[1], off[1]);
      if (pred) static_cast<bool*>(ops.o[0].data)[off[0]] = unary_pred(op, x);
      else static_cast<T*>(ops.o[0].data)[off[0]] = unary_value<true>(op, x, p);
    });
  }
}

// gelu'(x), PyTorch's formulas: cdf + x pdf (erf form); with t = tanh(k (x + kappa x^3)):
// (1 + t) / 2 + x / 2 (1 - t^2) k (1 + 3 kappa x^2) (tanh form).
template <typename C> __device__ __forceinline__ C gelu_grad(C x, bool tanh_form) {
  if (!tanh_form) {
    const C cdf = C(0.5) * (C(1) + erf(x * C(0.7071067811865476)));
    return cdf + x * C(0.3989422804014327) * exp(C(-0.5) * x * x);  // 1 / sqrt(2 pi)
  }
  const C k = C(0.7978845608028654), kappa = C(0.044715);  // sqrt(2 / pi)
  const C t = tanh(k * (x + kappa * x * x * x));
  return C(0.5) * (C(1) + t) + C(0.5) * x * (C(1) - t * t) * k * (C(1) + C(3) * kappa * x * x);
}

template <typename T> __device__ __forceinline__ T gelu_backward_value(T g, T x, bool tanh_form) {
  using C = compute_t<T>;
  return convert<T>(C(C(widen(g)) * gelu_grad(C(widen(x)), tanh_form)));
}

template <Path P, typename T> __global__ void gelu_backward_kernel(Shape sh, Walk w, Ops<3> ops, bool tanh_form) {
  if constexpr (is_packed(P)) {
    constexpr int V = kPack<T>;
    for_each_pack<P, V>(sh, w, ops, [&](const PackAt<3>& at) {
      T g[V], x[V], r[V];
      load_pack(ops, w, at, 1, g);
      load_pack(ops, w, at, 2, x);
#pragma unroll
      for (int k = 0; k < V; ++k) r[k] = gelu_backward_value(g[k], x[k], tanh_form);
      store_pack(ops, at, r);
    });
  } else {
    for_each_strided<P == Path::strided32>(sh, w, ops, [&](const auto& off) {
      static_cast<T*>(ops.o[0].data)[off[0]] =
          gelu_backward_value(load<T>(ops.o[1], off[1]), load<T>(ops.o[2], off[2]), tanh_form);
    });
  }
}

}  // namespace

cudaError_t launch_gelu_backward(cudaStream_t s, Elem t, const Shape& shape, const Operand& out, const Operand& grad,
                                 const Operand& self, bool tanh_form) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<3> ops{{out, grad, self}};
  return with_float_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    constexpr int b = sizeof(T);
    const Path path = choose_path(shape, ops.o, {b, b, b}, kPack<T>);
    return launch_path(s, path, kPack<T>, shape, [](auto pt) { return gelu_backward_kernel<decltype(pt)::value, T>; },
                       ops, tanh_form);
  });
}

// gelu (the erf form, the GPT block's) on the flat path has a kernel of its own (no op switch per element).
cudaError_t launch_unary(cudaStream_t s, UnOp op, Elem t, const Shape& shape, const Operand& out,
                         const Operand& x, const UnaryParams& p) {
  if (shape.numel == 0) return cudaSuccess;
  Ops<2> ops{{out, x}};
  return with_elem(t, [&](auto t_tag) {
    using T = typename decltype(t_tag)::type;
    constexpr int V = kPack<T>;
    Path path = choose_path(shape, ops.o, {op >= UnOp::isfinite ? 1 : int(sizeof(T)), int(sizeof(T))}, V);
    if (is_packed(path) && is_bulky(op)) path = Path::strided32;  // packed implies fits_32bit
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      if (path == Path::flat && op == UnOp::gelu) {
        unary_kernel<Path::flat, T, int(UnOp::gelu)>
            <<<path_grid(path, shape, V), kThreads, 0, s>>>(shape, make_walk(path, shape, ops.o), ops, op, p);
        return cudaGetLastError();
      }
    }
    return launch_path(s, path, V, shape, [](auto pt) { return unary_kernel<decltype(pt)::value, T, -1>; }, ops, op, p);
  });
}

}  // namespace amps::rt::cuda
