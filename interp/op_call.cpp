// Calling table ops from scripts: script values → schema-ordered IValues (positional,
// keyword, defaults, `zeros(2, 3)`-style size varargs), dispatch, results → script values.
#include <fmt/format.h>

#include "interp/generator_value.hpp"
#include "interp/tensor_value.hpp"
#include "runtime/error.hpp"

namespace amps::interp {

void warn_deprecated_mask(Interp& in, rt::OpId op, const rt::Args& args, const Span& where);  // op_warnings.cpp

namespace {

bool is_int(const Value& v) { return v.is_int() || v.is_bool(); }

// `zeros(2, 3)` / `x.view(2, 3)`: extra trailing ints fold into the last positional int[] arg.
void pack_size_varargs(const rt::Schema& s, std::vector<Value>& pos) {
  size_t positional = 0;
  while (positional < s.args.size() && !s.args[positional].kwarg_only) ++positional;
  if (positional == 0 || pos.size() <= positional) return;
  const rt::SchemaArg& last = s.args[positional - 1];
  if (last.type != "int" || !last.list) return;
  for (size_t i = positional - 1; i < pos.size(); ++i)
    if (!is_int(pos[i])) return;
  std::vector<Value> dims(pos.begin() + positional - 1, pos.end());
  pos.resize(positional - 1);
  pos.push_back(make_tuple(std::move(dims)));
}

// Places each argument at its schema position; empty optionals are the unset ones.
bool place_args(const rt::Schema& s, CallArgs& a, std::vector<std::optional<Value>>& slots, std::string& why) {
  std::vector<Value> pos = a.pos;
  pack_size_varargs(s, pos);
  slots.assign(s.args.size(), std::nullopt);
  size_t positional = 0;
  while (positional < s.args.size() && !s.args[positional].kwarg_only) ++positional;
  if (pos.size() > positional) {
    why = fmt::format("takes {} positional argument{} but {} were given", positional, positional == 1 ? "" : "s", pos.size());
    return false;
  }
  for (size_t i = 0; i < pos.size(); ++i) slots[i] = pos[i];
  for (auto& [key, val] : a.kw) {
    int i = s.find_arg(*key);
    Value v = val;
    // var/std's older unbiased= (PyTorch still takes it): correction 1 when true, 0 when false
    if (i < 0 && *key == "unbiased" && (val.is_bool() || val.is_int()) && (i = s.find_arg("correction")) >= 0)
      v = Value(int64_t(val.as_int() != 0));
    if (i < 0) { why = fmt::format("got an unexpected keyword argument '{}'", *key); return false; }
    if (slots[i]) { why = fmt::format("got multiple values for argument '{}'", *key); return false; }
    slots[i] = v;
  }
  return true;
}

bool bind(const rt::Schema& s, CallArgs& a, rt::Args& out, std::string& why) {
  std::vector<std::optional<Value>> slots;
  if (!place_args(s, a, slots, why)) return false;
  out.clear();
  out.reserve(s.args.size());
  for (size_t i = 0; i < s.args.size(); ++i) {
    const rt::SchemaArg& arg = s.args[i];
    if (!slots[i]) {
      if (!arg.has_default && !arg.optional) { why = fmt::format("missing required argument '{}'", arg.name); return false; }
      out.push_back(arg.has_default ? arg.default_value : rt::IValue());
      continue;
    }
    rt::IValue iv;
    if (!to_ivalue(*slots[i], arg, iv, why)) return false;
    out.push_back(std::move(iv));
  }
  return true;
}

// Runs the op with the interpreter lock released (other script threads may evaluate meanwhile).
rt::Tensors dispatch_unlocked(Interp& in, rt::OpId op, rt::Args& args) {
  Interp::AllowThreads allow(in);
  return rt::dispatch(op, args);
}

Value results(const rt::Schema& s, rt::Tensors&& ts, const CallArgs& a) {
  if (s.returns.empty()) return Value();
  if (s.returns.size() == 1 && s.returns[0].type.starts_with("Tensor[]")) {
    std::vector<Value> items;
    for (auto& t : ts) items.push_back(wrap(std::move(t)));
    return make_tuple(std::move(items));
  }
  if (s.returns.size() == 1) return wrap_result(std::move(ts.at(0)), a);
  std::vector<Value> items;
  for (auto& t : ts) items.push_back(wrap_result(std::move(t), a));
  Value r = make_tuple(std::move(items));
  if (!s.return_names.empty()) r.as<Tuple>()->field_names = &s.return_names;
  return r;
}

}  // namespace

// PyTorch keeps one Python object per TensorImpl, so a result that is one of the call's tensor arguments (an in-place
// method, out=, x.contiguous() of a contiguous tensor) comes back as that argument's object. Other results are new.
Value wrap_result(rt::Tensor t, const CallArgs& a) {
  auto same = [&](const Value& v) {
    const rt::Tensor* arg = tensor_of(v);
    return arg && arg->defined() && arg->impl() == t.impl();
  };
  for (const Value& v : a.pos)
    if (same(v)) return v;
  for (const auto& [key, v] : a.kw)
    if (same(v)) return v;
  return wrap(std::move(t));
}

Value call_op(Interp& in, rt::OpId op, CallArgs& a) {
  const rt::Schema& s = rt::op_parsed_schema(op);
  rt::Args args;
  std::string why;
  if (!bind(s, a, args, why)) Interp::fail("TypeError", fmt::format("{}() {}", s.name, why), a.span);
  warn_deprecated_mask(in, op, args, a.span);
  return results(s, dispatch_unlocked(in, op, args), a);
}

// An overloaded name (max / max.dim): the first overload whose schema accepts the arguments. A random op given
// generator= draws from it (GeneratorArg).
Value call_op_overloads(Interp& in, const std::vector<rt::OpId>& ops, CallArgs& a) {
  const GeneratorArg generator(ops, a);
  if (ops.size() == 1) return call_op(in, ops[0], a);
  std::string why, all;
  for (rt::OpId op : ops) {
    const rt::Schema& s = rt::op_parsed_schema(op);
    rt::Args args;
    if (bind(s, a, args, why)) {
      warn_deprecated_mask(in, op, args, a.span);
      return results(s, dispatch_unlocked(in, op, args), a);
    }
    all += fmt::format("\n  {}: {}", rt::op_schema(op), why);
  }
  Interp::fail("TypeError", fmt::format("{}() received an invalid combination of arguments; the overloads are:{}",
                                        rt::op_name(ops[0]), all), a.span);
}

}  // namespace amps::interp
