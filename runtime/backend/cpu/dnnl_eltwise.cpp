// oneDNN eltwise primitives for GELU: one cached primitive per (length, type, form, direction) and thread.
#include "runtime/backend/cpu/dnnl_eltwise.hpp"

#include <unordered_map>

#include "runtime/backend/cpu/dnnl_detail.hpp"

namespace amps::rt::dnnl_cpu {

using namespace detail;

namespace {

dnnl::algorithm algo(GeluForm f) {
  return f == GeluForm::erf ? dnnl::algorithm::eltwise_gelu_erf : dnnl::algorithm::eltwise_gelu_tanh;
}

Md flat_md(int64_t n, DnnlType t) { return Md({n}, to_dnnl(t), dnnl::memory::format_tag::a); }

dnnl::eltwise_forward::primitive_desc fwd_pd(GeluForm f, DnnlType t, int64_t n) {
  dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_training, algo(f), flat_md(n, t));
  return dnnl::eltwise_forward::primitive_desc(d, ctx().engine);
}

dnnl::eltwise_backward::primitive_desc bwd_pd(GeluForm f, DnnlType t, int64_t n) {
  dnnl::eltwise_backward::desc d(algo(f), flat_md(n, t), flat_md(n, t));
  return dnnl::eltwise_backward::primitive_desc(d, ctx().engine, fwd_pd(f, t, n));
}

// A primitive with its argument memories made once: a call only swaps their data handles.
struct Entry {
  dnnl::primitive prim;
  std::unordered_map<int, dnnl::memory> args;

  void bind(int arg, const void* p) { args.at(arg).set_data_handle(const_cast<void*>(p)); }
  void run() {
    prim.execute(ctx().stream, args);
    ctx().stream.wait();
  }
};

dnnl::memory null_memory(int64_t n, DnnlType t) { return dnnl::memory(flat_md(n, t), ctx().engine, nullptr); }

Entry make_entry(GeluForm f, DnnlType t, int64_t n, bool backward) {
  if (!backward)
    return Entry{dnnl::eltwise_forward(fwd_pd(f, t, n)),
                 {{DNNL_ARG_SRC, null_memory(n, t)}, {DNNL_ARG_DST, null_memory(n, t)}}};
  return Entry{dnnl::eltwise_backward(bwd_pd(f, t, n)),
               {{DNNL_ARG_SRC, null_memory(n, t)}, {DNNL_ARG_DIFF_DST, null_memory(n, t)},
                {DNNL_ARG_DIFF_SRC, null_memory(n, t)}}};
}

// The calling thread's entry (engines and streams are per thread, see Context). Bounded like PrimCache.
Entry& entry(GeluForm f, DnnlType t, int64_t n, bool backward) {
  thread_local std::unordered_map<int64_t, Entry> cache[2][2][2];
  auto& m = cache[int(f)][int(t == DnnlType::bf16)][int(backward)];
  auto it = m.find(n);
  if (it != m.end()) return it->second;
  if (m.size() >= 256) m.clear();
  return m.emplace(n, make_entry(f, t, n, backward)).first->second;
}

void check_type(DnnlType t) { check(t == DnnlType::f32 || t == DnnlType::bf16, "gelu", "f32 or bf16 buffers only"); }

}  // namespace

bool gelu_supported(DnnlType t) {
  if (t == DnnlType::f32) return true;
  if (t != DnnlType::bf16) return false;
  static const bool bf16 = [] {
    try {
      bwd_pd(GeluForm::erf, DnnlType::bf16, 1);  // makes the forward's too (the hint)
      return true;
    } catch (const dnnl::error&) {
      return false;  // no bf16 eltwise kernel on this CPU (AVX2 only)
    }
  }();
  return bf16;
}

void gelu_forward(GeluForm f, DnnlType t, const void* src, void* dst, int64_t n) {
  if (n == 0) return;
  guard("gelu", [&] {
    check_type(t);
    Entry& e = entry(f, t, n, false);
    e.bind(DNNL_ARG_SRC, src), e.bind(DNNL_ARG_DST, dst);
    e.run();
  });
}

void gelu_backward(GeluForm f, DnnlType t, const void* diff_dst, const void* src, void* diff_src, int64_t n) {
  if (n == 0) return;
  guard("gelu_backward", [&] {
    check_type(t);
    Entry& e = entry(f, t, n, true);
    e.bind(DNNL_ARG_SRC, src), e.bind(DNNL_ARG_DIFF_DST, diff_dst), e.bind(DNNL_ARG_DIFF_SRC, diff_src);
    e.run();
  });
}

}  // namespace amps::rt::dnnl_cpu
