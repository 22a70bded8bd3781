// OpId and the op table generated from ops.def: names, schemas, flags and doc lines.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

namespace amps::rt {

// Op flags as used in ops.def (see its header for their meaning).
namespace opflag {
enum : uint32_t {
  diff = 1u << 0,
  inplace = 1u << 1,
  has_inplace = 1u << 2,
  view = 1u << 3,
  random = 1u << 4,
  factory = 1u << 5,
  fn = 1u << 6,
  method = 1u << 7,
  internal = 1u << 8,
};
}  // namespace opflag

enum class OpId : uint16_t {
#define AMPS_OP(id, schema, flags, doc) id,
#include "runtime/ops.def"
#undef AMPS_OP
};

inline constexpr int op_count = 0
#define AMPS_OP(id, schema, flags, doc) +1
#include "runtime/ops.def"
#undef AMPS_OP
    ;

// The script-visible name: the schema name without overload suffix ("max" for max.dim).
std::string_view op_name(OpId op);
// The C++ identifier in ops.def ("max_dim").
std::string_view op_id_name(OpId op);
// The full schema string: "mm(Tensor input, Tensor mat2, *, Tensor? out=None) -> Tensor".
std::string_view op_schema(OpId op);
std::string_view op_doc(OpId op);
namespace opflag {
// The flags column of ops.def (inline: dispatch tests flags on every call).
inline constexpr uint32_t kTable[] = {
#define AMPS_OP(id, schema, flags, doc) uint32_t(flags),
#include "runtime/ops.def"
#undef AMPS_OP
};
static_assert(std::size(kTable) == size_t(op_count), "op flags out of sync with ops.def");
}  // namespace opflag
inline uint32_t op_flags(OpId op) { return opflag::kTable[size_t(op)]; }
inline bool op_has(OpId op, uint32_t flag) { return (op_flags(op) & flag) != 0; }
// Looks an op up by its C++ identifier ("add_", "max_dim").
std::optional<OpId> op_from_id_name(std::string_view id);
// The in-place variant "<id>_" of [op], when the table has one.
std::optional<OpId> op_inplace_variant(OpId op);

}  // namespace amps::rt
