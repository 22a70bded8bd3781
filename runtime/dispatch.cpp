// The dispatcher: argument completion, the layer chain, device resolution, backend call and out=.
#include "runtime/dispatch.hpp"

#include <atomic>
#include <mutex>

#include "runtime/backend/backend.hpp"
#include "runtime/error.hpp"
#include "runtime/schema.hpp"
#include "runtime/shape.hpp"

namespace amps::rt {
namespace {

std::atomic<Backend*> g_cuda_backend{nullptr};  // set once at startup by a CUDA backend, then read-only

// A device that conflicts with [chosen]; 0-dim cpu tensors may join any device (PyTorch's rule).
void merge_device(const Tensor& t, std::optional<Device>& chosen, bool& chosen_is_cpu_scalar) {
  if (!t.defined()) return;
  bool cpu_scalar = t.dim() == 0 && t.device() == Device::cpu();
  if (!chosen || (chosen_is_cpu_scalar && !cpu_scalar)) {
    chosen = t.device();
    chosen_is_cpu_scalar = cpu_scalar;
    return;
  }
  if (cpu_scalar || t.device() == *chosen) return;
  AMPS_FAIL("Expected all tensors to be on the same device, but found at least two devices, {} and {}!",
            device_str(*chosen), device_str(t.device()));
}

// The *_like ops read only their input's sizes: a device= argument picks the backend outright.
bool is_like_op(OpId op) {
  switch (op) {
    case OpId::zeros_like: case OpId::ones_like: case OpId::full_like: case OpId::empty_like:
    case OpId::rand_like: case OpId::randn_like: return true;
    default: return false;
  }
}

// The dtype whose kernel runs: the first tensor's, except that a *_like op's dtype= names its result's dtype
// (rand_like(int_tensor, dtype=float32) draws floats, as PyTorch's).
DType first_dtype(OpId op, const Args& args) {
  int d = op_parsed_schema(op).find_arg("dtype");
  const bool has_dtype = d >= 0 && size_t(d) < args.size() && args[size_t(d)].kind() == IValue::Kind::dtype;
  if (has_dtype && is_like_op(op)) return args[size_t(d)].dtype();
  for (const IValue& v : args) {
    if (v.is_tensor() && v.tensor().defined()) return v.tensor().dtype();
    if (v.kind() == IValue::Kind::tensor_list && !v.tensors().empty()) return v.tensors()[0].dtype();
  }
  return has_dtype ? args[size_t(d)].dtype() : current_context().default_dtype();
}

// PyTorch's can_cast: no float->integral, no non-bool->bool.
bool can_cast(DType from, DType to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != DType::bool_ && to == DType::bool_) return false;
  return true;
}

// Writes [result] into the user's [out] tensor (resizing it when the shape differs) and returns out.
Tensor write_out(OpId op, Backend& b, const Tensor& out, const Tensor& result, const KernelContext& kc) {
  AMPS_CHECK(can_cast(result.dtype(), out.dtype()), "{}: result type {} can't be cast to the desired output "
             "type {}", op_name(op), dtype_name(result.dtype()), dtype_name(out.dtype()));
  AMPS_CHECK(out.device() == result.device(), "{}: Expected out tensor to have device {}, but got {} instead",
             op_name(op), device_str(result.device()), device_str(out.device()));
  if (out.sizes() != result.sizes()) {
    Tensor fresh = Tensor::empty(result.sizes(), out.dtype(), out.device());
    out.impl()->set_storage(fresh.storage());
    out.impl()->set_geometry(result.sizes(), fresh.strides(), 0);
  }
  Args copy_args{out, result, false};
  b.run(OpId::copy_, copy_args, kc);
  out.bump_version();
  return out;
}

// An in-place op may not write a tensor in which several elements share memory (an expanded tensor: a dim of
// size > 1 with stride 0): the result would depend on the order of the writes. PyTorch's message.
void check_no_internal_overlap(const IValue& v) {
  if (!v.is_tensor() || !v.tensor().defined()) return;
  const Tensor& t = v.tensor();
  for (int64_t d = 0; d < t.dim(); ++d)
    AMPS_CHECK(!(t.stride(d) == 0 && t.size(d) > 1), "unsupported operation: more than one element of the written-to "
               "tensor refers to a single memory location. Please clone() the tensor before performing the operation.");
}

// In-place ops bump the version counter of what they mutate (argument 0) before running, so an error
// half-way still invalidates saved copies conservatively.
void bump_versions(const IValue& v) {
  if (v.is_tensor() && v.tensor().defined()) v.tensor().bump_version();
  if (v.kind() == IValue::Kind::tensor_list)
    for (const Tensor& t : v.tensors()) t.bump_version();
}

}  // namespace

#ifdef AMPS_HAVE_CUDA
namespace cuda {
void init_backend();  // runtime/backend/cuda: registers the backend when a GPU is present
}
#endif

Backend* backend_for(DeviceType type) {
  if (type != DeviceType::cuda) return &cpu_backend();
#ifdef AMPS_HAVE_CUDA
  static std::once_flag probed;  // the first cuda query probes for a GPU; CPU-only runs never pay for it
  std::call_once(probed, cuda::init_backend);
#endif
  return g_cuda_backend.load(std::memory_order_acquire);
}

void register_cuda_backend(Backend* backend) { g_cuda_backend.store(backend, std::memory_order_release); }

namespace {
std::string g_cuda_unavailable_reason;  // written once by the probe (under backend_for's call_once), then read
}

void set_cuda_unavailable_reason(std::string reason) { g_cuda_unavailable_reason = std::move(reason); }
std::string cuda_unavailable_reason() { return g_cuda_unavailable_reason; }

void complete_args(OpId op, Args& args) {
  const Schema& s = op_parsed_schema(op);
  if (args.size() == s.args.size()) return;
  AMPS_CHECK_TYPE(args.size() < s.args.size(), "{}() takes {} arguments but {} were given", op_name(op),
                  s.args.size(), args.size());
  args.reserve(s.args.size());
  for (size_t i = args.size(); i < s.args.size(); ++i) {
    AMPS_CHECK_TYPE(s.args[i].has_default, "{}() missing required argument '{}' (pos {})", op_name(op),
                    s.args[i].name, i + 1);
    args.push_back(s.args[i].default_value);
  }
}

Device resolve_device(OpId op, const Args& args) {
  if (op == OpId::copy_ && args[0].is_tensor() && args[1].is_tensor()) {
    // Cross-device copies are allowed; the non-host side's backend moves the bytes.
    Device dst = args[0].tensor().device(), src = args[1].tensor().device();
    return dst.is_host() ? src : dst;
  }
  std::optional<Device> chosen;
  bool cpu_scalar = false;
  for (const IValue& v : args) {
    if (v.is_tensor()) merge_device(v.tensor(), chosen, cpu_scalar);
    if (v.kind() == IValue::Kind::tensor_list)
      for (const Tensor& t : v.tensors()) merge_device(t, chosen, cpu_scalar);
  }
  const bool like = is_like_op(op);
  bool moves = op == OpId::to || like || op_has(op, opflag::factory) || !chosen;
  int d = moves ? op_parsed_schema(op).find_arg("device") : -1;
  if (d >= 0 && args[size_t(d)].kind() == IValue::Kind::device) {
    Device target = args[size_t(d)].device();
    if (!chosen || like || target.type == DeviceType::cuda) return target;  // cuda backend serves both directions
  }
  return chosen.value_or(current_context().default_device());
}

Tensors Next::operator()(OpId op, Args& args) const {
  std::vector<Context::LayerEntry>& layers = ctx_.layers();
  for (size_t i = index_; i < layers.size(); ++i) {
    if (!layers[i].enabled || layers[i].layer->passthrough()) continue;
    DispatchLayer* layer = layers[i].layer.get();  // survives removal during the call (remove_layer)
    return layer->call(op, args, Next(ctx_, i + 1));
  }
  return dispatch_backend(op, args);
}

Tensors dispatch(OpId op, Args& args) {
  complete_args(op, args);
  Context& ctx = current_context();
  if (ctx.layers().empty()) return dispatch_backend(op, args);
  return Next(ctx, 0)(op, args);
}

Tensors dispatch(OpId op, Args&& args) { return dispatch(op, args); }

Tensors dispatch_backend(OpId op, Args& args) {
  Device device = resolve_device(op, args);
  check_device_available(device);
  Backend& b = *backend_for(device.type);
  DType dt = first_dtype(op, args);
  AMPS_CHECK(b.supports(op, dt), "\"{}\" not implemented for '{}' on {}", op_name(op), dtype_name(dt),
             device_type_name(device.type));
  KernelContext kc{current_context(), device};
  if (op_has(op, opflag::inplace)) {
    check_no_internal_overlap(args[0]);
    bump_versions(args[0]);
  }
  const int out_index = op_parsed_schema(op).out_index;
  if (out_index < 0 || !args[size_t(out_index)].is_tensor()) return b.run(op, args, kc);
  Tensor out = args[size_t(out_index)].tensor();
  args[size_t(out_index)] = IValue();
  Tensors r = b.run(op, args, kc);
  r[0] = write_out(op, b, out, r[0], kc);
  return r;
}

}  // namespace amps::rt
