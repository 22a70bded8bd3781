// IValue: one argument or result of an op (None, Tensor, Tensor list, int, float, bool, int list, dtype,
// device, string), and Args, the schema-ordered argument list that dispatch() takes.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "runtime/scalar.hpp"
#include "runtime/small_pool.hpp"
#include "runtime/tensor.hpp"

namespace amps::rt {

class IValue {
 public:
  enum class Kind : uint8_t { none, tensor, tensor_list, int_, float_, bool_, int_list, dtype, device, string };

  IValue() = default;
  IValue(std::nullopt_t) {}
  IValue(Tensor t) : v_(std::move(t)) {}
  IValue(std::vector<Tensor> ts) : v_(std::move(ts)) {}
  IValue(int64_t i) : v_(i) {}
  IValue(int i) : v_(int64_t(i)) {}
  IValue(double d) : v_(d) {}
  IValue(float d) : v_(double(d)) {}
  IValue(bool b) : v_(b) {}
  IValue(Dims d) : v_(std::move(d)) {}
  IValue(std::initializer_list<int64_t> d) : v_(Dims(d)) {}
  IValue(DType t) : v_(t) {}
  IValue(Device d) : v_(d) {}
  IValue(std::string s) : v_(std::move(s)) {}
  IValue(const char* s) : v_(std::string(s)) {}
  IValue(Scalar s);
  template <typename T> IValue(const std::optional<T>& o) {
    if (o) *this = IValue(*o);
  }

  Kind kind() const { return Kind(v_.index()); }
  bool is_none() const { return kind() == Kind::none; }
  bool is_tensor() const { return kind() == Kind::tensor; }
  bool is_number() const { return kind() == Kind::int_ || kind() == Kind::float_ || kind() == Kind::bool_; }
  // Python type name for error messages: "Tensor", "int", "float", "bool", "list", "str", "NoneType", ...
  std::string_view type_name() const;

  // Unchecked accessors: the caller has checked kind() (ArgReader does, with a TypeError).
  const Tensor& tensor() const { return std::get<Tensor>(v_); }
  Tensor& tensor() { return std::get<Tensor>(v_); }
  const std::vector<Tensor>& tensors() const { return std::get<std::vector<Tensor>>(v_); }
  std::vector<Tensor>& tensors() { return std::get<std::vector<Tensor>>(v_); }
  int64_t i64() const { return std::get<int64_t>(v_); }
  double f64() const { return std::get<double>(v_); }
  bool boolean() const { return std::get<bool>(v_); }
  const Dims& ints() const { return std::get<Dims>(v_); }
  DType dtype() const { return std::get<DType>(v_); }
  Device device() const { return std::get<Device>(v_); }
  const std::string& str() const { return std::get<std::string>(v_); }
  // A number as a Scalar (int, float or bool kinds only).
  Scalar scalar() const;

  using Variant = std::variant<std::monostate, Tensor, std::vector<Tensor>, int64_t, double, bool, Dims, DType,
                               Device, std::string>;
  const Variant& variant() const { return v_; }

 private:
  Variant v_;
};

// Arguments in schema order, keyword-only ones included; trailing defaulted arguments may be omitted.
// Pooled: every dispatch and every recorded autograd node holds one.
using Args = PoolVector<IValue>;
// An op's results. Pooled too: every kernel returns one (a malloc and free per op otherwise). A tensor
// list argument (IValue::tensors(), cat's input) stays a std::vector<Tensor>.
using Tensors = PoolVector<Tensor>;

// A kernel's single result, moved in: `return {t};` would copy it out of the initializer list (a
// reference-count increment and decrement, both locked instructions, per op).
inline Tensors one_tensor(Tensor t) {
  Tensors r(1);
  r[0] = std::move(t);
  return r;
}

}  // namespace amps::rt
