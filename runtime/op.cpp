// The op table's parallel arrays, generated from ops.def and guarded by static_asserts.
#include "runtime/op.hpp"

#include <array>
#include <string>

namespace amps::rt {
namespace {

using namespace opflag;

constexpr std::string_view kIdNames[] = {
#define AMPS_OP(id, schema, flags, doc) #id,
#include "runtime/ops.def"
#undef AMPS_OP
};
constexpr std::string_view kSchemas[] = {
#define AMPS_OP(id, schema, flags, doc) schema,
#include "runtime/ops.def"
#undef AMPS_OP
};
constexpr std::string_view kDocs[] = {
#define AMPS_OP(id, schema, flags, doc) doc,
#include "runtime/ops.def"
#undef AMPS_OP
};
static_assert(std::size(kIdNames) == size_t(op_count), "op names out of sync with ops.def");
static_assert(std::size(kSchemas) == size_t(op_count), "op schemas out of sync with ops.def");
static_assert(std::size(kDocs) == size_t(op_count), "op docs out of sync with ops.def");

constexpr std::string_view schema_base_name(std::string_view schema) {
  return schema.substr(0, std::min(schema.find('('), schema.find('.')));
}

// Script names, cut from the schemas at compile time (op_name runs on every dispatch's error paths).
constexpr std::string_view kNames[] = {
#define AMPS_OP(id, schema, flags, doc) schema_base_name(schema),
#include "runtime/ops.def"
#undef AMPS_OP
};
static_assert(std::size(kNames) == size_t(op_count), "op script names out of sync with ops.def");

}  // namespace

std::string_view op_name(OpId op) { return kNames[size_t(op)]; }
std::string_view op_id_name(OpId op) { return kIdNames[size_t(op)]; }
std::string_view op_schema(OpId op) { return kSchemas[size_t(op)]; }
std::string_view op_doc(OpId op) { return kDocs[size_t(op)]; }

std::optional<OpId> op_from_id_name(std::string_view id) {
  for (int i = 0; i < op_count; ++i)
    if (kIdNames[i] == id) return OpId(i);
  return std::nullopt;
}

std::optional<OpId> op_inplace_variant(OpId op) {
  return op_from_id_name(std::string(op_id_name(op)) + "_");
}

}  // namespace amps::rt
