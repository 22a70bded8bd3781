// torch.cuda's memory functions (PyTorch 1.13): statistics of amps' caching allocator, peak resets, empty_cache.
#include "interp/cuda_memory.hpp"
#include "interp/warnings.hpp"

#include <fmt/format.h>

#include <string_view>

#include "interp/builtins.hpp"
#include "interp/diagnostics.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/backend/backend.hpp"

namespace amps::interp {
namespace {

using Stats = rt::Backend::MemoryStats;

// The device a memory function's optional `device` argument names: none is [dflt] (the cuda value's own device),
// an int is cuda:<int>, else a device or a device string of type cuda.
rt::Device target_device(const ArgReader& r, rt::Device dflt) {
  if (!r.has(0) || r.get(0).is_none()) return dflt;
  if (r.get(0).is_int()) return rt::Device::cuda(int(r.get(0).as_int()));
  const rt::Device d = device_of(r.get(0), r.span());
  if (d.type != rt::DeviceType::cuda)
    Interp::fail("ValueError", fmt::format("Expected a cuda device, but got: {}", rt::device_str(d)), r.span());
  return d;
}

// A statistic as PyTorch reads it: 0 where CUDA is not available (PyTorch's stats of an uninitialised CUDA).
Value stat(const char* name, rt::Device dflt, int64_t Stats::*field) {
  return make<Native>(std::string("cuda.") + name, [name, dflt, field](Interp&, CallArgs& a) {
    ArgReader r(a, name, {"device"});
    const rt::Device d = target_device(r, dflt);
    rt::Backend* b = rt::backend_for(rt::DeviceType::cuda);
    if (!b) return Value(int64_t(0));
    return guarded(a.span, [&] { return Value(b->memory_stats(d).*field); });
  });
}

// reset_peak_memory_stats and its deprecated alias reset_max_memory_allocated (PyTorch 1.13's FutureWarning,
// once per process as Python's warnings): the peaks restart at the current values; raises without CUDA.
Value reset_peaks(const char* name, rt::Device dflt, bool deprecated) {
  return make<Native>(std::string("cuda.") + name, [name, dflt, deprecated](Interp& in, CallArgs& a) {
    ArgReader r(a, name, {"device"});
    const rt::Device d = target_device(r, dflt);
    static bool warned = false;
    if (deprecated && !warned) {
      warned = true;
      emit_warning(in, "FutureWarning", "torch.cuda.reset_max_memory_allocated now calls "
                   "torch.cuda.reset_peak_memory_stats, which resets /all/ peak memory stats.", a.span);
    }
    return guarded(a.span, [&] {
      rt::check_device_available(d);
      rt::backend_for(d.type)->reset_peak_memory_stats(d);
      return Value();
    });
  });
}

}  // namespace

Value cuda_memory_attr(Interp&, Atom name, rt::Device d) {
  const std::string_view n = *name;
  if (n == "memory_allocated") return stat("memory_allocated", d, &Stats::allocated);
  if (n == "max_memory_allocated") return stat("max_memory_allocated", d, &Stats::peak_allocated);
  if (n == "memory_reserved") return stat("memory_reserved", d, &Stats::reserved);
  if (n == "max_memory_reserved") return stat("max_memory_reserved", d, &Stats::peak_reserved);
  if (n == "reset_peak_memory_stats") return reset_peaks("reset_peak_memory_stats", d, false);
  if (n == "reset_max_memory_allocated") return reset_peaks("reset_max_memory_allocated", d, true);
  if (n == "empty_cache")  // frees the allocator's cached blocks; nothing to do where CUDA is not available
    return make<Native>("cuda.empty_cache", [d](Interp&, CallArgs& a) {
      ArgReader r(a, "empty_cache", {});
      if (rt::Backend* b = rt::backend_for(rt::DeviceType::cuda)) guarded(a.span, [&] { b->empty_cache(d); return Value(); });
      return Value();
    });
  return Value::undef();
}

}  // namespace amps::interp
