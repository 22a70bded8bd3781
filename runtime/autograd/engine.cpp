// The reverse-mode engine: topological execution, accumulation, un-broadcasting, needs-grad masks,
// capture for grad(), retain_graph, create_graph (the backward is recorded like any forward).
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "runtime/autograd/anomaly.hpp"
#include "runtime/autograd/autograd.hpp"
#include "runtime/autograd/rules.hpp"
#include "runtime/autograd/view_inplace.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::autograd {
namespace {

thread_local bool t_create_graph = false;
thread_local int t_backward_depth = 0;  // backward passes running on this thread (a hook may start another)

// Where grad() takes a gradient (or backward(inputs=...) stores it): input [nr] of a node.
struct Capture {
  uint32_t nr;
  size_t index;  // into GraphTask::captured
};

// One backward pass. Nodes reached from the roots are "relevant" when they must run (exec) or when a
// captured gradient arrives at them (targets); only relevant nodes get buffers and dependency counts.
struct GraphTask {
  bool create_graph = false, retain_graph = false, accumulate = true;
  bool has_targets = false;
  std::unordered_map<GradNode*, std::vector<Capture>> captures;
  std::unordered_map<GradNode*, bool> exec;
  std::unordered_map<GradNode*, int> deps;
  std::unordered_map<GradNode*, Tensors> buffers;
  std::unordered_map<GradNode*, std::shared_ptr<GradNode>> keep;  // alive while the task runs
  Tensors captured;
  Tensors capture_targets;  // backward(inputs=) of non-leaves: the tensors whose .grad receives it

  bool relevant(GradNode* n) const { return captures.count(n) || exec.at(n); }
};

// Nodes reachable from [roots], children before parents (iterative DFS; graphs can be deep).
std::vector<GradNode*> post_order(GraphTask& task, const std::vector<Edge>& roots) {
  std::vector<GradNode*> order;
  std::unordered_set<GradNode*> seen;
  std::vector<std::pair<GradNode*, size_t>> stack;
  auto visit = [&](const Edge& e) {
    if (!e.valid() || !seen.insert(e.fn.get()).second) return;
    task.keep[e.fn.get()] = e.fn;
    stack.push_back({e.fn.get(), 0});
  };
  for (const Edge& r : roots) {
    visit(r);
    while (!stack.empty()) {
      auto& [n, i] = stack.back();
      if (i == n->next.size()) {
        order.push_back(n);
        stack.pop_back();
        continue;
      }
      visit(n->next[i++]);
    }
  }
  return order;
}

// exec: every node without targets; with targets only nodes feeding one (AccumulateGrad targets of
// backward(inputs=) run too). deps: edges into each relevant node from nodes that run.
void plan(GraphTask& task, const std::vector<Edge>& roots) {
  std::vector<GradNode*> order = post_order(task, roots);
  for (GradNode* n : order) {
    bool run = !task.has_targets || (task.accumulate && task.captures.count(n) && dynamic_cast<AccumulateGrad*>(n));
    for (const Edge& e : n->next) run = run || (e.valid() && (task.captures.count(e.fn.get()) || task.exec[e.fn.get()]));
    task.exec[n] = run;
  }
  for (GradNode* n : order) {
    if (!task.exec[n]) continue;
    for (const Edge& e : n->next)
      if (e.valid() && task.relevant(e.fn.get())) ++task.deps[e.fn.get()];
  }
}

void add_to_buffer(GraphTask& task, const Edge& e, Tensor g) {
  Tensors& buf = task.buffers[e.fn.get()];
  if (buf.size() < e.fn->out_meta.size()) buf.resize(std::max<size_t>(e.fn->out_meta.size(), e.nr + 1));
  if (!g.defined()) return;
  Tensor& slot = buf[e.nr];
  slot = slot.defined() ? add(slot, g) : g;
}

// Tensor hooks and retain_grad of node [n]'s outputs, then captures of grad()/backward(inputs=).
void on_ready(GraphTask& task, GradNode* n, Tensors& buf) {
  for (size_t k = 0; k < buf.size(); ++k) {
    if (k < n->pre_hooks.size())
      for (const GradHook& h : n->pre_hooks[k])
        if (Tensor r = h(buf[k]); r.defined()) buf[k] = r;
    std::shared_ptr<TensorImpl> t = k < n->retained.size() ? n->retained[k].lock() : nullptr;
    if (!t || !buf[k].defined()) continue;
    Tensor holder(t);
    Tensor old = holder.grad();
    holder.ensure_autograd_meta().grad = old.defined() ? add(old, buf[k]) : buf[k].clone();
  }
  auto it = task.captures.find(n);
  if (it == task.captures.end()) return;
  for (const Capture& c : it->second) {
    if (c.nr < buf.size()) task.captured[c.index] = buf[c.nr];
  }
}

// Reduces/casts a node's result for slot [i] to its input's shape and dtype.
Tensor validate(const GradNode& n, size_t i, Tensor g) {
  const TensorMeta& m = n.in_meta[i];
  if (g.sizes() != m.sizes) g = sum_to(g, m.sizes);
  if (g.dtype() != m.dtype) g = g.to(m.dtype);
  if (g.device() != m.device) g = g.to(m.device);
  return g;
}

std::vector<bool> needs_of(const GraphTask& task, const GradNode& n) {
  std::vector<bool> needs(n.next.size());
  for (size_t i = 0; i < n.next.size(); ++i) needs[i] = n.next[i].valid() && task.relevant(n.next[i].fn.get());
  return needs;
}

void run_node(GraphTask& task, GradNode* n, Tensors buf, auto&& push) {
  on_ready(task, n, buf);
  if (!task.exec[n]) return;
  std::vector<bool> needs = needs_of(task, *n);
  bool any = false;
  for (const Tensor& g : buf) any = any || g.defined();
  Tensors out = any ? n->apply(buf, needs) : Tensors();
  if (any && anomaly_enabled()) check_anomaly(*n, out);
  if (!task.retain_graph) n->release();
  for (size_t i = 0; i < n->next.size(); ++i) {
    if (!needs[i]) continue;
    Tensor g = i < out.size() && out[i].defined() ? validate(*n, i, out[i]) : Tensor();
    add_to_buffer(task, n->next[i], g);
    if (--task.deps[n->next[i].fn.get()] == 0) push(n->next[i].fn.get());
  }
}

// Runs [task] from [roots] with gradients [grads] (the roots' buffers).
void execute(GraphTask& task, const std::vector<Edge>& roots, const Tensors& grads) {
  plan(task, roots);
  GradModeGuard mode(task.create_graph);
  struct Restore { bool create_graph; ~Restore() { t_create_graph = create_graph; --t_backward_depth; } };
  Restore restore{t_create_graph};
  t_create_graph = task.create_graph;
  ++t_backward_depth;
  auto later = [](GradNode* a, GradNode* b) { return a->seq < b->seq; };
  std::priority_queue<GradNode*, std::vector<GradNode*>, decltype(later)> ready(later);
  for (size_t i = 0; i < roots.size(); ++i)
    if (roots[i].valid() && task.relevant(roots[i].fn.get())) add_to_buffer(task, roots[i], grads[i]);
  std::unordered_set<GradNode*> seeded;
  for (const Edge& r : roots)
    if (r.valid() && task.relevant(r.fn.get()) && task.deps[r.fn.get()] == 0 && seeded.insert(r.fn.get()).second)
      ready.push(r.fn.get());
  while (!ready.empty()) {
    GradNode* n = ready.top();
    ready.pop();
    Tensors buf = std::move(task.buffers[n]);
    task.buffers.erase(n);
    run_node(task, n, std::move(buf), [&](GradNode* m) { ready.push(m); });
  }
}

// The seed gradient of output [t]: [given], or ones for a scalar.
Tensor seed(const Tensor& t, const Tensor& given, size_t i) {
  if (given.defined()) {
    AMPS_CHECK(given.sizes() == t.sizes(), "Mismatch in shape: grad_output[{}] has a shape of {} and output[{}] has "
               "a shape of {}.", i, format_shape(given.sizes()), i, format_shape(t.sizes()));
    return given;
  }
  AMPS_CHECK(t.numel() == 1, "grad can be implicitly created only for scalar outputs");
  AMPS_CHECK(t.is_floating_point(), "grad can be implicitly created only for real scalar outputs but got {}",
             dtype_name(t.dtype()));
  return ones_like(t);
}

std::vector<Edge> root_edges(const Tensors& outputs, const Tensors& grad_outputs, Tensors& seeds) {
  AMPS_CHECK(grad_outputs.empty() || grad_outputs.size() == outputs.size(), "grad_tensors should have the same "
             "length as tensors: got {} and {}", grad_outputs.size(), outputs.size());
  std::vector<Edge> roots;
  for (size_t i = 0; i < outputs.size(); ++i) {
    refresh_view_history(outputs[i]);  // a root viewing a base changed in place since it was made
    Edge e = gradient_edge(outputs[i]);
    AMPS_CHECK(e.valid(), "element {} of tensors does not require grad and does not have a grad_fn", i);
    roots.push_back(e);
    seeds.push_back(seed(outputs[i], grad_outputs.empty() ? Tensor() : grad_outputs[i], i));
  }
  return roots;
}

void add_capture(GraphTask& task, const Tensor& t, size_t index) {
  Edge e = gradient_edge(t);
  AMPS_CHECK(e.valid(), "One of the differentiated Tensors does not require grad");
  task.keep[e.fn.get()] = e.fn;
  task.captures[e.fn.get()].push_back({e.nr, index});
}

}  // namespace

bool in_create_graph() { return t_create_graph; }
bool in_backward() { return t_backward_depth > 0; }

Tensor sum_to(const Tensor& g, const Dims& sizes) {
  const int64_t lead = g.dim() - int64_t(sizes.size());
  AMPS_ASSERT(lead >= 0, "gradient of shape {} cannot be reduced to {}", format_shape(g.sizes()), format_shape(sizes));
  Dims dims;
  for (int64_t d = 0; d < g.dim(); ++d)
    if (d < lead || (sizes[size_t(d - lead)] == 1 && g.size(d) != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? g : sum(g, dims, true);
  return r.sizes() == sizes ? r : r.reshape(sizes);
}

void backward(const Tensors& tensors, const Tensors& grad_tensors, std::optional<bool> retain_graph,
              bool create_graph, const Tensors& inputs) {
  GraphTask task;
  task.create_graph = create_graph;
  task.retain_graph = retain_graph.value_or(create_graph);
  Tensors seeds;
  std::vector<Edge> roots = root_edges(tensors, grad_tensors, seeds);
  task.has_targets = !inputs.empty();
  task.captured.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) add_capture(task, inputs[i], i);
  execute(task, roots, seeds);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].is_leaf() || !task.captured[i].defined()) continue;
    Tensor old = inputs[i].grad();
    GradModeGuard mode(create_graph);
    const_cast<Tensor&>(inputs[i]).ensure_autograd_meta().grad =
        old.defined() ? add(old, task.captured[i]) : task.captured[i];
  }
}

Tensors grad(const Tensors& outputs, const Tensors& inputs, const Tensors& grad_outputs,
             std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  GraphTask task;
  task.create_graph = create_graph;
  task.retain_graph = retain_graph.value_or(create_graph);
  task.accumulate = false;
  task.has_targets = true;
  Tensors seeds;
  std::vector<Edge> roots = root_edges(outputs, grad_outputs, seeds);
  task.captured.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) add_capture(task, inputs[i], i);
  execute(task, roots, seeds);
  for (const Tensor& g : task.captured)
    AMPS_CHECK(g.defined() || allow_unused, "One of the differentiated Tensors appears to not have been used in "
               "the graph. Set allow_unused=True if this is the desired behavior.");
  return task.captured;
}

}  // namespace amps::rt::autograd
