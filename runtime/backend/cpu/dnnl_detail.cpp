// Thread context, error guard, memory descs, cache keys and argument binding for the oneDNN helpers.
#include "runtime/backend/cpu/dnnl_detail.hpp"

#include <dnnl_debug.h>

#include "runtime/host_block_cache.hpp"

namespace amps::rt::dnnl_cpu::detail {

Context& ctx() {
  thread_local Context c = [] {
    dnnl::engine e(dnnl::engine::kind::cpu, 0);
    return Context{e, dnnl::stream(e)};
  }();
  return c;
}

bool native_bf16_dot() {
  static const bool yes = [] {
    const int bf16 = dnnl_cpu_isa_avx512_core_bf16;  // ISA masks nest: later ISAs contain these bits
    return (static_cast<int>(dnnl::get_effective_cpu_isa()) & bf16) == bf16;
  }();
  return yes;
}

void rethrow_dnnl(const char* op, const dnnl::error& e) {
  std::string msg = std::string(op) + ": oneDNN " + dnnl_status2str(e.status) + ": " + e.what();
  throw DnnlError(msg, static_cast<int>(e.status));
}

void check(bool cond, const char* op, const std::string& msg) {
  if (!cond) throw DnnlError(std::string(op) + ": " + msg, 0);
}

dnnl::memory::data_type to_dnnl(DnnlType t) {
  using dt = dnnl::memory::data_type;
  switch (t) {
    case DnnlType::f32: return dt::f32;
    case DnnlType::bf16: return dt::bf16;
    case DnnlType::f16: return dt::f16;
  }
  return dt::undef;
}

int64_t numel(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Dims dense_strides(const Dims& dims) {
  Dims s(dims.size());
  int64_t acc = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    s[i] = acc;
    acc *= dims[i] > 0 ? dims[i] : 1;
  }
  return s;
}

DnnlArg explicit_strides(const DnnlArg& a) {
  DnnlArg r = a;
  if (r.strides.empty()) r.strides = dense_strides(r.dims);
  check(r.strides.size() == r.dims.size(), "dnnl", "strides and dims differ in rank");
  return r;
}

bool is_dense(const DnnlArg& a) {
  if (a.strides.empty()) return true;
  Dims d = dense_strides(a.dims);
  for (size_t i = 0; i < d.size(); ++i)
    if (a.dims[i] != 1 && a.strides[i] != d[i]) return false;
  return true;
}

Md md_of(const DnnlArg& a) {
  check(a.strides.empty() || a.strides.size() == a.dims.size(), "dnnl", "strides and dims differ in rank");
  return Md(a.dims, to_dnnl(a.dt), a.strides.empty() ? dense_strides(a.dims) : a.strides);
}
Md md_of(const Dims& dims, DnnlType t) { return Md(dims, to_dnnl(t), dense_strides(dims)); }
Md md_any(const Dims& dims, DnnlType t) {
  return Md(dims, to_dnnl(t), dnnl::memory::format_tag::any);
}

Key& Key::add(const Dims& d) {
  v.push_back(static_cast<int64_t>(d.size()));
  v.insert(v.end(), d.begin(), d.end());
  return *this;
}

Key& Key::add(const DnnlArg& a) {
  add(static_cast<int64_t>(a.dt)).add(a.dims);
  return a.strides.empty() ? add(dense_strides(a.dims)) : add(a.strides);
}

Key& Key::add_opt(const DnnlArg* a) { return a ? add(1).add(*a) : add(0); }

size_t KeyHash::operator()(const Key& k) const {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the 64-bit words
  for (int64_t x : k.v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
  return static_cast<size_t>(h);
}

void Exec::in(int arg, const DnnlArg& view, const Md& want) {
  dnnl::memory user(md_of(view), ctx().engine, view.data);
  if (user.get_desc() == want) {
    args_[arg] = user;
    return;
  }
  dnnl::memory tmp = temp(want);
  pre_.emplace_back(user, tmp);
  args_[arg] = tmp;
}

void Exec::out(int arg, const DnnlArg& view, const Md& want, bool load) {
  dnnl::memory user(md_of(view), ctx().engine, view.data);
  if (user.get_desc() == want) {
    args_[arg] = user;
    return;
  }
  dnnl::memory tmp = temp(want);
  if (load) pre_.emplace_back(user, tmp);
  post_.emplace_back(tmp, user);
  args_[arg] = tmp;
}

void Exec::raw(int arg, const Md& md, void* data) { args_[arg] = dnnl::memory(md, ctx().engine, data); }

void Exec::scratch(int arg, const Md& md) { args_[arg] = temp(md); }

dnnl::memory Exec::temp(const Md& md) {
  const size_t n = md.get_size();
  if (n == 0) return dnnl::memory(md, ctx().engine, nullptr);
  blocks_.reserve(4);
  void* p = host_block_alloc(n);
  blocks_.emplace_back(p, n);
  return dnnl::memory(md, ctx().engine, p);
}

Exec::~Exec() {
  for (auto& [p, n] : blocks_) host_block_free(p, n);
}

void Exec::run(const dnnl::primitive& p) {
  dnnl::stream& s = ctx().stream;
  for (auto& [from, to] : pre_) dnnl::reorder(from, to).execute(s, from, to);
  p.execute(s, args_);
  for (auto& [from, to] : post_) dnnl::reorder(from, to).execute(s, from, to);
  s.wait();
}

}  // namespace amps::rt::dnnl_cpu::detail
