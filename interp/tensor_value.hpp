// Script values for the tensor runtime: tensors, dtypes and devices, the conversions between
// script values and runtime IValues, and the mapping of runtime errors to amps errors.
#pragma once

#include <initializer_list>
#include <optional>

#include <string>

#include "interp/interp.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/schema.hpp"
#include "runtime/small_pool.hpp"
#include "runtime/tensor.hpp"

namespace amps::interp {

struct TensorObj : Opaque {
  explicit TensorObj(rt::Tensor t) : Opaque(ObjKind::Tensor), tensor(std::move(t)) {}
  std::string type_name() const override { return "Tensor"; }
  std::string repr() const override;
  bool truthy() const override;
  Value get_attr(Interp& in, Atom name) override;
  bool set_attr(Interp& in, Atom name, const Value& v) override;
  // One per tensor-valued expression: pooled per thread rather than malloc'd (runtime/small_pool.hpp).
  static void* operator new(size_t n) { return rt::pool_alloc(n); }
  static void operator delete(void* p, size_t n) { rt::pool_free(p, n); }
  rt::Tensor tensor;
};

struct DTypeObj : Opaque {
  explicit DTypeObj(rt::DType d) : Opaque(ObjKind::DType), dtype(d) {}
  std::string type_name() const override { return "dtype"; }
  std::string repr() const override;
  Value get_attr(Interp& in, Atom name) override;
  bool equals(const Object& o) const override { return o.kind() == kind() && static_cast<const DTypeObj&>(o).dtype == dtype; }
  size_t hash() const override { return size_t(dtype) * 31 + 7; }
  rt::DType dtype;
};

// A device (`cpu`, `device("cuda:1")`); `cuda` also carries cuda.available() & co.
struct DeviceObj : Opaque {
  explicit DeviceObj(rt::Device d) : Opaque(ObjKind::Device), device(d) {}
  std::string type_name() const override { return "device"; }
  std::string repr() const override;
  Value get_attr(Interp& in, Atom name) override;
  bool equals(const Object& o) const override { return o.kind() == kind() && static_cast<const DeviceObj&>(o).device == device; }
  size_t hash() const override { return size_t(device.type) * 131 + size_t(device.index); }
  rt::Device device;
};

Value wrap(rt::Tensor t);
Value wrap_dtype(rt::DType d);
// The dtype a script value names: a dtype, or the builtins `float`, `int` and `bool` (float32, int64, bool).
std::optional<rt::DType> script_dtype(const Value& v);
Value wrap_device(rt::Device d);
// The tensor inside `v`, or null when `v` is not a tensor.
const rt::Tensor* tensor_of(const Value& v);
// Tensor.unbind(dim): the slices along [dim] (a wrapped dim), one UnbindBackward0 node joining their gradients
// (tensor_compound_methods.cpp).
std::vector<rt::Tensor> unbind_slices(const rt::Tensor& t, int64_t dim);

// Python's __index__: an int or bool, or a one-element integer (or bool) tensor, as an int64 in [out]; false for
// anything else. Slices and list subscripts take a tensor element this way (`data[i:i + block]` for i in a tensor).
bool index_value_of(const Value& v, int64_t& out);
// The TypeError text for a slice bound that is not an index (PyTorch's for a tensor, Python's otherwise).
std::string bad_slice_bound(const Value& v);
// `v` as a tensor: tensors pass through, numbers and nested lists become new tensors.
rt::Tensor to_tensor(const Value& v, const Span& where);
// Parses a device argument: a device value or a string like "cuda:1".
rt::Device device_of(const Value& v, const Span& where);

// Converts one script value for schema argument `arg`; returns false (with `why`) when the
// value has the wrong type, so the caller can try another overload.
bool to_ivalue(const Value& v, const rt::SchemaArg& arg, rt::IValue& out, std::string& why);
// A runtime result as a script value.
Value from_ivalue(const rt::IValue& v);

// Runs [op] from script arguments: binds them to the schema (positional, keyword, defaults),
// dispatches, and wraps the results. Throws AmpsError on bad arguments or runtime errors.
Value call_op(Interp& in, rt::OpId op, CallArgs& args);
// A tensor result as a script value: the argument's own object when [t] is one of [a]'s tensors (`x.add_(1) is x`,
// as PyTorch's one object per tensor), otherwise a new one.
Value wrap_result(rt::Tensor t, const CallArgs& a);
// allclose(input, other, rtol=, atol=, equal_nan=) and equal(input, other) as bools: the global functions and the
// tensor methods (tensor_api.cpp).
Value b_allclose(Interp& in, CallArgs& a);
Value b_equal(Interp& in, CallArgs& a);
Value b_unique(Interp& in, CallArgs& a);
Value b_unique_consecutive(Interp& in, CallArgs& a);
// lu(A, pivot=True, get_infos=False), torch.lu and Tensor.lu: (LU, pivots), or (LU, pivots, info) with get_infos.
Value b_lu(Interp& in, CallArgs& a);

// f() with runtime errors (rt::Error) turned into amps errors at [where]: for natives that call the runtime directly.
template <class F> Value guarded(const Span& where, F&& f) {
  try {
    return f();
  } catch (const rt::Error& e) {
    throw AmpsError(e.kind(), e.message(), where);
  }
}
// The value of keyword argument [name] of a call (undef when absent).
Value keyword(const CallArgs& a, const char* name);
// TypeError naming [fn] for a keyword argument outside [allowed], as Python's "got an unexpected keyword argument".
void check_keywords(const CallArgs& a, const char* fn, std::initializer_list<const char*> allowed);

// Registers tensors, dtypes, devices and every op of the table as globals and methods.
void install_tensor_builtins(Interp& in);
// Installs autograd (interp/autograd_binding.cpp): the recording layer, no_grad blocks, the autograd module.
void install_autograd_builtins(Interp& in);
// Installs grad mode (interp/grad_mode_binding.cpp): the block hook, set_grad_enabled, is_grad_enabled, and the
// @no_grad / @enable_grad decorators. Called by install_autograd_builtins.
void install_grad_mode_builtins(Interp& in);

// ATen's C++ name of a dtype ("long int", "c10::Half"), as PyTorch's messages print it.
std::string_view aten_type_name(rt::DType d);

}  // namespace amps::interp
