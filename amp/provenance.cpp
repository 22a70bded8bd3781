// Decision descriptions for tracing and amp.why(t), and the bounded provenance log.
#include "amp/provenance.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace amps::amp {
namespace {

std::string dtypes_str(const std::vector<rt::DType>& ds) {
  std::string s;
  for (rt::DType d : ds) s += (s.empty() ? "" : ", ") + std::string(rt::dtype_name(d));
  return s;
}

std::string region(const CastDecision& d) {
  return fmt::format("autocast {}<{}>", rt::device_type_name(d.device), rt::dtype_name(d.region_dtype));
}

// What the policy did, in words.
std::string effect(const CastDecision& d) {
  switch (d.policy) {
    case Policy::none: return "runs in its inputs' dtypes";
    case Policy::lower_precision_fp: return "inputs cast to the region's dtype";
    case Policy::fp32: return "inputs cast to float32";
    case Policy::fp32_set_opt_dtype: return "dtype=float32 unless one was given";
    case Policy::fp32_append_dtype: return "dtype=float32 appended";
    case Policy::promote: return "inputs cast to the widest floating dtype";
    case Policy::banned: return "banned";
  }
  return "";
}

}  // namespace

std::string describe(const CastDecision& d) {
  std::string out = d.output_dtype ? std::string(rt::dtype_name(*d.output_dtype)) : "error";
  std::string rule = d.skipped ? fmt::format("not autocast: {}", d.skipped) : std::string(policy_name(d.policy));
  return fmt::format("{}({}) -> {} [{}] under {}", rt::op_name(d.op), dtypes_str(d.input_dtypes), out, rule,
                     region(d));
}

std::string explain(const CastDecision& d) {
  std::string out = d.output_dtype ? std::string(rt::dtype_name(*d.output_dtype)) : "?";
  return fmt::format("{}: {}({}) ran under {}, policy {} ({})", out, rt::op_name(d.op), dtypes_str(d.input_dtypes),
                     region(d), policy_name(d.policy), effect(d));
}

void ProvenanceLog::record(const rt::Tensor& t, const CastDecision& d) {
  std::lock_guard lock(mu_);
  if (map_.size() >= capacity_) evict();
  map_[t.impl()] = Entry{t.impl_ptr(), d, ++seq_};
}

std::optional<CastDecision> ProvenanceLog::find(const rt::Tensor& t) const {
  std::lock_guard lock(mu_);
  auto it = map_.find(t.impl());
  if (it == map_.end() || it->second.tensor.lock().get() != t.impl()) return std::nullopt;
  return it->second.decision;
}

size_t ProvenanceLog::size() const {
  std::lock_guard lock(mu_);
  return map_.size();
}

// Drops entries of freed tensors; if live ones still fill half the log, drops the older half of them.
void ProvenanceLog::evict() {
  std::erase_if(map_, [](const auto& kv) { return kv.second.tensor.expired(); });
  if (map_.size() < capacity_ / 2) return;
  std::vector<uint64_t> seqs;
  for (const auto& kv : map_) seqs.push_back(kv.second.seq);
  auto mid = seqs.begin() + std::ptrdiff_t(seqs.size() / 2);
  std::nth_element(seqs.begin(), mid, seqs.end());
  uint64_t cut = *mid;
  std::erase_if(map_, [cut](const auto& kv) { return kv.second.seq < cut; });
}

}  // namespace amps::amp
