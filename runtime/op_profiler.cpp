// OpProfiler: per-op self/total host time, grouped by op, dtype, device type and pass.
#include "runtime/op_profiler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "runtime/autograd/node.hpp"
#include "runtime/backend/backend.hpp"

namespace amps::rt {
namespace {

// The time of the op frames a thread has open: each frame adds its children's time here.
thread_local int64_t* t_children_ns = nullptr;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The first tensor argument (or first element of a tensor list), else undefined.
const Tensor* first_tensor(const Args& args) {
  for (const IValue& v : args) {
    if (v.is_tensor() && v.tensor().defined()) return &v.tensor();
    if (v.kind() == IValue::Kind::tensor_list && !v.tensors().empty()) return &v.tensors()[0];
  }
  return nullptr;
}

OpProfiler::Row key_of(OpId op, const Args& args, const Tensors& out) {
  const Tensor* t = first_tensor(args);
  const bool made = !out.empty() && out[0].defined();
  if (!t && made) t = &out[0];  // factories: the dtype and device they make
  OpProfiler::Row r{op, DType::float32, DeviceType::cpu, autograd::in_backward(), DType::float32};
  if (t) r.dtype = r.cast_to = t->dtype(), r.device = t->device().type;
  if (op == OpId::to && made) r.cast_to = out[0].dtype();
  return r;
}

uint64_t hash_of(const OpProfiler::Row& r) {
  return uint64_t(r.op) << 32 | uint64_t(r.cast_to) << 24 | uint64_t(r.dtype) << 16 | uint64_t(r.device) << 8 |
         uint64_t(r.backward);
}

// "mm", "to(bfloat16)" for a cast, " (backward)" after either inside a backward pass.
std::string label(const OpProfiler::Row& r) {
  const std::string cast = r.op == OpId::to ? fmt::format("({})", dtype_name(r.cast_to)) : "";
  return fmt::format("{}{}{}", op_name(r.op), cast, r.backward ? " (backward)" : "");
}

// Waits for the work queued on every device the op touches (its first tensor argument's and its result's):
// only cuda queues work.
void wait_for(const Tensor* t) {
  if (t && t->defined() && t->device().type == DeviceType::cuda) backend_for(DeviceType::cuda)->synchronize(t->device());
}

}  // namespace

Tensors OpProfiler::call(OpId op, Args& args, const Next& next) {
  int64_t children = 0;
  int64_t* parent = t_children_ns;
  t_children_ns = &children;
  struct Pop { int64_t* parent; ~Pop() { t_children_ns = parent; } } pop{parent};
  if (wait_for_device_) wait_for(first_tensor(args));
  const int64_t t0 = now_ns();
  Tensors out = next(op, args);
  if (wait_for_device_) wait_for(first_tensor(args)), wait_for(out.empty() ? nullptr : &out[0]);
  const int64_t total = now_ns() - t0;
  if (parent) *parent += total;
  record(key_of(op, args, out), total - children, total, parent == nullptr);
  return out;
}

void OpProfiler::record(const Row& key, int64_t self_ns, int64_t total_ns, bool outermost) {
  std::lock_guard lock(mu_);
  Row& r = rows_.try_emplace(hash_of(key), key).first->second;
  ++r.calls;
  r.self_ns += self_ns;
  r.total_ns += total_ns;
  if (outermost) op_ns_ += total_ns;
}

std::vector<OpProfiler::Row> OpProfiler::rows() const {
  std::lock_guard lock(mu_);
  std::vector<Row> v;
  v.reserve(rows_.size());
  for (const auto& [k, r] : rows_) v.push_back(r);
  std::sort(v.begin(), v.end(), [](const Row& a, const Row& b) { return a.self_ns > b.self_ns; });
  return v;
}

int64_t OpProfiler::op_ns() const {
  std::lock_guard lock(mu_);
  return op_ns_;
}

void OpProfiler::reset() {
  std::lock_guard lock(mu_);
  rows_.clear();
  op_ns_ = 0;
}

std::string OpProfiler::table(double wall_s, size_t top) const {
  const std::vector<Row> rs = rows();
  const double ops_ms = double(op_ns()) / 1e6, wall_ms = wall_s * 1e3;
  int64_t calls = 0;
  for (const Row& r : rs) calls += r.calls;
  std::string s = fmt::format("profile: {:.1f} ms wall, {:.1f} ms ({:.0f}%) in {} op calls (the rest: the "
                              "interpreter, autocast and autograd)\n", wall_ms, ops_ms, wall_ms > 0 ? 100.0 * ops_ms / wall_ms : 0.0, calls);
  size_t width = 2;
  for (size_t i = 0; i < rs.size() && i < top; ++i) width = std::max(width, label(rs[i]).size());
  s += fmt::format("  {:<{}} {:<9} {:<5} {:>8} {:>10} {:>6} {:>10} {:>9}\n", "op", width, "dtype", "dev", "calls",
                   "self ms", "self%", "total ms", "us/call");
  double rest_ms = 0;
  size_t rest = 0;
  for (size_t i = 0; i < rs.size(); ++i) {
    const Row& r = rs[i];
    const double self_ms = double(r.self_ns) / 1e6;
    if (i >= top) { rest_ms += self_ms, ++rest; continue; }
    s += fmt::format("  {:<{}} {:<9} {:<5} {:>8} {:>10.2f} {:>5.1f}% {:>10.2f} {:>9.1f}\n", label(r), width,
                     dtype_name(r.dtype), device_type_name(r.device), r.calls, self_ms,
                     wall_ms > 0 ? 100.0 * self_ms / wall_ms : 0.0, double(r.total_ns) / 1e6,
                     double(r.total_ns) / 1e3 / double(r.calls));
  }
  if (rest) s += fmt::format("  ({} more rows: {:.2f} ms self)\n", rest, rest_ms);
  for (const Row& r : rs)
    if (r.device == DeviceType::cuda) {
      s += "  cuda rows are host time: kernels run asynchronously, so a row holds the launch unless the op waits\n";
      break;
    }
  return s;
}

}  // namespace amps::rt
