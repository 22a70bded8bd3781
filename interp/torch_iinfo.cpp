// iinfo(dtype): the machine limits of an integer dtype (torch.iinfo): bits, min, max and the dtype's name, printed as
// PyTorch 1.13 prints them (its C++ stream formatting of min and max: 6 significant digits).
#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "interp/builtins.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {
namespace {

struct IInfoObj : Opaque {
  explicit IInfoObj(rt::DType d) : dtype(d) {}
  std::string type_name() const override { return "iinfo"; }
  std::string repr() const override {
    return fmt::format("iinfo(min={:g}, max={:g}, dtype={})", double(min()), double(max()), rt::dtype_name(dtype));
  }
  Value get_attr(Interp&, Atom name) override {
    if (*name == "bits") return Value(int64_t(rt::dtype_size(dtype) * 8));
    if (*name == "min") return Value(min());
    if (*name == "max") return Value(max());
    if (*name == "dtype") return make_str(std::string(rt::dtype_name(dtype)));
    return Value::undef();
  }
  int64_t min() const {
    switch (dtype) {
      case rt::DType::int64: return std::numeric_limits<int64_t>::min();
      case rt::DType::int32: return std::numeric_limits<int32_t>::min();
      case rt::DType::int16: return std::numeric_limits<int16_t>::min();
      case rt::DType::int8: return std::numeric_limits<int8_t>::min();
      default: return 0;  // uint8
    }
  }
  int64_t max() const {
    switch (dtype) {
      case rt::DType::int64: return std::numeric_limits<int64_t>::max();
      case rt::DType::int32: return std::numeric_limits<int32_t>::max();
      case rt::DType::int16: return std::numeric_limits<int16_t>::max();
      case rt::DType::int8: return std::numeric_limits<int8_t>::max();
      default: return std::numeric_limits<uint8_t>::max();
    }
  }
  rt::DType dtype;
};

// PyTorch's refusals: a floating dtype points at finfo (its message, quirks included), bool is not supported.
Value b_iinfo(Interp&, CallArgs& a) {
  ArgReader r(a, "iinfo", {"type"});
  const std::optional<rt::DType> d = script_dtype(r.required(0));  // a dtype, or the builtins int and bool
  if (!d) r.type_error(0, "a dtype");
  const rt::DType dt = *d;
  if (rt::is_floating(dt))
    Interp::fail("TypeError", "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'",
                 a.span);
  if (dt == rt::DType::bool_) Interp::fail("TypeError", "torch.bool is not supported by torch.iinfo", a.span);
  return make<IInfoObj>(dt);
}

}  // namespace

void install_torch_iinfo(Interp& in) { def_type(in, "iinfo", b_iinfo); }

}  // namespace amps::interp
