// Graph plumbing: node numbering, saved tensors with version checks, AccumulateGrad, history links.
#include "runtime/autograd/node.hpp"

#include <atomic>

#include "runtime/context.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/views.hpp"

namespace amps::rt::autograd {
namespace {

// Node numbers come from one global counter (so nodes of nested graphs still order by creation), taken
// in blocks per thread: a recorded op then pays no locked instruction. Within a thread the numbers
// grow; across threads they order only roughly, which the engine tolerates (seq only picks among
// ready nodes, as PyTorch's per-thread sequence numbers do).
std::atomic<uint64_t> g_next_seq{0};
constexpr uint64_t kSeqBlock = 4096;

uint64_t next_seq() {
  thread_local uint64_t next = 0, end = 0;
  if (next == end) {
    next = g_next_seq.fetch_add(kSeqBlock, std::memory_order_relaxed);
    end = next + kSeqBlock;
  }
  return next++;
}

constexpr const char* kBackwardTwice =
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph "
    "a second time or if you need to access saved tensors after calling backward.";

const char* torch_type(DType t) {
  switch (t) {
    case DType::float64: return "DoubleTensor";
    case DType::float32: return "FloatTensor";
    case DType::float16: return "HalfTensor";
    case DType::bfloat16: return "BFloat16Tensor";
    case DType::int64: return "LongTensor";
    case DType::int32: return "IntTensor";
    case DType::bool_: return "BoolTensor";
    case DType::uint8: return "ByteTensor";
    case DType::int8: return "CharTensor";
    case DType::int16: return "ShortTensor";
  }
  return "Tensor";
}

// Keeps [g] as a .grad only when nothing else can see or write its memory; else a private copy.
Tensor owned(Tensor g) {
  bool unique = g.impl_ptr().use_count() == 1 && g.storage().use_count() == 1;
  if (unique && g.is_contiguous() && g.storage_offset() == 0 && !g.autograd_meta()) return g;
  GradModeGuard no_grad(false);
  return g.clone();
}

}  // namespace

GradNode::GradNode() : seq(next_seq()) {}

std::string describe(const Tensor& t) {
  std::string dims;
  for (size_t i = 0; i < t.sizes().size(); ++i) dims += (i ? ", " : "") + std::to_string(t.sizes()[i]);
  bool cuda = t.device().type == DeviceType::cuda;
  return fmt::format("[torch.{}{} [{}]]", cuda ? "cuda." : "", torch_type(t.dtype()), dims);
}

SavedTensor SavedTensor::output(const Tensor& t, uint32_t output_nr, const std::shared_ptr<GradNode>& owner) {
  SavedTensor s(t, true);
  s.output_nr_ = output_nr;
  s.owner_ = owner;
  return s;
}

SavedTensor::SavedTensor(const Tensor& t, bool is_output) : is_output_(is_output) {
  if (!t.defined()) return;
  version_ = t.version();
  data_ = is_output ? native::alias(t) : t;
  const AutogradMeta* m = t.autograd_meta();
  if (!is_output && m && m->grad_fn) producer_ = fmt::format(", which is output {} of {},", m->output_nr, m->grad_fn->name());
}

Tensor SavedTensor::unpack(GradNode& owner) const {
  AMPS_CHECK(!released_, "{}", kBackwardTwice);
  if (!data_.defined()) return Tensor();
  if (data_.version() != version_) {
    std::string from = is_output_ ? fmt::format(", which is output {} of {},", output_nr_, owner.name()) : producer_;
    AMPS_FAIL("one of the variables needed for gradient computation has been modified by an inplace operation: "
              "{}{} is at version {}; expected version {} instead. Hint: the in-place operation ran after the "
              "tensor was saved for backward; use its out-of-place form or work on a .clone().",
              describe(data_), from, data_.version(), version_);
  }
  if (!is_output_ || !data_.is_floating_point()) return data_;
  Tensor t = native::alias(data_);
  std::shared_ptr<GradNode> node = owner_.lock();
  AMPS_ASSERT(node.get() == &owner, "{}: saved output {} unpacked by another node", owner.name(), output_nr_);
  set_history(t, std::move(node), output_nr_);
  return t;
}

void SavedTensor::release() {
  if (!data_.defined()) return;
  data_ = Tensor();
  released_ = true;
}

AccumulateGrad::AccumulateGrad(Tensor v) : variable(std::move(v)) {
  in_meta.push_back(TensorMeta::of(variable));
  out_meta.push_back(TensorMeta::of(variable));
}

// First gradient: stored (with its graph under create_graph); later ones: added (in place unless the
// addition itself must be recorded).
Tensors AccumulateGrad::apply(Tensors& grads, const std::vector<bool>&) {
  Tensor g = std::move(grads[0]);
  AutogradMeta& m = variable.ensure_autograd_meta();
  for (const GradHook& h : m.hooks)
    if (Tensor r = h(g); r.defined()) g = r;
  if (!g.defined()) return {};
  const bool keep_graph = in_create_graph();
  if (!m.grad.defined()) m.grad = keep_graph ? g : owned(std::move(g));
  else if (keep_graph) m.grad = add(m.grad, g);
  else add_(m.grad, g);
  return {};
}

Tensors FunctionNode::apply(Tensors& grads, const std::vector<bool>&) {
  AMPS_CHECK(!released_, "{}", kBackwardTwice);
  for (size_t k = 0; k < grads.size(); ++k)
    if (!grads[k].defined()) grads[k] = zeros(out_meta[k].sizes, out_meta[k].dtype, out_meta[k].device);
  return fn_(grads);
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = t.defined() ? t.autograd_meta() : nullptr;
  if (!m) return {};
  if (m->grad_fn) return {std::static_pointer_cast<GradNode>(m->grad_fn), m->output_nr};
  if (!m->requires_grad) return {};
  std::shared_ptr<Node> acc = m->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    m->grad_accumulator = acc;
  }
  return {std::static_pointer_cast<GradNode>(std::move(acc)), 0};
}

void set_history(const Tensor& t, std::shared_ptr<GradNode> node, uint32_t nr) {
  AutogradMeta& m = const_cast<Tensor&>(t).ensure_autograd_meta();
  GradNode& n = *node;
  m.grad_fn = std::move(node);
  m.output_nr = nr;
  if (!m.retains_grad) return;
  if (n.retained.size() <= nr) n.retained.resize(nr + 1);
  n.retained[nr] = t.impl_ptr();
}

void connect_inputs(GradNode& node, std::span<const Tensor* const> inputs) {
  node.next.reserve(inputs.size());
  node.in_meta.reserve(inputs.size());
  for (const Tensor* t : inputs) {  // built in place: no default slot to overwrite
    if (!t) {
      node.in_meta.emplace_back();
      node.next.emplace_back();
      continue;
    }
    push_meta(node.in_meta, *t);
    node.next.push_back(t->defined() && t->is_floating_point() ? gradient_edge(*t) : Edge{});
  }
}

}  // namespace amps::rt::autograd
