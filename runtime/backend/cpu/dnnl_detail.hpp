// Internals shared by the oneDNN helpers: thread context, the one error guard, descs, cache, execution.
#pragma once

#include <dnnl.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/backend/cpu/dnnl_common.hpp"

namespace amps::rt::dnnl_cpu::detail {

using Dims = std::vector<int64_t>;
using Md = dnnl::memory::desc;

// The CPU engine and an in-order stream of the calling thread, created on first use and reused:
// oneDNN engines are costly to create, streams must not be shared between threads.
struct Context {
  dnnl::engine engine;
  dnnl::stream stream;
};
Context& ctx();

// The one place where dnnl::error is caught: rethrown as DnnlError("<op>: oneDNN <status>: <what>").
[[noreturn]] void rethrow_dnnl(const char* op, const dnnl::error& e);
template <class F>
void guard(const char* op, F&& body) {
  try {
    body();
  } catch (const dnnl::error& e) {
    rethrow_dnnl(op, e);
  }
}

// Throws DnnlError("<op>: <msg>", 0) unless 'cond'.
void check(bool cond, const char* op, const std::string& msg);

dnnl::memory::data_type to_dnnl(DnnlType t);
int64_t numel(const Dims& dims);
Dims dense_strides(const Dims& dims);
// 'a' with explicit strides (dense ones when a.strides is empty); checks ranks agree.
DnnlArg explicit_strides(const DnnlArg& a);
bool is_dense(const DnnlArg& a);
// The plain strided memory desc of an explicit-strides arg.
Md md_of(const DnnlArg& a);
Md md_of(const Dims& dims, DnnlType t);  // dense
Md md_any(const Dims& dims, DnnlType t);

// Cache key: the op family, its parameters and every argument's dtype, dims and strides.
struct Key {
  std::vector<int64_t> v;
  Key& add(int64_t x) { v.push_back(x); return *this; }
  Key& add(const Dims& d);
  Key& add(const DnnlArg& a);
  Key& add_opt(const DnnlArg* a);
  bool operator==(const Key& o) const { return v == o.v; }
};
struct KeyHash {
  size_t operator()(const Key& k) const;
};

// Per-thread cache of primitive descriptors + primitives keyed by Key. oneDNN caches primitive
// creation itself, but not the primitive-descriptor search, which costs more than a small op.
template <class Entry>
class PrimCache {
 public:
  template <class Make>
  Entry& get(const Key& k, Make&& make) {
    auto it = map_.find(k);
    if (it != map_.end()) return it->second;
    if (map_.size() >= kCapacity) map_.clear();  // bounded: dynamic shapes must not grow it forever
    return map_.emplace(k, make()).first->second;
  }

 private:
  static constexpr size_t kCapacity = 1024;
  std::unordered_map<Key, Entry, KeyHash> map_;
};

// The type a primitive computes in for inputs of type 'want': bf16 where this CPU has bf16
// kernels (probed once with 'make'), else f32; f16 always f32 (oneDNN 2.6 has no f16 compute).
// 'make(t)' returns a primitive descriptor for compute type t and throws dnnl::error if unsupported.
template <class Make>
auto pick_pd(DnnlType want, Make&& make) -> std::pair<decltype(make(DnnlType::f32)), DnnlType> {
  if (want == DnnlType::bf16) {
    try {
      return {make(DnnlType::bf16), DnnlType::bf16};
    } catch (const dnnl::error&) {
      // no bf16 kernel on this CPU (e.g. AVX2 only): fall through to f32
    }
  }
  return {make(DnnlType::f32), DnnlType::f32};
}

// Whether this CPU multiplies bf16 in hardware (avx512_bf16 or AMX, within oneDNN's ISA limit). oneDNN's
// f32->bf16 conversions then use vcvtneps2bf16, which reads f32 denormals as zero.
bool native_bf16_dot();

// pick_pd for dot-product primitives (convolution, matmul). Without native bf16 products oneDNN emulates
// them and runs 2-3x slower than f32 on the same inputs, so bf16 then computes in f32: every product of
// two bf16 values is exact in f32 and oneDNN's bf16 kernels accumulate in f32 too, so only the summation
// order differs; the result is rounded once to the destination type either way. (Convolutions with a
// half-type result may also take Winograd there, whose error stays far below that rounding: dnnl_conv.cpp.)
template <class Make>
auto pick_dot_pd(DnnlType want, Make&& make) -> std::pair<decltype(make(DnnlType::f32)), DnnlType> {
  if (want == DnnlType::bf16 && !native_bf16_dot()) return {make(DnnlType::f32), DnnlType::f32};
  return pick_pd(want, make);
}

// Binds arguments of one primitive execution. A user view whose desc differs from the one the
// primitive wants (a blocked format chosen by format_tag::any) goes through a oneDNN reorder in
// the same dtype: before execution for inputs, after it for outputs.
class Exec {
 public:
  Exec() = default;
  Exec(const Exec&) = delete;
  Exec& operator=(const Exec&) = delete;
  ~Exec();  // gives the temporaries back to the host block cache
  void in(int arg, const DnnlArg& view, const Md& want);
  void out(int arg, const DnnlArg& view, const Md& want, bool load = false);
  void raw(int arg, const Md& md, void* data);  // bound as is (workspace, statistics)
  void scratch(int arg, const Md& md);          // a temporary the caller never sees
  void run(const dnnl::primitive& p);           // reorders in, executes, reorders out, waits

 private:
  // A temporary in 'md' from the host block cache (oneDNN's own allocation would be a fresh,
  // page-faulting mmap for every activation-sized buffer).
  dnnl::memory temp(const Md& md);

  std::unordered_map<int, dnnl::memory> args_;
  std::vector<std::pair<dnnl::memory, dnnl::memory>> pre_, post_;
  std::vector<std::pair<void*, size_t>> blocks_;
};

}  // namespace amps::rt::dnnl_cpu::detail
