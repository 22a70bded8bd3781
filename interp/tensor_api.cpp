// The tensor surface of the language: globals generated from the op table (functions and
// methods), dtype and device names, tensor(), tensor attributes and non-op methods, operators.
#include <fmt/format.h>

#include <map>
#include <set>

#include "interp/builtins.hpp"
#include "interp/generator_value.hpp"
#include "interp/operators.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::interp {

Value call_op_overloads(Interp& in, const std::vector<rt::OpId>& ops, CallArgs& a);
rt::Tensor tensor_from_data(const Value& data, std::optional<rt::DType> dtype, rt::Device device, const Span& where);
Value tensor_index(Interp& in, const rt::Tensor& t, const Value& key, const Span& where);
void tensor_set_index(Interp& in, const rt::Tensor& t, const Value& key, const Value& v, const Span& where);
Value tensor_method(Interp& in, const Value& self, Atom name);
void install_view_builtins(Interp& in);  // tensor_view_methods.cpp
void install_torch_predicates(Interp& in);  // torch_predicates.cpp
void install_torch_iinfo(Interp& in);       // torch_iinfo.cpp
void install_torch_numeric(Interp& in);     // torch_numeric.cpp
void install_torch_histograms(Interp& in);  // torch_histogram.cpp
void install_torch_aliases(Interp& in);     // torch_aliases.cpp

namespace {

// Ops grouped by script name (overloads such as max / max.dim share one), per visibility: global functions, tensor
// methods, and the members of module `linalg` (torch.linalg).
struct OpNames {
  std::map<std::string, std::vector<rt::OpId>> functions, methods, linalg, special;
};

// torch.linalg's functions that are the same ops as a global one (with the same arguments).
constexpr std::pair<std::string_view, rt::OpId> kLinalgAliases[] = {
    {"inv", rt::OpId::inverse}, {"cholesky", rt::OpId::cholesky}, {"matrix_power", rt::OpId::matrix_power}};

// PyTorch's alternative names (torch.clip, Tensor.arccos, ...): each is the target op under another name, a
// global function and a tensor method wherever the target is one.
constexpr std::pair<std::string_view, std::string_view> kOpAliases[] = {
    {"clip", "clamp"}, {"clip_", "clamp_"}, {"absolute", "abs"}, {"absolute_", "abs_"}, {"arccos", "acos"},
    {"arcsin", "asin"}, {"arctan", "atan"}, {"arctan2", "atan2"}, {"arccosh", "acosh"}, {"arcsinh", "asinh"},
    {"arctanh", "atanh"}, {"negative", "neg"}, {"negative_", "neg_"}, {"multiply", "mul"}, {"multiply_", "mul_"},
    {"subtract", "sub"}, {"subtract_", "sub_"}, {"divide", "div"}, {"divide_", "div_"}, {"true_divide", "div"},
    {"greater", "gt"}, {"greater_equal", "ge"}, {"less", "lt"}, {"less_equal", "le"}, {"not_equal", "ne"},
    {"fix", "trunc"}, {"sgn", "sign"}, {"swapaxes", "transpose"}, {"swapdims", "transpose"}, {"concat", "cat"},
    {"concatenate", "cat"}, {"ger", "outer"}, {"trapz", "trapezoid"},
    // in-place spellings
    {"arccos_", "acos_"}, {"arcsin_", "asin_"}, {"arctan_", "atan_"}, {"arctan2_", "atan2_"}, {"arccosh_", "acosh_"},
    {"arcsinh_", "asinh_"}, {"arctanh_", "atanh_"}, {"fix_", "trunc_"}, {"sgn_", "sign_"}, {"true_divide_", "div_"},
    {"greater_", "gt_"}, {"greater_equal_", "ge_"}, {"less_", "lt_"}, {"less_equal_", "le_"}, {"not_equal_", "ne_"}};

void add_aliases(std::map<std::string, std::vector<rt::OpId>>& table) {
  for (auto [alias, target] : kOpAliases) {
    auto it = table.find(std::string(target));
    if (it != table.end()) table.emplace(std::string(alias), it->second);
  }
}

// torch.special's names for global ops (the special_* ops join them under their name without the prefix).
constexpr std::pair<std::string_view, std::string_view> kSpecialAliases[] = {
    {"expit", "sigmoid"}, {"logit", "logit"}, {"erf", "erf"}, {"erfc", "erfc"}, {"erfinv", "erfinv"},
    {"exp2", "exp2"}, {"expm1", "expm1"}, {"log1p", "log1p"}, {"gammaln", "lgamma"}, {"digamma", "digamma"},
    {"psi", "digamma"}, {"polygamma", "polygamma"}, {"multigammaln", "mvlgamma"}, {"xlogy", "xlogy"},
    {"sinc", "sinc"}, {"round", "round"}, {"logsumexp", "logsumexp"}, {"softmax", "softmax"},
    {"log_softmax", "log_softmax"}, {"i0", "i0"}, {"gammainc", "igamma"}, {"gammaincc", "igammac"}};

const OpNames& op_names() {
  static const OpNames names = [] {
    OpNames n;
    constexpr std::string_view prefix = "linalg_";
    for (int i = 0; i < rt::op_count; ++i) {
      auto op = rt::OpId(i);
      std::string name(rt::op_name(op));
      if (rt::op_has(op, rt::opflag::fn)) n.functions[name].push_back(op);
      if (rt::op_has(op, rt::opflag::method)) n.methods[name].push_back(op);
      if (name.starts_with(prefix) && !rt::op_has(op, rt::opflag::internal))
        n.linalg[name.substr(prefix.size())].push_back(op);
      if (name.starts_with("special_")) n.special[name.substr(8)].push_back(op);
    }
    for (auto [name, op] : kLinalgAliases) n.linalg[std::string(name)].push_back(op);
    add_aliases(n.functions);
    add_aliases(n.methods);
    for (auto [name, target] : kSpecialAliases) n.special[std::string(name)] = n.functions.at(std::string(target));
    return n;
  }();
  return names;
}

// dtype= arguments also accept the builtins `float`, `int` and `bool` (float32, int64, bool).
std::optional<rt::DType> dtype_value(const Value& v) {
  if (v.is(ObjKind::DType)) return v.as<DTypeObj>()->dtype;
  if (v.is(ObjKind::Native)) {
    const std::string& n = v.as<Native>()->name;
    if (n == "float") return rt::DType::float32;
    if (n == "int") return rt::DType::int64;
    if (n == "bool") return rt::DType::bool_;
  }
  return std::nullopt;
}

// Rewrites builtin-type dtype keywords (dtype=float) into dtype values before op binding.
void normalize_dtype_kwargs(CallArgs& a) {
  for (auto& [k, v] : a.kw)
    if (*k == "dtype" && v.is(ObjKind::Native))
      if (auto d = dtype_value(v)) v = wrap_dtype(*d);
}

Value b_tensor(Interp& in, CallArgs& a) {
  ArgReader r(a, "tensor", {"data", "dtype", "device", "requires_grad"});
  std::optional<rt::DType> dt;
  if (r.has(1) && !r.get(1).is_none()) {
    dt = dtype_value(r.get(1));
    if (!dt) r.type_error(1, "a dtype");
  }
  rt::Device dev = r.has(2) && !r.get(2).is_none() ? device_of(r.get(2), a.span) : in.runtime().default_device();
  rt::Tensor t = tensor_from_data(r.required(0), dt, dev, a.span);
  if (r.bool_or(3, false)) t.set_requires_grad(true);
  return wrap(t);
}

Value b_device(Interp&, CallArgs& a) {
  ArgReader r(a, "device", {"spec"});
  return wrap_device(device_of(r.required(0), a.span));
}

// ---- tensor operators: + - * / // % ** @ & | ^ << >> ~ and comparisons, with numbers on either side
rt::OpId binary_op_id(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return rt::OpId::add;
    case BinaryOp::Sub: return rt::OpId::sub;
    case BinaryOp::Mul: return rt::OpId::mul;
    case BinaryOp::Div: return rt::OpId::div;
    case BinaryOp::FloorDiv: return rt::OpId::floor_divide;
    case BinaryOp::Mod: return rt::OpId::remainder;
    case BinaryOp::MatMul: return rt::OpId::matmul;
    case BinaryOp::Pow: return rt::OpId::pow;
    case BinaryOp::BitAnd: return rt::OpId::bitwise_and;
    case BinaryOp::BitOr: return rt::OpId::bitwise_or;
    case BinaryOp::BitXor: return rt::OpId::bitwise_xor;
    case BinaryOp::LShift: return rt::OpId::bitwise_left_shift;
    case BinaryOp::RShift: return rt::OpId::bitwise_right_shift;
  }
  return rt::OpId::add;
}

// Appends operand [v] to [args], constructed in place (no IValue temporary to move and destroy).
void push_operand(rt::Args& args, const Value& v, const Span& where) {
  if (const rt::Tensor* t = tensor_of(v)) args.emplace_back(*t);
  else if (v.is_bool()) args.emplace_back(v.as_bool());
  else if (v.is_int()) args.emplace_back(v.as_int());
  else if (v.is_float()) args.emplace_back(v.as_float());
  else args.emplace_back(to_tensor(v, where));
}

// An argument vector for one operator's dispatch, taken from a per-thread free list and given back
// cleared (capacity kept), so a tensor expression allocates no vector. Nested dispatches (a hook that
// runs script code) simply take another one.
class OperatorArgs {
 public:
  OperatorArgs() {
    std::vector<rt::Args>& p = pool();
    if (!p.empty()) {
      args_ = std::move(p.back());
      p.pop_back();
    }
  }
  ~OperatorArgs() {
    args_.clear();
    std::vector<rt::Args>& p = pool();
    if (p.size() < 8) p.push_back(std::move(args_));
  }
  OperatorArgs(const OperatorArgs&) = delete;
  OperatorArgs& operator=(const OperatorArgs&) = delete;
  rt::Args& get() { return args_; }

 private:
  static std::vector<rt::Args>& pool() {
    thread_local std::vector<rt::Args> p;
    return p;
  }
  rt::Args args_;
};

Value tensor_binary(Interp& in, BinaryOp op, const Value& a, const Value& b, const Span& where) {
  if ((a.is(ObjKind::Instance) || b.is(ObjKind::Instance))) return Value::undef();
  return guarded(where, [&] {
    const rt::OpId id = binary_op_id(op);
    OperatorArgs pooled;
    rt::Args& args = pooled.get();
    args.reserve(rt::op_parsed_schema(id).args.size());  // room for the defaults dispatch appends
    push_operand(args, a, where);
    push_operand(args, b, where);
    rt::Tensors out;
    {
      Interp::AllowThreads allow(in);
      out = rt::dispatch(id, args);
    }
    return wrap(std::move(out[0]));
  });
}

// `t op= v`: PyTorch's in-place operators (add_, sub_, mul_, div_, pow_; floor division and remainder as the op
// followed by copy_ into t, the same dtype rule); t itself comes back. `@=` is refused as by PyTorch.
Value tensor_inplace(Interp& in, BinaryOp op, const Value& a, const Value& b, const Span& where) {
  if (b.is(ObjKind::Instance)) return Value::undef();
  if (op == BinaryOp::MatMul)
    Interp::fail("RuntimeError", "In-place matmul is not supported. Use 'a = a @ b' instead of 'a @= b'.", where);
  guarded(where, [&] {
    rt::Args args;
    push_operand(args, a, where);
    push_operand(args, b, where);
    Interp::AllowThreads allow(in);
    switch (op) {
      case BinaryOp::Add: rt::dispatch(rt::OpId::add_, args); break;
      case BinaryOp::Sub: rt::dispatch(rt::OpId::sub_, args); break;
      case BinaryOp::Mul: rt::dispatch(rt::OpId::mul_, args); break;
      case BinaryOp::Div: rt::dispatch(rt::OpId::div_, args); break;
      case BinaryOp::Pow: rt::dispatch(rt::OpId::pow_, args); break;
      default: {
        rt::Tensor result = rt::dispatch(binary_op_id(op), args)[0];
        rt::dispatch(rt::OpId::copy_, {*tensor_of(a), result});
      }
    }
    return Value();
  });
  return a;
}

Value tensor_compare(Interp&, CompareOp op, const Value& a, const Value& b, const Span& where) {
  static const rt::OpId ids[] = {rt::OpId::eq, rt::OpId::ne, rt::OpId::lt, rt::OpId::le, rt::OpId::gt, rt::OpId::ge};
  return guarded(where, [&] {
    OperatorArgs pooled;
    rt::Args& args = pooled.get();
    push_operand(args, a, where);
    push_operand(args, b, where);
    return wrap(rt::dispatch(ids[int(op)], args)[0]);
  });
}

Value tensor_unary(Interp&, UnaryOp op, const Value& a, const Span& where) {
  if (op == UnaryOp::Pos) return a;
  return guarded(where, [&] {
    OperatorArgs pooled;
    rt::Args& args = pooled.get();
    push_operand(args, a, where);
    return wrap(rt::dispatch(op == UnaryOp::Neg ? rt::OpId::neg : rt::OpId::bitwise_not, args)[0]);
  });
}

// The ops whose tensor list may be given as separate positional tensors (PyTorch's *tensors; the stacking family
// takes a list in PyTorch, and the separate form too here).
const std::set<std::string> kVariadicOps = {"meshgrid", "chain_matmul", "broadcast_tensors", "block_diag",
                                            "cartesian_prod", "hstack", "vstack", "row_stack", "dstack",
                                            "column_stack"};

// einsum(eq, a, b, ...) and meshgrid(a, b, ...) as PyTorch: the tensors from positional argument [first] on become
// the op's one tensor list (a list given there alone is used as it is).
void pack_operands(CallArgs& a, size_t first) {
  if (a.pos.size() == first + 1 && (a.pos[first].is(ObjKind::List) || a.pos[first].is(ObjKind::Tuple))) return;
  if (a.pos.size() < first) return;
  std::vector<Value> operands(a.pos.begin() + first, a.pos.end());
  a.pos.resize(first);
  a.pos.push_back(make_list(std::move(operands)));
}

// tensordot(a, b, dims=2) as torch.tensordot: dims an int n (a's last n dims against b's first n) or a pair of dim
// lists (or of single dims) becomes the op's dims_self and dims_other.
void tensordot_dims(CallArgs& a) {
  Value dims = Value(int64_t(2));
  for (auto it = a.kw.begin(); it != a.kw.end(); ++it)
    if (*it->first == "dims") {
      dims = it->second;
      a.kw.erase(it);
      break;
    }
  if (a.pos.size() == 3) dims = a.pos[2];
  if (a.pos.size() != 3 && a.pos.size() != 2) return;  // the op's binder reports the arity
  a.pos.resize(2);
  if (dims.is_int()) {
    if (dims.as_int() < 0)
      Interp::fail("RuntimeError", fmt::format("tensordot expects dims >= 0, but got dims={}", dims.as_int()), a.span);
    std::vector<Value> da, db;
    for (int64_t i = 0; i < dims.as_int(); ++i) da.push_back(Value(i - dims.as_int())), db.push_back(Value(i));
    a.pos.push_back(make_list(std::move(da)));
    a.pos.push_back(make_list(std::move(db)));
    return;
  }
  const std::vector<Value>* pair = dims.is(ObjKind::List) ? &dims.as<List>()->items
                                   : dims.is(ObjKind::Tuple) ? &dims.as<Tuple>()->items : nullptr;
  if (!pair || pair->size() != 2)
    Interp::fail("TypeError", "tensordot: dims must be an int or a pair of dim lists", a.span);
  for (const Value& d : *pair) a.pos.push_back(d.is_int() ? make_list(std::vector<Value>{d}) : d);
}

void install_dtypes_and_devices(Interp& in) {
  static const std::pair<const char*, rt::DType> names[] = {
      {"float32", rt::DType::float32}, {"f32", rt::DType::float32}, {"float16", rt::DType::float16},
      {"f16", rt::DType::float16}, {"half", rt::DType::float16}, {"bfloat16", rt::DType::bfloat16},
      {"bf16", rt::DType::bfloat16}, {"float64", rt::DType::float64}, {"f64", rt::DType::float64},
      {"double", rt::DType::float64}, {"int64", rt::DType::int64}, {"int32", rt::DType::int32},
      {"int16", rt::DType::int16}, {"short", rt::DType::int16}, {"int8", rt::DType::int8}, {"uint8", rt::DType::uint8}};
  for (auto& [name, dt] : names) in.def_global(name, wrap_dtype(dt));
  in.def_global("cpu", wrap_device(rt::Device::cpu()));
  in.def_global("cuda", wrap_device(rt::Device::cuda(0)));
  in.def_global("xla", wrap_device({rt::DeviceType::xla, 0}));
  in.def_global("xpu", wrap_device({rt::DeviceType::xpu, 0}));
  def_type(in, "device", b_device);
  in.def_global("dtype", Value(in.types().named("dtype")));   // torch.dtype: isinstance(x, dtype); not constructible
}

}  // namespace

// Module [name] (linalg, special) whose functions are the op groups of [table], called as the globals are.
static void def_op_module(Interp& in, const std::string& name,
                          const std::map<std::string, std::vector<rt::OpId>>& table) {
  in.def_module(name, [name, &table](Interp&, Module& m) {
    for (auto& [fn, ops] : table) {
      const std::vector<rt::OpId>* group = &ops;
      m.attrs[intern(fn)] = make<Native>(name + "." + fn, [group](Interp& i, CallArgs& a) {
        normalize_dtype_kwargs(a);
        return call_op_overloads(i, *group, a);
      });
    }
  });
}

void install_tensor_builtins(Interp& in) {
  static bool hooks_set = [] {
    set_tensor_operator_hooks({tensor_binary, tensor_compare, tensor_unary, tensor_inplace});
    return true;
  }();
  (void)hooks_set;
  for (auto& [name, ops] : op_names().functions) {
    const std::vector<rt::OpId>* group = &ops;
    // A name shared with a Python builtin (max, sum, abs, ...) serves both: tensors go to the op.
    Value builtin = in.lookup_global(name);
    // the position from which positional tensors form the op's list (SIZE_MAX: none)
    const size_t variadic_from = name == "einsum" ? 1 : kVariadicOps.contains(name) ? 0 : SIZE_MAX;
    const bool tensordot = name == "tensordot";
    in.def_native(name, [group, builtin, variadic_from, tensordot](Interp& i, CallArgs& a) {
      if (!builtin.is_undef() && (a.pos.empty() || !a.pos[0].is(ObjKind::Tensor))) return i.call(builtin, a);
      if (variadic_from != SIZE_MAX) pack_operands(a, variadic_from);
      if (tensordot) tensordot_dims(a);
      normalize_dtype_kwargs(a);
      return call_op_overloads(i, *group, a);
    });
  }
  def_op_module(in, "linalg", op_names().linalg);
  def_op_module(in, "special", op_names().special);
  in.def_native("tensor", b_tensor);
  in.def_native("allclose", b_allclose);
  in.def_native("equal", b_equal);
  in.def_native("unique", b_unique);
  in.def_native("unique_consecutive", b_unique_consecutive);
  in.def_native("lu", b_lu);
  install_view_builtins(in);
  install_torch_predicates(in);
  install_torch_iinfo(in);
  install_torch_numeric(in);
  install_torch_histograms(in);
  install_torch_aliases(in);
  install_generator_builtins(in);
  install_dtypes_and_devices(in);
}

// Method `name` of a tensor as a native taking the tensor as its first argument, or undef.
Value op_method(Atom name) {
  auto& methods = op_names().methods;
  auto it = methods.find(*name);
  if (it == methods.end()) return Value::undef();
  const std::vector<rt::OpId>* group = &it->second;
  return make<Native>(*name, [group](Interp& i, CallArgs& a) {
    normalize_dtype_kwargs(a);
    return call_op_overloads(i, *group, a);
  });
}

std::optional<rt::DType> script_dtype(const Value& v) { return dtype_value(v); }

// allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=false): isclose everywhere, as a bool (one host read).
Value b_allclose(Interp& in, CallArgs& a) {
  Value close = call_op(in, rt::OpId::isclose, a);
  return Value(rt::dispatch(rt::OpId::all, {to_tensor(close, a.span)})[0].item<bool>());
}

// unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None), torch.unique: the distinct values
// (ascending), with each element's index among them and/or their counts when asked (a tuple then, in that order).
// The values alone, or a tuple with the inverse indices and/or counts that were asked for (torch.unique's returns).
Value unique_returns(const rt::Tensors& out, bool inverse, bool counts) {
  if (!inverse && !counts) return wrap(out[0]);
  std::vector<Value> items{wrap(out[0])};
  if (inverse) items.push_back(wrap(out[1]));
  if (counts) items.push_back(wrap(out[2]));
  return make_tuple(std::move(items));
}

// unique(input, sorted=true, return_inverse=false, return_counts=false, dim=none): distinct elements, or distinct
// slices along dim.
Value b_unique(Interp& in, CallArgs& a) {
  ArgReader r(a, "unique", {"input", "sorted", "return_inverse", "return_counts", "dim"});
  const rt::Tensor x = to_tensor(r.required(0), a.span);
  const bool inverse = r.has(2) && in.truthy(r.get(2)), counts = r.has(3) && in.truthy(r.get(3));
  const bool sorted = !r.has(1) || in.truthy(r.get(1));
  if (r.has(4) && !r.get(4).is_none())
    return unique_returns(rt::dispatch(rt::OpId::unique_dim, {x, r.get(4).as_int(), sorted, inverse, counts}), inverse,
                          counts);
  return unique_returns(rt::dispatch(rt::OpId::_unique2, {x, sorted, inverse, counts}), inverse, counts);
}

// unique_consecutive(input, return_inverse=false, return_counts=false, dim=none): consecutive repeats merged.
Value b_unique_consecutive(Interp& in, CallArgs& a) {
  ArgReader r(a, "unique_consecutive", {"input", "return_inverse", "return_counts", "dim"});
  const rt::Tensor x = to_tensor(r.required(0), a.span);
  const bool inverse = r.has(1) && in.truthy(r.get(1)), counts = r.has(2) && in.truthy(r.get(2));
  const rt::IValue dim = r.has(3) && !r.get(3).is_none() ? rt::IValue(r.get(3).as_int()) : rt::IValue();
  return unique_returns(rt::dispatch(rt::OpId::unique_consecutive, {x, inverse, counts, dim}), inverse, counts);
}

// equal(input, other): the same shape and equal elements, as a bool.
Value b_equal(Interp& in, CallArgs& a) {
  ArgReader r(a, "equal", {"input", "other"});
  const rt::Tensor x = to_tensor(r.get(0), a.span), y = to_tensor(r.get(1), a.span);
  if (x.sizes() != y.sizes()) return Value(false);
  return Value(rt::dispatch(rt::OpId::all, {rt::dispatch(rt::OpId::eq, {x, y})[0]})[0].item<bool>());
}

// lu(A, pivot=True, get_infos=False): the op _lu_with_info (so autocast sees torch.lu's op), its info returned only
// when asked for.
Value b_lu(Interp& in, CallArgs& a) {
  ArgReader r(a, "lu", {"A", "pivot", "get_infos"});
  const rt::Tensor x = to_tensor(r.required(0), a.span);
  const bool pivot = !r.has(1) || in.truthy(r.get(1)), infos = r.has(2) && in.truthy(r.get(2));
  rt::Tensors out = rt::dispatch(rt::OpId::_lu_with_info, {x, pivot, !infos});
  std::vector<Value> items{wrap(out[0]), wrap(out[1])};
  if (infos) items.push_back(wrap(out[2]));
  return make_tuple(std::move(items));
}

}  // namespace amps::interp
