// ArgReader: typed, checked access to an op's schema-ordered arguments, with PyTorch-style TypeErrors.
#pragma once

#include <optional>
#include <string>

#include "runtime/ivalue.hpp"
#include "runtime/op.hpp"

namespace amps::rt {

class ArgReader {
 public:
  ArgReader(OpId op, Args& args) : op_(op), args_(args) {}
  OpId op() const { return op_; }
  Args& args() const { return args_; }
  const IValue& at(size_t i) const { return args_[i]; }
  bool is_none(size_t i) const { return args_[i].is_none(); }

  // A Tensor argument; a Python number becomes a wrapped 0-dim tensor (lowest promotion priority).
  Tensor tensor(size_t i) const;
  // The defined Tensor argument [i] in place (no reference-count traffic), or null for anything else.
  const Tensor* tensor_in_place(size_t i) const {
    const IValue& v = args_[i];
    return v.is_tensor() && v.tensor().defined() ? &v.tensor() : nullptr;
  }
  // An optional Tensor: undefined when None.
  Tensor opt_tensor(size_t i) const;
  std::vector<Tensor> tensors(size_t i) const;
  int64_t i64(size_t i) const;
  std::optional<int64_t> opt_i64(size_t i) const;
  double f64(size_t i) const;
  std::optional<double> opt_f64(size_t i) const;
  bool boolean(size_t i) const;
  Scalar scalar(size_t i) const;
  std::optional<Scalar> opt_scalar(size_t i) const;
  // An int list; [n] > 0 broadcasts a single value to n values (conv's stride=2) and requires n values otherwise.
  Dims ints(size_t i, size_t n = 0) const;
  std::optional<Dims> opt_ints(size_t i) const;
  std::optional<DType> opt_dtype(size_t i) const;
  std::optional<Device> opt_device(size_t i) const;
  std::string str(size_t i) const;
  std::optional<std::string> opt_str(size_t i) const;

 private:
  [[noreturn]] void type_fail(size_t i, std::string_view expected) const;
  OpId op_;
  Args& args_;
};

// A 0-dim tensor for a Python number, flagged as a wrapped number (float64/int64/bool storage).
Tensor wrap_number(Scalar s);

}  // namespace amps::rt
