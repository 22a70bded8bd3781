// OpProfiler: a dispatch layer that times every op a context runs, for `amps --profile` and the REPL's :profile.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/dispatch.hpp"
#include "runtime/dtype.hpp"

namespace amps::rt {

// Installed innermost (layer_order::profiling), so it sees each op with the arguments its kernel gets: after
// autocast's casts, and without the time autocast and autograd spend around the kernel. Ops an op runs
// through dispatch() (composites, a backward's ops) are its children: their time is in its total, not its
// self time. Rows are per op, dtype (of the first tensor argument: the dtype the op runs in), device type
// and pass (forward, or inside a backward); casts (`to`) also per target dtype. Times are host wall time: CUDA kernels run asynchronously, so
// on cuda a row holds the launch, unless the op waits for the GPU. Thread-safe (DataParallel's workers
// share the layer). Constructed with wait_for_device, it waits for the device (cuda.synchronize) before and
// after every op, so a row holds the op's device time too (`amps --profile-gpu`; every op then costs a sync).
class OpProfiler : public DispatchLayer {
 public:
  explicit OpProfiler(bool wait_for_device = false) : wait_for_device_(wait_for_device) {}

  struct Row {
    OpId op;
    DType dtype;
    DeviceType device;
    bool backward;
    DType cast_to;  // `to` only: the dtype it casts to (its rows split by it); else equal to dtype
    int64_t calls = 0;
    int64_t self_ns = 0;
    int64_t total_ns = 0;
  };

  std::string_view name() const override { return "profiler"; }
  Tensors call(OpId op, Args& args, const Next& next) override;

  std::vector<Row> rows() const;  // by self time, largest first
  int64_t op_ns() const;          // time inside outermost ops (no double counting of children)
  void reset();
  // The table `amps --profile` prints: [top] rows by self time, then one line for the rest; [wall_s] is the
  // time the profiled code ran, for the share spent outside ops (the interpreter, Python-level work).
  std::string table(double wall_s, size_t top = 25) const;

 private:
  void record(const Row& key, int64_t self_ns, int64_t total_ns, bool outermost);

  const bool wait_for_device_;
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, Row> rows_;
  int64_t op_ns_ = 0;
};

}  // namespace amps::rt
