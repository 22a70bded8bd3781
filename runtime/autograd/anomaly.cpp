#include "runtime/autograd/anomaly.hpp"

#include <atomic>

#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::autograd {
namespace {

std::atomic<bool> g_anomaly{false};

}  // namespace

void set_detect_anomaly(bool on) { g_anomaly.store(on, std::memory_order_relaxed); }
bool anomaly_enabled() { return g_anomaly.load(std::memory_order_relaxed); }

void check_anomaly(const GradNode& n, const Tensors& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    const Tensor& g = out[i];
    if (!g.defined() || !g.is_floating_point() || !any(call_op(OpId::isnan, g)).item<bool>()) continue;
    std::string where = n.forward_site ? "; its forward op ran at " + *n.forward_site : "";
    AMPS_FAIL("Function '{}' returned nan values in its {}th output{}.", n.name(), i, where);
  }
}

}  // namespace amps::rt::autograd
