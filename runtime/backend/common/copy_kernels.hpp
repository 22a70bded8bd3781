// Device-independent copy, fill and factory kernels, written once and registered by every backend with its
// own copy and fill: copy_, to, clone, contiguous, fill_, zero_, zeros, ones, empty, full and the *_like.
#pragma once

#include <optional>

#include "runtime/backend/cpu/cpu_backend.hpp"

namespace amps::rt::common {

// The device-specific pieces: [dst] <- [src] broadcast and converted (for copy_ and to, also across
// devices), a fill of every element of [dst], and a row-major [t] (itself when it already is).
using CopyFn = void (*)(const Tensor& dst, const Tensor& src);
using FillFn = void (*)(const Tensor& dst, Scalar v);
using ContiguousFn = Tensor (*)(const Tensor& t);
// Where a *_like result goes, given the `device=` argument [i]: the CPU backend serves every host device and
// honours it; the CUDA backend allocates on the device it runs on.
using LikeDeviceFn = Device (*)(const ArgReader& a, size_t i, const KernelContext& kc);

// Throws PyTorch's "value cannot be converted to type ... without overflow" when [v] does not fit [dt].
void check_fill_value(Scalar v, DType dt);
// Applies the `requires_grad=` argument of a factory (argument [i]) to [t].
Tensor finish_factory(const ArgReader& a, size_t i, Tensor t);
// [t] filled with [value] when there is one, marked by the `requires_grad=` argument [i].
Tensor filled_factory(const ArgReader& a, size_t i, Tensor t, std::optional<Scalar> value, FillFn fill);

Tensor copy_(const ArgReader& a, CopyFn copy);
Tensor to(const ArgReader& a, CopyFn copy);
Tensor clone(const ArgReader& a, CopyFn copy);
// zeros/ones/empty(size, *, dtype, device, requires_grad) with [value] (none for empty).
Tensor sized(const ArgReader& a, const KernelContext& kc, std::optional<Scalar> value, FillFn fill);
// full(size, fill_value, *, dtype, device, requires_grad).
Tensor full(const ArgReader& a, const KernelContext& kc, FillFn fill);
// *_like(input, [fill_value,] *, dtype, device, requires_grad) on [device]: [first_kw] is the dtype argument.
Tensor like(const ArgReader& a, size_t first_kw, Device device, std::optional<Scalar> value, FillFn fill);

// Every kernel above for a backend whose copies, fills and contiguous are [Copy], [Fill] and [Contiguous].
template <CopyFn Copy, FillFn Fill, ContiguousFn Contiguous, LikeDeviceFn LikeDevice>
void register_copy_kernels(cpu::KernelTable& t) {
  using K = const KernelContext&;
  t.add(OpId::zeros_like, [](const ArgReader& a, K kc) -> Tensors {
    return {like(a, 1, LikeDevice(a, 2, kc), Scalar(int64_t(0)), Fill)};
  });
  t.add(OpId::ones_like, [](const ArgReader& a, K kc) -> Tensors {
    return {like(a, 1, LikeDevice(a, 2, kc), Scalar(int64_t(1)), Fill)};
  });
  t.add(OpId::full_like, [](const ArgReader& a, K kc) -> Tensors {
    return {like(a, 2, LikeDevice(a, 3, kc), a.scalar(1), Fill)};
  });
  t.add(OpId::empty_like, [](const ArgReader& a, K kc) -> Tensors {
    return {like(a, 1, LikeDevice(a, 2, kc), std::nullopt, Fill)};
  });
  t.add(OpId::copy_, [](const ArgReader& a, K) -> Tensors { return {copy_(a, Copy)}; });
  t.add(OpId::to, [](const ArgReader& a, K) -> Tensors { return {to(a, Copy)}; });
  t.add(OpId::clone, [](const ArgReader& a, K) -> Tensors { return {clone(a, Copy)}; });
  t.add(OpId::contiguous, [](const ArgReader& a, K) -> Tensors { return {Contiguous(a.tensor(0))}; });
  t.add(OpId::fill_, [](const ArgReader& a, K) -> Tensors {
    check_fill_value(a.scalar(1), a.tensor(0).dtype());
    Fill(a.tensor(0), a.scalar(1));
    return {a.tensor(0)};
  });
  t.add(OpId::zero_, [](const ArgReader& a, K) -> Tensors {
    Fill(a.tensor(0), Scalar(int64_t(0)));
    return {a.tensor(0)};
  });
  t.add(OpId::zeros, [](const ArgReader& a, K kc) -> Tensors { return {sized(a, kc, Scalar(int64_t(0)), Fill)}; });
  t.add(OpId::ones, [](const ArgReader& a, K kc) -> Tensors { return {sized(a, kc, Scalar(int64_t(1)), Fill)}; });
  t.add(OpId::empty, [](const ArgReader& a, K kc) -> Tensors { return {sized(a, kc, std::nullopt, Fill)}; });
  t.add(OpId::full, [](const ArgReader& a, K kc) -> Tensors { return {full(a, kc, Fill)}; });
}

}  // namespace amps::rt::common
