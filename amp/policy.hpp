// Autocast cast policies as data: the closed set of policies and one table per device type keyed by OpId.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/device.hpp"
#include "runtime/dtype.hpp"
#include "runtime/op.hpp"

namespace amps::amp {

// What autocast does to an op's floating arguments (autocast_lists.md §1). `none` is the explicit
// "not listed" entry: the op runs in its inputs' dtypes (PyTorch's fallthrough).
enum class Policy : uint8_t {
  none,                // run unchanged
  lower_precision_fp,  // cast eligible tensors to the region's dtype (float16/bfloat16)
  fp32,                // cast eligible tensors to float32
  fp32_set_opt_dtype,  // inputs untouched; dtype=float32 when the first arg is eligible and no dtype given
  fp32_append_dtype,   // norm without dtype: dtype=float32 when the first arg is eligible
  promote,             // cast eligible tensors to the widest floating type among them (float64 ignored)
  banned,              // always a RuntimeError inside a region (binary_cross_entropy on cuda/xpu)
};
inline constexpr int policy_count = 7;

// "lower_precision_fp", "fp32", ... (the names amp.cast_policy returns and docs/cast-lists.md uses).
std::string_view policy_name(Policy p);
std::optional<Policy> policy_from_name(std::string_view name);

// The policy of [op] under autocast for [device] (an array lookup; no strings involved).
Policy policy_for(rt::DeviceType device, rt::OpId op);
// Whether the table has a deliberate row for [op] (the op-table test requires it for every op).
bool has_policy_row(rt::OpId op);
// Every op with [p] on [device], in op-table order.
std::vector<rt::OpId> ops_with_policy(rt::DeviceType device, Policy p);

// The autocast dtype a region gets when `<>` names none: cuda float16, cpu/xla/xpu bfloat16.
rt::DType default_autocast_dtype(rt::DeviceType device);
// The lower-precision dtypes a device type's autocast accepts ({bfloat16} for the TPU-like xla).
std::vector<rt::DType> supported_autocast_dtypes(rt::DeviceType device);

// The RuntimeError message of a banned op (PyTorch's text for binary_cross_entropy).
std::string banned_message(rt::OpId op);

// docs/cast-lists.md: every device type's lists, generated from the tables above.
std::string cast_lists_markdown();

}  // namespace amps::amp
