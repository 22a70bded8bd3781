// oneDNN eltwise primitives for GELU: one cached primitive per (length, type, form, direction) and thread.
#include "runtime/backend/cpu/dnnl_eltwise.hpp"

#include <unordered_map>

#include "runtime/backend/cpu/dnnl_detail.hpp"
#include "runtime/half.hpp"
#include "runtime/host_block_cache.hpp"

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

// Whether oneDNN has a bf16 eltwise kernel on this CPU (AVX-512 ones); elsewhere bf16 computes in f32 here.
bool native_bf16() {
  static const bool bf16 = [] {
    try {
      bwd_pd(GeluForm::erf, DnnlType::bf16, 1);  // makes the forward's too (the hint)
      return true;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return bf16;
}

// [k] f32 buffers of [n] elements from the host block cache, given back when it goes out of scope.
class F32Buffers {
 public:
  F32Buffers(int k, int64_t n) : bytes_(size_t(n) * sizeof(float) + sizeof(float)) {
    for (int i = 0; i < k; ++i) bufs_[i] = static_cast<float*>(host_block_alloc(bytes_));
  }
  ~F32Buffers() {
    for (float* b : bufs_)
      if (b) host_block_free(b, bytes_);
  }
  F32Buffers(const F32Buffers&) = delete;
  F32Buffers& operator=(const F32Buffers&) = delete;
  float* operator[](int i) const { return bufs_[i]; }

 private:
  size_t bytes_;
  float* bufs_[2] = {nullptr, nullptr};
};

float* widened(const void* bf16, float* buf, int64_t n) {
  convert_bf16_to_float(static_cast<const BFloat16*>(bf16), buf, n);
  return buf;
}

}  // namespace

bool gelu_supported(DnnlType t) { return t == DnnlType::f32 || t == DnnlType::bf16; }

void gelu_forward(GeluForm f, DnnlType t, const void* src, void* dst, int64_t n) {
  if (n == 0) return;
  if (t == DnnlType::bf16 && !native_bf16()) {  // widened, computed in f32 and rounded once, as oneDNN's bf16
    F32Buffers buf(1, n);
    gelu_forward(f, DnnlType::f32, widened(src, buf[0], n), buf[0], n);
    return convert_float_to_bf16(buf[0], static_cast<BFloat16*>(dst), n);
  }
  guard("gelu", [&] {
    check_type(t);
    Entry& e = entry(f, t, n, false);
    e.bind(DNNL_ARG_SRC, src), e.bind(DNNL_ARG_DST, dst);
    e.run();
  });
}

void gelu_backward(GeluForm f, DnnlType t, const void* diff_dst, const void* src, void* diff_src, int64_t n) {
  if (n == 0) return;
  if (t == DnnlType::bf16 && !native_bf16()) {
    F32Buffers buf(2, n);
    gelu_backward(f, DnnlType::f32, widened(diff_dst, buf[0], n), widened(src, buf[1], n), buf[0], n);
    return convert_float_to_bf16(buf[0], static_cast<BFloat16*>(diff_src), n);
  }
  guard("gelu_backward", [&] {
    check_type(t);
    Entry& e = entry(f, t, n, true);
    e.bind(DNNL_ARG_SRC, src), e.bind(DNNL_ARG_DIFF_DST, diff_dst), e.bind(DNNL_ARG_DIFF_SRC, diff_src);
    e.run();
  });
}

}  // namespace amps::rt::dnnl_cpu
