// f32<->bf16/f16 conversion and staging of arguments whose dtype or layout a primitive cannot take.
#include "runtime/backend/cpu/dnnl_staging.hpp"

#include <cstring>

#include "runtime/backend/cpu/dnnl_detail.hpp"

namespace amps::rt::dnnl_cpu::detail {

namespace {

uint32_t bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

float from_bits(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

// Tag types so that one template converts rows between all three element types.
struct Bf16 { uint16_t v; };
struct F16 { uint16_t v; };
float load(float x) { return x; }
float load(Bf16 x) { return bf16_to_f32(x.v); }
float load(F16 x) { return f16_to_f32(x.v); }
void store(float* p, float x) { *p = x; }
void store(Bf16* p, float x) { p->v = f32_to_bf16(x); }
void store(F16* p, float x) { p->v = f32_to_f16(x); }

template <class S, class D>
void convert_row(const void* src, int64_t ss, void* dst, int64_t ds, int64_t n) {
  const S* s = static_cast<const S*>(src);
  D* d = static_cast<D*>(dst);
  for (int64_t i = 0; i < n; ++i) store(d + i * ds, load(s[i * ss]));
}

using RowFn = void (*)(const void*, int64_t, void*, int64_t, int64_t);

template <class S>
RowFn row_fn_to(DnnlType d) {
  switch (d) {
    case DnnlType::f32: return convert_row<S, float>;
    case DnnlType::bf16: return convert_row<S, Bf16>;
    case DnnlType::f16: return convert_row<S, F16>;
  }
  return nullptr;
}

RowFn row_fn(DnnlType s, DnnlType d) {
  switch (s) {
    case DnnlType::f32: return row_fn_to<float>(d);
    case DnnlType::bf16: return row_fn_to<Bf16>(d);
    case DnnlType::f16: return row_fn_to<F16>(d);
  }
  return nullptr;
}

char* at(const DnnlArg& a, int64_t off) {
  return static_cast<char*>(a.data) + off * dnnl_type_size(a.dt);
}

}  // namespace

uint16_t f32_to_bf16(float f) {
  uint32_t x = bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

float bf16_to_f32(uint16_t h) { return from_bits(static_cast<uint32_t>(h) << 16); }

uint16_t f32_to_f16(float f) {
  uint32_t x = bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) return sign | 0x7e00;        // NaN
  if (x >= 0x477ff000u) return sign | 0x7c00;       // rounds to or beyond 65520: infinity
  if (x < 0x38800000u) {                            // below 2^-14: f16 subnormal or zero
    // Adding 0.5 aligns f32's ulp (2^-24 at 0.5) with the f16 subnormal step: the FPU rounds.
    uint32_t r = bits(from_bits(x) + 0.5f) - 0x3f000000u;
    return static_cast<uint16_t>(sign | r);
  }
  x += (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + ((x >> 13) & 1u);
  return static_cast<uint16_t>(sign | (x >> 13));
}

float f16_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return from_bits(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    float v = static_cast<float>(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return sign ? -v : v;
  }
  return from_bits(sign | ((e + 112) << 23) | (m << 13));
}

void copy_convert(const DnnlArg& src_in, const DnnlArg& dst_in) {
  const DnnlArg s = explicit_strides(src_in), d = explicit_strides(dst_in);
  const int64_t n = numel(s.dims);
  if (n == 0) return;
  const size_t nd = s.dims.size();
  if (nd == 0) return row_fn(s.dt, d.dt)(s.data, 0, d.data, 0, 1);
  const int64_t inner = s.dims.back(), si = s.strides.back(), di = d.strides.back();
  RowFn fn = row_fn(s.dt, d.dt);
  std::vector<int64_t> idx(nd, 0);
  int64_t so = 0, dof = 0;  // element offsets of the current row
  for (int64_t row = 0; row < n / inner; ++row) {
    fn(at(s, so), si, at(d, dof), di, inner);
    for (size_t k = nd - 1; k-- > 0;) {  // odometer over every dim but the last
      if (++idx[k] < s.dims[k]) {
        so += s.strides[k], dof += d.strides[k];
        break;
      }
      so -= s.strides[k] * (s.dims[k] - 1), dof -= d.strides[k] * (s.dims[k] - 1);
      idx[k] = 0;
    }
  }
}

DnnlType io_type(DnnlType user, DnnlType compute) {
  if (compute == DnnlType::f32 || user == DnnlType::f16) return DnnlType::f32;
  return user;
}

Md staged_md(const DnnlArg& a, DnnlType t, bool dense) {
  if (a.dt == t && (!dense || is_dense(a))) return md_of(a);
  return md_of(a.dims, t);
}

DnnlArg Staging::temp(const std::vector<int64_t>& dims, DnnlType t) {
  const int64_t bytes = numel(dims) * dnnl_type_size(t);
  bufs_.emplace_back(new float[(bytes + 3) / 4 + 1]);
  return DnnlArg{bufs_.back().get(), t, dims, dense_strides(dims)};
}

DnnlArg Staging::in(const DnnlArg& a, DnnlType t, bool dense) {
  if (a.dt == t && (!dense || is_dense(a))) return explicit_strides(a);
  DnnlArg tmp = temp(a.dims, t);
  copy_convert(a, tmp);
  return tmp;
}

DnnlArg Staging::out(const DnnlArg& a, DnnlType t, bool dense, bool load) {
  if (a.dt == t && (!dense || is_dense(a))) return explicit_strides(a);
  DnnlArg tmp = temp(a.dims, t);
  if (load) copy_convert(a, tmp);
  back_.emplace_back(tmp, a);
  return tmp;
}

void Staging::finish() {
  for (auto& [tmp, user] : back_) copy_convert(tmp, user);
  back_.clear();
}

}  // namespace amps::rt::dnnl_cpu::detail
