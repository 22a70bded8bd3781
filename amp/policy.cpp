// The per-device policy tables (generated from policy_table.def), policy names, default dtypes and docs.
#include "amp/policy.hpp"

#include <fmt/format.h>

#include <array>

namespace amps::amp {
namespace {

using rt::DeviceType;
using rt::OpId;

// Short names the .def rows use.
namespace cell {
constexpr Policy none = Policy::none, lower = Policy::lower_precision_fp, fp32 = Policy::fp32,
                 set_dtype = Policy::fp32_set_opt_dtype, append_dtype = Policy::fp32_append_dtype,
                 promote = Policy::promote, banned = Policy::banned;
}  // namespace cell

struct Row {
  OpId op;
  std::array<Policy, rt::device_type_count> by_device;  // indexed by DeviceType: cpu, cuda, xla, xpu
};

// Rows are written (cuda, cpu, xla, xpu) for reading against PyTorch's lists; stored by DeviceType.
constexpr Row row(OpId op, Policy cuda, Policy cpu, Policy xla, Policy xpu) {
  Row r{op, {}};
  r.by_device[size_t(DeviceType::cuda)] = cuda;
  r.by_device[size_t(DeviceType::cpu)] = cpu;
  r.by_device[size_t(DeviceType::xla)] = xla;
  r.by_device[size_t(DeviceType::xpu)] = xpu;
  return r;
}

constexpr Row kRows[] = {
#define AMP_POLICY(op, cuda, cpu, xla, xpu) row(OpId::op, cell::cuda, cell::cpu, cell::xla, cell::xpu),
#include "amp/policy_table.def"
#undef AMP_POLICY
};

constexpr bool rows_unique() {
  for (size_t i = 0; i < std::size(kRows); ++i)
    for (size_t j = i + 1; j < std::size(kRows); ++j)
      if (kRows[i].op == kRows[j].op) return false;
  return true;
}
static_assert(rows_unique(), "amp/policy_table.def: an op has two rows");
static_assert(std::size(kRows) <= size_t(rt::op_count), "amp/policy_table.def: more rows than ops");

// The dense per-device tables, indexed by OpId; an op without a row reads as `none` (and fails the test).
struct Tables {
  std::array<std::array<Policy, rt::op_count>, rt::device_type_count> policy{};
  std::array<bool, rt::op_count> has_row{};
};

constexpr Tables build_tables() {
  Tables t{};
  for (const Row& r : kRows) {
    t.has_row[size_t(r.op)] = true;
    for (size_t d = 0; d < size_t(rt::device_type_count); ++d) t.policy[d][size_t(r.op)] = r.by_device[d];
  }
  return t;
}
constexpr Tables kTables = build_tables();

constexpr std::string_view kPolicyNames[] = {"none", "lower_precision_fp", "fp32", "fp32_set_opt_dtype",
                                             "fp32_append_dtype", "promote", "banned"};
static_assert(std::size(kPolicyNames) == size_t(policy_count), "policy names out of sync with Policy");

}  // namespace

std::string_view policy_name(Policy p) { return kPolicyNames[size_t(p)]; }

std::optional<Policy> policy_from_name(std::string_view name) {
  for (int i = 0; i < policy_count; ++i)
    if (kPolicyNames[i] == name) return Policy(i);
  return std::nullopt;
}

Policy policy_for(DeviceType device, OpId op) { return kTables.policy[size_t(device)][size_t(op)]; }

bool has_policy_row(OpId op) { return kTables.has_row[size_t(op)]; }

std::vector<OpId> ops_with_policy(DeviceType device, Policy p) {
  std::vector<OpId> out;
  for (int i = 0; i < rt::op_count; ++i)
    if (policy_for(device, OpId(i)) == p) out.push_back(OpId(i));
  return out;
}

rt::DType default_autocast_dtype(DeviceType device) {
  return device == DeviceType::cuda ? rt::DType::float16 : rt::DType::bfloat16;
}

std::vector<rt::DType> supported_autocast_dtypes(DeviceType device) {
  if (device == DeviceType::xla) return {rt::DType::bfloat16};  // torch_xla on TPU: bfloat16 only
  return {rt::DType::bfloat16, rt::DType::float16};
}

std::string banned_message(OpId op) {
  return fmt::format(
      "torch.nn.functional.{} and torch.nn.BCELoss are unsafe to autocast.\n"
      "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
      "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
      "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
      "safe to autocast.",
      rt::op_name(op));
}

}  // namespace amps::amp
