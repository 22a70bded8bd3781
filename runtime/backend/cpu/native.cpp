// CPU helper implementations: loop plans, result_type, casting copies and fills.
#include "runtime/backend/cpu/native.hpp"

#include <cstring>
#include <optional>

#include "runtime/backend/cpu/loops.hpp"
#include "runtime/context.hpp"
#include "runtime/shape.hpp"
#include "runtime/views.hpp"

namespace amps::rt::cpu {
namespace {

// Can the last kept (outer) dim of [q] absorb dim [d] (inner) of [p]? Only when every operand is dense
// across the pair.
bool can_coalesce_pair(const LoopPlan& q, const LoopPlan& p, size_t d) {
  for (int k = 0; k < p.nops; ++k)
    if (q.strides.back()[size_t(k)] != p.shape[d] * p.strides[d][size_t(k)]) return false;
  return true;
}

void coalesce(LoopPlan& p) {
  LoopPlan q;
  q.nops = p.nops;
  for (size_t d = 0; d < p.shape.size(); ++d) {
    if (p.shape[d] == 1) continue;
    if (!q.shape.empty() && can_coalesce_pair(q, p, d)) {
      q.shape.back() *= p.shape[d];
      q.strides.back() = p.strides[d];
      continue;
    }
    q.shape.push_back(p.shape[d]);
    q.strides.push_back(p.strides[d]);
  }
  p.shape = std::move(q.shape);
  p.strides = std::move(q.strides);
}

std::optional<DType> promote_opt(std::optional<DType> a, DType b) { return a ? promote(*a, b) : b; }

std::optional<DType> combine_categories(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (is_floating(*higher) || !lower) return higher;
  if (*higher == DType::bool_ || is_floating(*lower)) return promote(*higher, *lower);
  return higher;
}

// uint8/int8/int16 storage types.
template <typename T>
inline constexpr bool kSmallInt = std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) < 4;

// A cast between two integer (or bool) types, one of them uint8/int8/int16: rare outside data loading, so one plain
// loop (C++'s conversion: the low bits, or != 0 into bool) instead of map1's three instruction-set builds each.
template <typename TO, typename TI> inline constexpr bool kPlainCast =
    std::is_integral_v<TO> && std::is_integral_v<TI> && !std::is_same_v<TO, TI> && (kSmallInt<TO> || kSmallInt<TI>);

template <typename TO, typename TI> void plain_cast(const Tensor& dst, const Tensor& src) {
  for_each_run(make_loop_plan(dst, {&src}), [](char** p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<TO*>(p[0] + i * s[0]) = static_cast<TO>(*reinterpret_cast<const TI*>(p[1] + i * s[1]));
  });
}

}  // namespace

LoopPlan make_loop_plan(const Tensor& out, std::initializer_list<const Tensor*> inputs) {
  LoopPlan p;
  p.nops = 1 + int(inputs.size());
  AMPS_ASSERT(p.nops <= kMaxOperands, "too many operands {}", p.nops);
  p.shape = out.sizes();
  p.numel = out.numel();
  const size_t nd = p.shape.size();
  p.strides.assign(nd, {});
  p.base[0] = static_cast<char*>(out.raw_data());
  for (size_t d = 0; d < nd; ++d) p.strides[d][0] = out.strides()[d] * int64_t(out.element_size());
  int k = 1;
  for (const Tensor* t : inputs) {
    p.base[size_t(k)] = static_cast<char*>(t->raw_data());
    const size_t lead = nd - t->sizes().size();
    for (size_t d = lead; d < nd; ++d) {
      bool bcast = t->sizes()[d - lead] == 1 && p.shape[d] != 1;
      p.strides[d][size_t(k)] = bcast ? 0 : t->strides()[d - lead] * int64_t(t->element_size());
    }
    ++k;
  }
  coalesce(p);
  return p;
}

DType result_type(std::initializer_list<const Tensor*> operands) {
  std::optional<DType> dim, zero, wrapped;
  for (const Tensor* t : operands) {
    if (!t->defined()) continue;
    if (t->impl()->is_wrapped_number) {
      DType d = is_floating(t->dtype()) ? default_dtype() : t->dtype();
      wrapped = promote_opt(wrapped, d);
    } else if (t->dim() == 0) {
      zero = promote_opt(zero, t->dtype());
    } else {
      dim = promote_opt(dim, t->dtype());
    }
  }
  return combine_categories(dim, combine_categories(zero, wrapped)).value_or(default_dtype());
}

Tensor empty_like(const Tensor& t, DType dtype, Device device) { return Tensor::empty(t.sizes(), dtype, device); }

Tensor cast(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = empty_like(t, dtype, t.device());
  copy_into(out, t);
  return out;
}

Tensor contiguous(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor out = empty_like(t, t.dtype(), t.device());
  copy_into(out, t);
  return out;
}

void copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() && dst.sizes() == src.sizes()) {
    char* d = static_cast<char*>(dst.raw_data());
    const char* s = static_cast<const char*>(src.raw_data());
    const int64_t es = int64_t(dst.element_size());
    if (d == s) return;
    parallel_for(dst.numel(), 4 * kParallelGrain,
                 [&](int64_t b, int64_t e) { std::memmove(d + b * es, s + b * es, size_t((e - b) * es)); });
    return;
  }
  AMPS_DISPATCH_ALL(dst.dtype(), TO, [&] {
    AMPS_DISPATCH_ALL(src.dtype(), TI, [&] {
      if constexpr (kPlainCast<TO, TI>) plain_cast<TO, TI>(dst, src);
      else map1<TO, TI>(dst, src, [](compute_t<TI> x) { return x; });
    });
  });
}

void fill(const Tensor& dst, Scalar v) {
  AMPS_DISPATCH_ALL(dst.dtype(), T, [&] {
    const T value = v.to<T>();
    if (dst.is_contiguous()) {
      T* p = dst.data<T>();
      parallel_for(dst.numel(), kParallelGrain, [&](int64_t b, int64_t e) { std::fill(p + b, p + e, value); });
      return;
    }
    Tensor one = Tensor::scalar(v, dst.dtype());
    copy_into(dst, one);
  });
}

Tensor reshape(const Tensor& t, const Dims& shape) {
  if (std::optional<Tensor> v = native::try_view(t, shape)) return *v;
  Tensor c = empty_like(t, t.dtype(), t.device());
  copy_into(c, t);
  return native::view(c, shape);
}

Dims broadcast_pair(const Tensor& a, const Tensor& b, std::string_view op) {
  if (a.sizes() == b.sizes()) return a.sizes();
  return broadcast_shapes(a.sizes(), b.sizes(), op);
}

}  // namespace amps::rt::cpu

namespace amps::rt::cpu {

bool dnnl_dtype_ok(DType t) { return t == DType::float32 || t == DType::bfloat16 || t == DType::float16; }

dnnl_cpu::DnnlArg dnnl_arg(const Tensor& t) {
  AMPS_ASSERT(dnnl_dtype_ok(t.dtype()), "dnnl_arg on {}", dtype_name(t.dtype()));
  dnnl_cpu::DnnlType dt = t.dtype() == DType::float32    ? dnnl_cpu::DnnlType::f32
                          : t.dtype() == DType::bfloat16 ? dnnl_cpu::DnnlType::bf16
                                                         : dnnl_cpu::DnnlType::f16;
  return dnnl_cpu::DnnlArg{t.raw_data(), dt, t.sizes(), t.strides()};
}

}  // namespace amps::rt::cpu
