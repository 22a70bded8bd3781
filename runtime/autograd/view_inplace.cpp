// In-place ops on views (PyTorch's CopySlices): the base tensor's history is rebased onto a node that
// routes the view region of the base's gradient through the in-place op's node, and the view becomes
// an as_strided view of the base's new history.
#include "runtime/autograd/view_inplace.hpp"

#include "runtime/backend/backend.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/views.hpp"

namespace amps::rt::autograd {
namespace {

// Where a view sits inside its (row-major) base.
struct Geometry {
  Dims sizes, strides;
  int64_t offset;
  static Geometry of(const Tensor& view, const Tensor& base) {
    return {view.sizes(), view.strides(), view.storage_offset() - base.storage_offset()};
  }
  Tensor in(const Tensor& whole) const { return native::as_strided(whole, sizes, strides, whole.storage_offset() + offset); }
};

// Writes [src] into [region] without recording (first-order bookkeeping).
void write(Tensor region, const Tensor& src) {
  GradModeGuard no_grad(false);
  region.copy_(src);
}

// The base's new history: slot 0 is the base's old history (its gradient outside the view region
// passes through; inside, the op's gradient for its input 0), slots 1.. the op's other inputs.
class CopySlices final : public GradNode {
 public:
  CopySlices(std::shared_ptr<GradNode> fn, Geometry g) : fn_(std::move(fn)), view_(std::move(g)) {}
  std::string_view name() const override { return "CopySlices"; }

  Tensors apply(Tensors& grads, const std::vector<bool>& needs) override {
    GradModeGuard no_grad(false);
    Tensor result = grads[0].contiguous().clone();
    Tensor region = view_.in(result);
    Tensors inner{region.clone()};
    std::vector<bool> fn_needs(fn_->next.size(), true);
    for (size_t i = 1; i < fn_needs.size(); ++i) fn_needs[i] = needs[i];
    Tensors r = fn_->apply(inner, fn_needs);
    r.resize(fn_->next.size());
    if (r[0].defined()) write(region, r[0]);
    else region.zero_();
    r[0] = needs[0] ? result : Tensor();
    return r;
  }
  void release() override { fn_->release(); }

 private:
  std::shared_ptr<GradNode> fn_;
  Geometry view_;
};

// The view after the in-place op: its gradient is the region of a base-shaped gradient.
class AsStridedBackward final : public GradNode {
 public:
  explicit AsStridedBackward(Geometry g) : view_(std::move(g)) {}
  std::string_view name() const override { return "AsStridedBackward0"; }
  Tensors apply(Tensors& grads, const std::vector<bool>&) override {
    GradModeGuard no_grad(false);
    const TensorMeta& m = in_meta[0];
    Tensor whole = zeros(m.sizes, m.dtype, m.device);
    write(view_.in(whole), grads[0]);
    return {whole};
  }

 private:
  Geometry view_;
};

}  // namespace

bool is_view_inplace(const Tensor& self) {
  const AutogradMeta* m = self.autograd_meta();
  return m && m->view_base.defined();
}

void rebase_view(const Tensor& view, const std::shared_ptr<GradNode>& fn) {
  Tensor base = view.autograd_meta()->view_base;
  AMPS_CHECK_KIND("NotImplementedError", base.is_contiguous() && !in_create_graph(),
                  "in-place modification of a view of a tensor that requires grad is only supported on row-major "
                  "bases and without create_graph; clone() the view first");
  Geometry g = Geometry::of(view, base);
  auto cs = std::make_shared<CopySlices>(fn, g);
  cs->next = fn->next;
  cs->in_meta = fn->in_meta;
  cs->next[0] = gradient_edge(base);
  cs->in_meta[0] = TensorMeta::of(base);
  cs->out_meta = {TensorMeta::of(base)};
  set_history(base, cs, 0);
  auto vb = std::make_shared<AsStridedBackward>(g);
  vb->next = {Edge{cs, 0}};
  vb->in_meta = {TensorMeta::of(base)};
  vb->out_meta = {TensorMeta::of(view)};
  set_history(view, vb, 0);
  mark_view_history(view);
}

void mark_view_history(const Tensor& view) {
  if (AutogradMeta* m = view.autograd_meta()) m->view_version = view.version();
}

void refresh_view_history(const Tensor& view) {
  AutogradMeta* m = view.defined() ? view.autograd_meta() : nullptr;
  if (!m || !m->view_base.defined() || m->view_version == view.version()) return;
  m->view_version = view.version();
  const Tensor& base = m->view_base;
  if (!base.requires_grad() || !base.is_contiguous()) return;
  const Geometry g = Geometry::of(view, base);
  auto vb = std::make_shared<AsStridedBackward>(g);
  vb->next = {gradient_edge(base)};
  vb->in_meta = {TensorMeta::of(base)};
  vb->out_meta = {TensorMeta::of(view)};
  set_history(view, vb, 0);
}

}  // namespace amps::rt::autograd
