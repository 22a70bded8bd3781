// ArgReader conversions and the TypeError texts ("mm(): argument 'mat2' (position 2) must be Tensor, not str").
#include "runtime/arg_reader.hpp"

#include "runtime/error.hpp"
#include "runtime/schema.hpp"

namespace amps::rt {

using K = IValue::Kind;

void ArgReader::type_fail(size_t i, std::string_view expected) const {
  const Schema& s = op_parsed_schema(op_);
  std::string_view name = i < s.args.size() ? std::string_view(s.args[i].name) : "?";
  throw Error("TypeError", fmt::format("{}(): argument '{}' (position {}) must be {}, not {}", op_name(op_), name,
                                       i + 1, expected, args_[i].type_name()));
}

Tensor wrap_number(Scalar s) {
  DType dt = s.is_floating() ? DType::float64 : s.is_integral() ? DType::int64 : DType::bool_;
  Tensor t = Tensor::scalar(s, dt);
  t.impl()->is_wrapped_number = true;
  return t;
}

Tensor ArgReader::tensor(size_t i) const {
  const IValue& v = args_[i];
  if (v.is_tensor() && v.tensor().defined()) return v.tensor();
  if (v.is_number()) return wrap_number(v.scalar());
  type_fail(i, "Tensor");
}

Tensor ArgReader::opt_tensor(size_t i) const { return args_[i].is_none() ? Tensor() : tensor(i); }

std::vector<Tensor> ArgReader::tensors(size_t i) const {
  if (args_[i].kind() != K::tensor_list) type_fail(i, "tuple of Tensors");
  return args_[i].tensors();
}

int64_t ArgReader::i64(size_t i) const {
  const IValue& v = args_[i];
  if (v.kind() == K::int_) return v.i64();
  if (v.kind() == K::bool_) return v.boolean();
  type_fail(i, "int");
}

std::optional<int64_t> ArgReader::opt_i64(size_t i) const {
  return args_[i].is_none() ? std::nullopt : std::optional<int64_t>(i64(i));
}

double ArgReader::f64(size_t i) const {
  if (!args_[i].is_number()) type_fail(i, "float");
  return args_[i].scalar().to_double();
}

std::optional<double> ArgReader::opt_f64(size_t i) const {
  return args_[i].is_none() ? std::nullopt : std::optional<double>(f64(i));
}

bool ArgReader::boolean(size_t i) const {
  if (args_[i].kind() != K::bool_) type_fail(i, "bool");
  return args_[i].boolean();
}

Scalar ArgReader::scalar(size_t i) const {
  const IValue& v = args_[i];
  if (v.is_number()) return v.scalar();
  if (v.is_tensor() && v.tensor().defined() && v.tensor().numel() == 1) return v.tensor().item();
  type_fail(i, "Number");
}

std::optional<Scalar> ArgReader::opt_scalar(size_t i) const {
  return args_[i].is_none() ? std::nullopt : std::optional<Scalar>(scalar(i));
}

Dims ArgReader::ints(size_t i, size_t n) const {
  const IValue& v = args_[i];
  Dims out;
  if (v.kind() == K::int_list) out = v.ints();
  else if (v.kind() == K::int_) out = Dims{v.i64()};
  else type_fail(i, "tuple of ints");
  if (n > 0 && out.size() == 1 && n != 1) out = Dims(n, out[0]);
  if (n > 0 && out.size() != n) {
    const Schema& s = op_parsed_schema(op_);
    AMPS_FAIL("{}(): argument '{}' must be a single int or a list of {} ints, got {} values", op_name(op_),
              i < s.args.size() ? std::string_view(s.args[i].name) : "?", n, out.size());
  }
  return out;
}

std::optional<Dims> ArgReader::opt_ints(size_t i) const {
  return args_[i].is_none() ? std::nullopt : std::optional<Dims>(ints(i));
}

std::optional<DType> ArgReader::opt_dtype(size_t i) const {
  if (args_[i].is_none()) return std::nullopt;
  if (args_[i].kind() != K::dtype) type_fail(i, "torch.dtype");
  return args_[i].dtype();
}

std::optional<Device> ArgReader::opt_device(size_t i) const {
  if (args_[i].is_none()) return std::nullopt;
  if (args_[i].kind() == K::string) return device_from_string(args_[i].str());
  if (args_[i].kind() != K::device) type_fail(i, "torch.device");
  return args_[i].device();
}

std::string ArgReader::str(size_t i) const {
  if (args_[i].kind() != K::string) type_fail(i, "str");
  return args_[i].str();
}

std::optional<std::string> ArgReader::opt_str(size_t i) const {
  return args_[i].is_none() ? std::nullopt : std::optional<std::string>(str(i));
}

}  // namespace amps::rt
