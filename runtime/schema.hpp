// Parsed op schemas: argument names, types, defaults and positions, from the strings in ops.def.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/ivalue.hpp"
#include "runtime/op.hpp"

namespace amps::rt {

struct SchemaArg {
  std::string name;
  std::string type;        // base type: Tensor, int, float, bool, Scalar, ScalarType, Device, str
  bool optional = false;   // `T?`: None is accepted
  bool list = false;       // `T[]` / `T[N]`
  int list_size = 0;       // N of `int[N]` (0 when unsized); a single int is broadcast to N values
  bool kwarg_only = false; // after `*`
  bool mutated = false;    // `Tensor(a!)`
  bool has_default = false;
  IValue default_value;
};

struct SchemaReturn {
  std::string type;  // "Tensor", "Tensor[]", "Tensor(a!)"
  std::string name;  // "values" in `(Tensor values, Tensor indices)`; may be empty
};

struct Schema {
  std::string name;      // "max"
  std::string overload;  // "dim" for max.dim, else empty
  std::vector<SchemaArg> args;
  std::vector<SchemaReturn> returns;
  std::vector<std::string> return_names;  // the names of a tuple of returns when every one is named, else empty
  int out_index = -1;        // index of the `out` argument, -1 when none
  size_t required_count = 0; // leading arguments without default

  // Position of the argument called [name], -1 when absent.
  int find_arg(std::string_view name) const;
};

// Parses one schema string; throws RuntimeError naming the position when it is malformed.
Schema parse_schema(std::string_view text);
// The parsed schema of [op] (parsed once for the whole table on first use; immutable afterwards).
const Schema& op_parsed_schema(OpId op);

}  // namespace amps::rt
