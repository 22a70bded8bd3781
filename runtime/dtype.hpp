// DType: the element types (generated from dtype.def), their properties, promotion and the dispatch macros.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "runtime/error.hpp"
#include "runtime/half.hpp"

namespace amps::rt {

enum class DType : uint8_t {
#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) id,
#include "runtime/dtype.def"
#undef AMPS_DTYPE
};

inline constexpr int dtype_count = 0
#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) +1
#include "runtime/dtype.def"
#undef AMPS_DTYPE
    ;

// Bytes per element (inline: read on every tensor allocation and kernel call).
inline constexpr size_t dtype_size(DType t) {
  constexpr size_t sizes[] = {
#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) size,
#include "runtime/dtype.def"
#undef AMPS_DTYPE
  };
  return sizes[int(t)];
}
// float64/float32/float16/bfloat16.
inline constexpr bool is_floating(DType t) {
  constexpr bool floating[] = {
#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) floating,
#include "runtime/dtype.def"
#undef AMPS_DTYPE
  };
  return floating[int(t)];
}
// int64/int32/int16/int8/uint8, and bool when [include_bool].
bool is_integral(DType t, bool include_bool = false);
// The long name used for printing: "bfloat16".
std::string_view dtype_name(DType t);
// Parses a long name or alias ("f32", "float", "half", "bf16", ...); nullopt when unknown.
std::optional<DType> dtype_from_name(std::string_view s);

// PyTorch's type promotion for two tensors of the same category priority (a literal table in dtype.cpp).
DType promote(DType a, DType b);

// The float type used to compute on [t]: float for float16/bfloat16, else [t] itself.
DType compute_dtype(DType t);

// dtype_of<T>: the DType whose storage type is T.
template <typename T> struct DTypeOf;
#define AMPS_DTYPE(id, ctype, size, floating, name, a1, a2) \
  template <> struct DTypeOf<ctype> { static constexpr DType value = DType::id; };
#include "runtime/dtype.def"
#undef AMPS_DTYPE
template <typename T> inline constexpr DType dtype_of = DTypeOf<T>::value;

// acc_t<T>: the accumulation type for reductions over T (float for half types, like PyTorch on CPU).
template <typename T> struct AccType { using type = T; };
template <> struct AccType<Half> { using type = float; };
template <> struct AccType<BFloat16> { using type = float; };
template <> struct AccType<float> { using type = float; };
template <> struct AccType<bool> { using type = int64_t; };
template <> struct AccType<int32_t> { using type = int64_t; };
template <> struct AccType<int16_t> { using type = int64_t; };
template <> struct AccType<int8_t> { using type = int64_t; };
template <> struct AccType<uint8_t> { using type = int64_t; };
template <typename T> using acc_t = typename AccType<T>::type;

// compute_t<T>: the type elementwise math is done in (float for half types).
template <typename T> struct ComputeType { using type = T; };
template <> struct ComputeType<Half> { using type = float; };
template <> struct ComputeType<BFloat16> { using type = float; };
template <typename T> using compute_t = typename ComputeType<T>::type;

}  // namespace amps::rt

// AMPS_DISPATCH_ALL(dtype, T, body): runs [body] with T bound to the storage type of [dtype].
#define AMPS_DISPATCH_ALL(DT, T, ...)                                                           \
  [&] {                                                                                         \
    switch (DT) {                                                                               \
      AMPS_DISPATCH_CASE_(float64, double, T, __VA_ARGS__)                                      \
      AMPS_DISPATCH_CASE_(float32, float, T, __VA_ARGS__)                                       \
      AMPS_DISPATCH_CASE_(float16, ::amps::rt::Half, T, __VA_ARGS__)                            \
      AMPS_DISPATCH_CASE_(bfloat16, ::amps::rt::BFloat16, T, __VA_ARGS__)                       \
      AMPS_DISPATCH_CASE_(int64, int64_t, T, __VA_ARGS__)                                       \
      AMPS_DISPATCH_CASE_(int32, int32_t, T, __VA_ARGS__)                                       \
      AMPS_DISPATCH_CASE_(bool_, bool, T, __VA_ARGS__)                                          \
      AMPS_DISPATCH_CASE_(uint8, uint8_t, T, __VA_ARGS__)                                       \
      AMPS_DISPATCH_CASE_(int8, int8_t, T, __VA_ARGS__)                                         \
      AMPS_DISPATCH_CASE_(int16, int16_t, T, __VA_ARGS__)                                       \
    }                                                                                           \
    AMPS_ASSERT(false, "unhandled dtype {}", int(DT));                                          \
  }()

// AMPS_DISPATCH_FLOAT(dtype, T, body): floating dtypes only; [what] names the op in the TypeError.
#define AMPS_DISPATCH_FLOAT(DT, what, T, ...)                                                   \
  [&] {                                                                                         \
    switch (DT) {                                                                               \
      AMPS_DISPATCH_CASE_(float64, double, T, __VA_ARGS__)                                      \
      AMPS_DISPATCH_CASE_(float32, float, T, __VA_ARGS__)                                       \
      AMPS_DISPATCH_CASE_(float16, ::amps::rt::Half, T, __VA_ARGS__)                            \
      AMPS_DISPATCH_CASE_(bfloat16, ::amps::rt::BFloat16, T, __VA_ARGS__)                       \
      default: break;                                                                           \
    }                                                                                           \
    throw ::amps::rt::Error("RuntimeError", ::fmt::format("\"{}\" not implemented for '{}'",   \
                                                          what, ::amps::rt::dtype_name(DT)));   \
  }()

#define AMPS_DISPATCH_CASE_(ID, CTYPE, T, ...) \
  case ::amps::rt::DType::ID: {                \
    using T = CTYPE;                           \
    return __VA_ARGS__();                      \
  }
