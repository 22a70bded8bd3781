// cast_lists_markdown(): docs/cast-lists.md, generated from the policy tables (amps --dump-cast-lists).
#include <fmt/format.h>

#include "amp/policy.hpp"

namespace amps::amp {
namespace {

constexpr std::string_view kPolicyDocs[] = {
    "runs in its inputs' dtypes (not listed in PyTorch; native type promotion applies)",
    "eligible tensor arguments are cast to the region's dtype",
    "eligible tensor arguments are cast to float32",
    "inputs are not cast; `dtype=float32` is passed when the first argument is eligible and no dtype was given",
    "`dtype=float32` is appended when the first argument is eligible (norm without a dtype)",
    "eligible tensor arguments are cast to the widest floating dtype among them (float64 ignored)",
    "raises a RuntimeError inside an autocast region",
};
static_assert(std::size(kPolicyDocs) == size_t(policy_count), "policy docs out of sync with Policy");

constexpr rt::DeviceType kDeviceOrder[] = {rt::DeviceType::cuda, rt::DeviceType::cpu, rt::DeviceType::xla,
                                           rt::DeviceType::xpu};

std::string dtype_list(const std::vector<rt::DType>& ds) {
  std::string s;
  for (rt::DType d : ds) s += (s.empty() ? "" : ", ") + std::string(rt::dtype_name(d));
  return s;
}

std::string device_section(rt::DeviceType dev) {
  std::string s = fmt::format("## {}\n\nDefault dtype `{}`; accepted dtypes: {}.\n\n| policy | ops |\n|---|---|\n",
                              rt::device_type_name(dev), rt::dtype_name(default_autocast_dtype(dev)),
                              dtype_list(supported_autocast_dtypes(dev)));
  for (int p = 1; p < policy_count; ++p) {
    std::string ops;
    for (rt::OpId op : ops_with_policy(dev, Policy(p))) ops += (ops.empty() ? "`" : ", `") + std::string(rt::op_id_name(op)) + "`";
    if (!ops.empty()) s += fmt::format("| {} | {} |\n", policy_name(Policy(p)), ops);
  }
  return s + fmt::format("| none | every other op ({} ops) |\n\n", ops_with_policy(dev, Policy::none).size());
}

}  // namespace

std::string cast_lists_markdown() {
  std::string s =
      "<!-- Generated from amp/policy_table.def by `amps --dump-cast-lists`; do not edit by hand. -->\n"
      "# Autocast cast lists\n\n"
      "Inside `autocast DEV<dtype> { ... }` every op whose tensors live on a device of type DEV follows\n"
      "the policy below. Only floating, non-float64 tensors on that device type are cast (\"eligible\");\n"
      "in-place ops and calls with `out=` run but are never autocast. Sources: PyTorch's autocast lists\n"
      "(cuda, cpu), PyTorch/XLA's TPU list (xla) and the Intel XPU AMP list (xpu).\n\n"
      "| policy | effect |\n|---|---|\n";
  for (int p = 0; p < policy_count; ++p) s += fmt::format("| {} | {} |\n", policy_name(Policy(p)), kPolicyDocs[p]);
  s += "\n";
  for (rt::DeviceType dev : kDeviceOrder) s += device_section(dev);
  return s;
}

}  // namespace amps::amp
