// Autocast decisions and provenance: what the trace hook reports and what amp.why(t) explains.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "amp/policy.hpp"
#include "runtime/tensor.hpp"

namespace amps::amp {

// One decision of the autocast layer for one op call inside an enabled region.
struct CastDecision {
  rt::OpId op;
  rt::DeviceType device;
  Policy policy;                          // the table's entry (none for skipped calls)
  rt::DType region_dtype;                 // the region's lower-precision dtype
  std::vector<rt::DType> input_dtypes;    // tensor arguments before casting (list elements flattened)
  std::optional<rt::DType> output_dtype;  // first output's dtype; nullopt when the op raised (banned)
  const char* skipped = nullptr;          // "in-place" / "out=" when the call ran without autocast
  uint64_t site = 0;                      // the host's source-position token (0: unknown)
};

// "mm(float32, float32) -> bfloat16 [lower_precision_fp] under autocast cpu<bfloat16>".
std::string describe(const CastDecision& d);
// amp.why(t): the rule that gave a tensor its dtype ("bfloat16: mm ran under autocast cpu<bfloat16>,
// policy lower_precision_fp (inputs cast to the region's dtype)"), without the source position.
std::string explain(const CastDecision& d);

// Which decision produced each tensor, keyed by TensorImpl with weak references (a freed tensor's
// entry never matches a new one). Bounded: past [capacity] entries, expired ones are dropped, and if
// that is not enough the oldest half goes. Thread-safe (shared by forked layers).
class ProvenanceLog {
 public:
  explicit ProvenanceLog(size_t capacity = 1 << 14) : capacity_(capacity) {}
  void record(const rt::Tensor& t, const CastDecision& d);
  std::optional<CastDecision> find(const rt::Tensor& t) const;
  size_t size() const;

 private:
  struct Entry {
    std::weak_ptr<rt::TensorImpl> tensor;
    CastDecision decision;
    uint64_t seq;
  };
  void evict();
  mutable std::mutex mu_;
  std::unordered_map<const rt::TensorImpl*, Entry> map_;
  size_t capacity_;
  uint64_t seq_ = 0;
};

}  // namespace amps::amp
