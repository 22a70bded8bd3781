#include "runtime/backend/common/unique_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "runtime/arg_reader.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatch.hpp"

namespace amps::rt::common {
namespace {

template <typename C> bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

// The three results on the host: values (input's dtype, ascending, NaNs last and each its own value), inverse
// (int64, input's shape) and counts (int64).
template <typename T> Tensors unique_on_host(const Tensor& x) {
  using C = compute_t<T>;
  const T* p = x.data<T>();
  const int64_t n = x.numel();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t(0));
  auto less = [p](int64_t a, int64_t b) {
    const C va = C(p[a]), vb = C(p[b]);
    if (is_nan(va) || is_nan(vb)) return !is_nan(va) && is_nan(vb);
    return va < vb;
  };
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<int64_t> first, counts, inverse(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t i = order[size_t(k)];
    const bool fresh = first.empty() || is_nan(C(p[i])) || C(p[i]) != C(p[first.back()]);
    if (fresh) first.push_back(i), counts.push_back(0);
    ++counts.back();
    inverse[size_t(i)] = int64_t(first.size()) - 1;
  }
  Tensor values = Tensor::empty({int64_t(first.size())}, x.dtype(), Device::cpu());
  for (size_t k = 0; k < first.size(); ++k) values.data<T>()[k] = p[first[k]];
  auto longs = [](const std::vector<int64_t>& v, const Dims& shape) {
    Tensor t = Tensor::empty(shape, DType::int64, Device::cpu());
    std::copy(v.begin(), v.end(), t.data<int64_t>());
    return t;
  };
  return {values, longs(inverse, x.sizes()), longs(counts, {int64_t(counts.size())})};
}

// _unique2(input, sorted, return_inverse, return_counts): every result is computed (sorted or not, the values come
// ascending: PyTorch leaves the order of sorted=False unspecified); the flags only say which the caller keeps.
Tensors k_unique2(const ArgReader& a, const KernelContext& kc) {
  const Tensor x = a.tensor(0);
  if (x.device() != Device::cpu()) current_context().count_host_sync();
  const Tensor host = call_op(OpId::contiguous, x.device() == Device::cpu() ? x : call_op(OpId::to, x, IValue(), Device::cpu()));
  Tensors r = AMPS_DISPATCH_ALL(host.dtype(), T, [&] { return unique_on_host<T>(host); });
  if (kc.device != Device::cpu())
    for (Tensor& t : r) t = call_op(OpId::to, t, IValue(), kc.device);
  return r;
}

}  // namespace

void register_unique_kernel(cpu::KernelTable& t) { t.add(OpId::_unique2, k_unique2); }

}  // namespace amps::rt::common
