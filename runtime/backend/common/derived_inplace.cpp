// In-place ops derived from their out-of-place op (see derived_inplace.hpp).
#include "runtime/backend/common/derived_inplace.hpp"

#include "runtime/arg_reader.hpp"
#include "runtime/backend/backend.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/shape.hpp"

namespace amps::rt::common {
namespace {

using O = OpId;

// The in-place ops whose kernel is derived here; each is named (its id in ops.def) as its out-of-place op plus "_",
// with the same arguments minus out=.
constexpr OpId kDerived[] = {
    O::floor_, O::ceil_, O::round_, O::trunc_, O::frac_, O::sin_, O::cos_, O::tan_, O::sinh_, O::cosh_,
    O::asin_, O::acos_, O::atan_, O::asinh_, O::acosh_, O::atanh_, O::exp2_, O::expm1_, O::log2_, O::log10_,
    O::log1p_, O::rsqrt_, O::square_, O::reciprocal_, O::sign_, O::erf_, O::erfc_, O::erfinv_, O::lgamma_,
    O::digamma_, O::sinc_, O::deg2rad_, O::rad2deg_, O::logical_not_, O::mvlgamma_, O::logit_, O::atan2_,
    O::hypot_, O::xlogy_, O::heaviside_, O::fmod_, O::remainder_, O::floor_divide_, O::float_power_, O::eq_,
    O::ne_, O::lt_, O::le_, O::gt_, O::ge_, O::logical_and_, O::logical_or_, O::addmv_, O::addr_, O::addbmm_,
    O::baddbmm_, O::copysign_, O::nextafter_, O::ldexp_, O::i0_, O::igamma_, O::igammac_, O::gcd_, O::lcm_,
    O::logical_xor_, O::clamp_min_, O::clamp_max_, O::bitwise_and_, O::bitwise_or_, O::bitwise_xor_,
    O::bitwise_not_, O::bitwise_left_shift_, O::bitwise_right_shift_, O::round_decimals_,
    O::polygamma_method_};

OpId base_of(OpId op) {
  std::string_view id = op_id_name(op);
  std::optional<OpId> base = op_from_id_name(id.substr(0, id.size() - 1));
  AMPS_ASSERT(base.has_value(), "derived in-place op without an out-of-place op");
  return *base;
}

// X(args...) for X_(args...): the same arguments, the out-of-place op's defaults (out=None) appended.
Tensor run_base(OpId base, const Args& args) {
  Args b(args.begin(), args.end());
  return dispatch(base, b)[0];
}

// Writes [src] into [self] on [self]'s backend without a second version bump (dispatch already bumped it).
void write_into(const Tensor& self, const Tensor& src, const KernelContext& kc) {
  Args args{self, src};
  complete_args(O::copy_, args);
  backend_for(kc.device.type)->run(O::copy_, args, kc);
}

// The kernel of every op in kDerived.
Tensors derived_kernel(const ArgReader& a, const KernelContext& kc) {
  const Tensor self = a.tensor(0);
  const Tensor result = run_base(base_of(a.op()), a.args());
  check_inplace_result(a.op(), self, result);
  write_into(self, result, kc);
  return {self};
}

}  // namespace

std::optional<OpId> inplace_base(OpId op) {
  if (!op_has(op, opflag::inplace) || op == O::copy_ || op == O::zero_ || op == O::fill_ || op_has(op, opflag::random))
    return std::nullopt;
  std::string_view id = op_id_name(op);
  return op_from_id_name(id.substr(0, id.size() - 1));
}

void check_inplace_result(OpId op, const Tensor& self, const Tensor& result) {
  AMPS_CHECK(result.sizes() == self.sizes(), "{}: output with shape {} doesn't match the broadcast shape {}",
             op_name(op), format_shape(self.sizes()), format_shape(result.sizes()));
  const DType from = result.dtype(), to = self.dtype();
  AMPS_CHECK(op != O::float_power_ || to == DType::float64, "the base given to float_power_ has dtype {} but the "
             "operation's result requires dtype Double", dtype_name(to));
  const bool ok = !(is_floating(from) && !is_floating(to)) && !(from != DType::bool_ && to == DType::bool_);
  AMPS_CHECK(ok, "{}: result type {} can't be cast to the desired output type {}", op_name(op), dtype_name(from),
             dtype_name(to));
}

Tensors decompose_inplace(OpId op, OpId base, Args& args) {
  Tensor self = args[0].tensor();
  Args b(args.begin(), args.end());
  b[0] = IValue(call_op(O::clone, self));
  const Tensor result = dispatch(base, b)[0];
  check_inplace_result(op, self, result);
  call_op(O::copy_, self, result);
  return {self};
}

void register_derived_inplace_kernels(cpu::KernelTable& t) {
  for (OpId op : kDerived) t.add(op, derived_kernel);
}

}  // namespace amps::rt::common
