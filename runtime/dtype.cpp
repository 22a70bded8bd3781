// DType properties generated from dtype.def, name parsing, and the literal promotion table.
#include "runtime/dtype.hpp"

#include <array>

#include "runtime/error.hpp"

namespace amps::rt {
namespace {

struct DTypeInfo {
  size_t size;
  bool floating;
  std::string_view name, alias1, alias2;
};

constexpr DTypeInfo kInfo[] = {
#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) {size, floating, name, a1, a2},
#include "runtime/dtype.def"
#undef AMPS_DTYPE
};
static_assert(std::size(kInfo) == size_t(dtype_count), "dtype info table out of sync with dtype.def");

#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) \
  static_assert(sizeof(ctype) == size, "dtype.def size of " #id " is wrong");
#include "runtime/dtype.def"
#undef AMPS_DTYPE

// PyTorch's promotion for same-priority operands. Rows and columns follow dtype.def's order; keep in sync.
constexpr DType f8 = DType::float64, f4 = DType::float32, h2 = DType::float16, b2 = DType::bfloat16;
constexpr DType i8 = DType::int64, i4 = DType::int32, bo = DType::bool_;
constexpr DType u1 = DType::uint8, c1 = DType::int8, s2 = DType::int16;
constexpr DType kPromote[][10] = {
    /*            f64 f32 f16 bf16 i64 i32 bool u8 i8 i16 */
    /* float64 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* float32 */ {f8, f4, f4, f4, f4, f4, f4, f4, f4, f4},
    /* float16 */ {f8, f4, h2, f4, h2, h2, h2, h2, h2, h2},
    /* bfloat16*/ {f8, f4, f4, b2, b2, b2, b2, b2, b2, b2},
    /* int64   */ {f8, f4, h2, b2, i8, i8, i8, i8, i8, i8},
    /* int32   */ {f8, f4, h2, b2, i8, i4, i4, i4, i4, i4},
    /* bool    */ {f8, f4, h2, b2, i8, i4, bo, u1, c1, s2},
    /* uint8   */ {f8, f4, h2, b2, i8, i4, u1, u1, s2, s2},  // uint8 with int8: int16 (holds both ranges)
    /* int8    */ {f8, f4, h2, b2, i8, i4, c1, s2, c1, s2},
    /* int16   */ {f8, f4, h2, b2, i8, i4, s2, s2, s2, s2},
};
static_assert(std::size(kPromote) == size_t(dtype_count), "promotion table rows out of sync with dtype.def");
static_assert(std::size(kPromote[0]) == size_t(dtype_count), "promotion table columns out of sync");

constexpr bool promote_table_symmetric() {
  for (int a = 0; a < dtype_count; ++a)
    for (int b = 0; b < dtype_count; ++b)
      if (kPromote[a][b] != kPromote[b][a]) return false;
  return true;
}
static_assert(promote_table_symmetric(), "promotion table must be symmetric");

}  // namespace

static_assert(dtype_size(DType::bfloat16) == 2 && is_floating(DType::bfloat16) && !is_floating(DType::int32),
              "inline dtype tables out of sync with dtype.def");
std::string_view dtype_name(DType t) { return kInfo[int(t)].name; }

bool is_integral(DType t, bool include_bool) {
  if (t == DType::bool_) return include_bool;
  return !is_floating(t);
}

std::optional<DType> dtype_from_name(std::string_view s) {
  for (int i = 0; i < dtype_count; ++i) {
    const DTypeInfo& d = kInfo[i];
    if (s == d.name || (!d.alias1.empty() && s == d.alias1) || (!d.alias2.empty() && s == d.alias2))
      return DType(i);
  }
  return std::nullopt;
}

DType promote(DType a, DType b) { return kPromote[int(a)][int(b)]; }

DType compute_dtype(DType t) {
  return (t == DType::float16 || t == DType::bfloat16) ? DType::float32 : t;
}

}  // namespace amps::rt
