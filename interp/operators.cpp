// Operators on values (see operators.hpp).
#include "interp/operators.hpp"

#include <fmt/format.h>

#include <cmath>

#include "interp/builtins.hpp"
#include "interp/interp.hpp"
#include "interp/methods.hpp"
#include "interp/tensor_value.hpp"

namespace amps::interp {
namespace {

TensorOperatorHooks g_hooks;   // set once at startup, before any interpreter runs

const char* method_for(BinaryOp op) {
  static const char* names[] = {"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__matmul__", "__pow__",
                                "__and__", "__or__", "__xor__", "__lshift__", "__rshift__"};
  return names[int(op)];
}
const char* rmethod_for(BinaryOp op) {
  static const char* names[] = {"__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rmatmul__", "__rpow__",
                                "__rand__", "__ror__", "__rxor__", "__rlshift__", "__rrshift__"};
  return names[int(op)];
}

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b, const Span& where) {
  Interp::fail("TypeError", fmt::format("unsupported operand types for {}: '{}' and '{}'", binary_op_symbol(op),
                                        type_name(a), type_name(b)), where);
}

void check_overflow(bool overflow, const Span& where) {
  if (overflow) Interp::fail("OverflowError", "integer result does not fit in 64 bits", where);
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

Value int_pow(int64_t base, int64_t exp, const Span& where) {
  if (exp < 0) return Value(std::pow(double(base), double(exp)));
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1) check_overflow(__builtin_mul_overflow(result, base, &result), where);
    exp >>= 1;
    if (exp > 0) check_overflow(__builtin_mul_overflow(base, base, &base), where);
  }
  return Value(result);
}

Value int_arith(BinaryOp op, int64_t a, int64_t b, const Span& where) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::Add: check_overflow(__builtin_add_overflow(a, b, &r), where); return Value(r);
    case BinaryOp::Sub: check_overflow(__builtin_sub_overflow(a, b, &r), where); return Value(r);
    case BinaryOp::Mul: check_overflow(__builtin_mul_overflow(a, b, &r), where); return Value(r);
    case BinaryOp::Div:
      if (b == 0) Interp::fail("ZeroDivisionError", "division by zero", where);
      return Value(double(a) / double(b));
    case BinaryOp::FloorDiv:
      if (b == 0) Interp::fail("ZeroDivisionError", "integer division by zero", where);
      check_overflow(b == -1 && a == INT64_MIN, where);  // 2**63 (the hardware division would trap)
      return Value(floor_div(a, b));
    case BinaryOp::Mod:
      if (b == 0) Interp::fail("ZeroDivisionError", "integer modulo by zero", where);
      if (b == -1) return Value(int64_t(0));
      return Value(a - floor_div(a, b) * b);
    case BinaryOp::Pow: return int_pow(a, b, where);
    default: return Value::undef();
  }
}

bool is_bitwise(BinaryOp op) { return op >= BinaryOp::BitAnd; }

// Python's & | ^ << >> on ints and bools: bools give a bool for & | ^ (True & False is False); a negative shift
// count is a ValueError, a left shift past 64 bits an OverflowError (Python's ints would grow).
Value int_bitwise(BinaryOp op, const Value& va, const Value& vb, const Span& where) {
  const int64_t a = va.as_int(), b = vb.as_int();
  const bool both_bool = va.is_bool() && vb.is_bool();
  switch (op) {
    case BinaryOp::BitAnd: return both_bool ? Value(bool(a & b)) : Value(a & b);
    case BinaryOp::BitOr: return both_bool ? Value(bool(a | b)) : Value(a | b);
    case BinaryOp::BitXor: return both_bool ? Value(bool(a ^ b)) : Value(a ^ b);
    default: break;
  }
  if (b < 0) Interp::fail("ValueError", "negative shift count", where);
  if (op == BinaryOp::RShift) return Value(b >= 63 ? (a < 0 ? int64_t(-1) : int64_t(0)) : a >> b);
  if (a == 0) return Value(int64_t(0));
  check_overflow(b >= 63 || (a > 0 ? a > (INT64_MAX >> b) : a < (INT64_MIN >> b)), where);
  return Value(int64_t(uint64_t(a) << b));
}

Value float_arith(BinaryOp op, double a, double b, const Span& where) {
  switch (op) {
    case BinaryOp::Add: return Value(a + b);
    case BinaryOp::Sub: return Value(a - b);
    case BinaryOp::Mul: return Value(a * b);
    case BinaryOp::Div:
      if (b == 0) Interp::fail("ZeroDivisionError", "float division by zero", where);
      return Value(a / b);
    case BinaryOp::FloorDiv:
      if (b == 0) Interp::fail("ZeroDivisionError", "float floor division by zero", where);
      return Value(std::floor(a / b));
    case BinaryOp::Mod: {
      if (b == 0) Interp::fail("ZeroDivisionError", "float modulo by zero", where);
      double m = std::fmod(a, b);
      return Value((m != 0 && ((m < 0) != (b < 0))) ? m + b : m);
    }
    case BinaryOp::Pow:
      if (a == 0 && b < 0) Interp::fail("ZeroDivisionError", "0.0 cannot be raised to a negative power", where);
      if (const double r = std::pow(a, b); std::isinf(r) && std::isfinite(a) && std::isfinite(b)) {
        Interp::fail("OverflowError", "(34, 'Numerical result out of range')", where);  // Python's float_pow
      } else {
        return Value(r);
      }
    default: return Value::undef();
  }
}

// Sequence repetition count for str/list/tuple * int.
int64_t repeat_count(const Value& n) { return n.as_int() < 0 ? 0 : n.as_int(); }

// MemoryError (before allocating) when [count] copies of [size] elements would pass [limit] elements.
void check_repeat_size(size_t size, int64_t count, uint64_t limit, const char* what) {
  if (size > 0 && uint64_t(count) > limit / size)
    throw rt::Error("MemoryError", fmt::format("repeating a {} of length {} {} times is too large to fit in memory", what,
                                               size, count));
}

Value sequence_op(BinaryOp op, const Value& a, const Value& b) {
  if (op == BinaryOp::Add && a.is(ObjKind::Str) && b.is(ObjKind::Str)) return make_str(a.as<Str>()->value + b.as<Str>()->value);
  if (op == BinaryOp::Add && a.is(ObjKind::List) && b.is(ObjKind::List)) {
    auto items = a.as<List>()->items;
    items.insert(items.end(), b.as<List>()->items.begin(), b.as<List>()->items.end());
    return make_list(std::move(items));
  }
  if (op == BinaryOp::Add && a.is(ObjKind::Tuple) && b.is(ObjKind::Tuple)) {
    auto items = a.as<Tuple>()->items;
    items.insert(items.end(), b.as<Tuple>()->items.begin(), b.as<Tuple>()->items.end());
    return make_tuple(std::move(items));
  }
  if (op != BinaryOp::Mul || !(b.is_int() || b.is_bool())) return Value::undef();
  if (a.is(ObjKind::Str)) {
    std::string out;
    check_repeat_size(a.as<Str>()->value.size(), repeat_count(b), uint64_t(1) << 32, "string");
    out.reserve(a.as<Str>()->value.size() * size_t(repeat_count(b)));
    for (int64_t i = 0; i < repeat_count(b); ++i) out += a.as<Str>()->value;
    return make_str(std::move(out));
  }
  if (a.is(ObjKind::List) || a.is(ObjKind::Tuple)) {
    const auto& src = a.is(ObjKind::List) ? a.as<List>()->items : a.as<Tuple>()->items;
    std::vector<Value> out;
    check_repeat_size(src.size(), repeat_count(b), uint64_t(1) << 28, "sequence");
    out.reserve(src.size() * size_t(repeat_count(b)));
    for (int64_t i = 0; i < repeat_count(b); ++i) out.insert(out.end(), src.begin(), src.end());
    return a.is(ObjKind::List) ? make_list(std::move(out)) : make_tuple(std::move(out));
  }
  return Value::undef();
}

// a.__op__(b), else b.__rop__(a), for script instances.
Value instance_op(Interp& in, BinaryOp op, const Value& a, const Value& b) {
  if (a.is(ObjKind::Instance)) {
    Value m = in.find_attr(a, intern(method_for(op)));
    if (!m.is_undef()) return in.call(m, {b});
  }
  if (b.is(ObjKind::Instance)) {
    Value m = in.find_attr(b, intern(rmethod_for(op)));
    if (!m.is_undef()) return in.call(m, {a});
  }
  return Value::undef();
}

}  // namespace

void set_tensor_operator_hooks(TensorOperatorHooks hooks) { g_hooks = hooks; }

Value binary_op(Interp& in, BinaryOp op, const Value& a, const Value& b, const Span& where) {
  if (is_bitwise(op) && (a.is_int() || a.is_bool()) && (b.is_int() || b.is_bool())) return int_bitwise(op, a, b, where);
  if (a.is_number() && b.is_number() && op != BinaryOp::MatMul && !is_bitwise(op)) {
    if (!a.is_float() && !b.is_float()) return int_arith(op, a.as_int(), b.as_int(), where);
    return float_arith(op, a.to_double(), b.to_double(), where);
  }
  if (g_hooks.binary && (a.is(ObjKind::Tensor) || b.is(ObjKind::Tensor))) {
    // undef: the other operand is an instance, whose reflected method (__radd__ ...) answers.
    if (Value t = g_hooks.binary(in, op, a, b, where); !t.is_undef()) return t;
  }
  if (op == BinaryOp::Mod && a.is(ObjKind::Str)) return percent_format(in, a, b, where);
  Value r = sequence_op(op, a, b);
  if (r.is_undef() && op == BinaryOp::Mul && a.is_int()) r = sequence_op(op, b, a);
  if (r.is_undef() && op == BinaryOp::BitOr && a.is(ObjKind::Dict) && b.is(ObjKind::Dict)) r = dict_merged(in, a, b, where);
  if (r.is_undef()) r = instance_op(in, op, a, b);
  if (r.is_undef()) unsupported(op, a, b, where);
  return r;
}

Value augmented_op(Interp& in, BinaryOp op, const Value& a, const Value& b, const Span& where) {
  if (g_hooks.inplace && a.is(ObjKind::Tensor)) {
    if (Value t = g_hooks.inplace(in, op, a, b, where); !t.is_undef()) return t;
  }
  if (op == BinaryOp::Add && a.is(ObjKind::List)) {
    std::vector<Value> more;  // gathered first: `xs += xs` doubles the list once
    in.iterate(b, where, [&](Value v) {
      more.push_back(std::move(v));
      return true;
    });
    auto& items = a.as<List>()->items;
    items.insert(items.end(), more.begin(), more.end());
    return a;
  }
  if (op == BinaryOp::BitOr && a.is(ObjKind::Dict)) {   // d |= other: update in place (other: dict or pairs)
    dict_update_from(in, *a.as<Dict>(), b, where);
    return a;
  }
  return binary_op(in, op, a, b, where);
}

Value unary_op(Interp& in, UnaryOp op, const Value& a, const Span& where) {
  if (a.is_float() && op != UnaryOp::Invert) return Value(op == UnaryOp::Neg ? -a.as_float() : a.as_float());
  if (a.is_int() || a.is_bool()) {
    if (op == UnaryOp::Pos) return Value(a.as_int());
    if (op == UnaryOp::Invert) return Value(~a.as_int());  // -(x + 1), also for bools (Python's ~True is -2)
    int64_t r = 0;
    check_overflow(__builtin_sub_overflow(int64_t(0), a.as_int(), &r), where);
    return Value(r);
  }
  if (g_hooks.unary && a.is(ObjKind::Tensor)) return g_hooks.unary(in, op, a, where);
  if (a.is(ObjKind::Instance)) {
    Value m = in.find_attr(a, intern(op == UnaryOp::Neg ? "__neg__" : op == UnaryOp::Pos ? "__pos__" : "__invert__"));
    if (!m.is_undef()) return in.call(m, std::vector<Value>{});
  }
  const char* symbol = op == UnaryOp::Neg ? "-" : op == UnaryOp::Pos ? "+" : "~";
  Interp::fail("TypeError", fmt::format("bad operand type for unary {}: '{}'", symbol, type_name(a)), where);
}

static bool sequences_equal(Interp& in, const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!values_equal(in, a[i], b[i])) return false;
  return true;
}

namespace {
// Nesting depth of the containers values_equal is comparing on this thread: a list that contains itself (compared
// with a copy of itself) would recurse without end, so, as Python, a RecursionError stops it.
thread_local int g_compare_depth = 0;
constexpr int kMaxCompareDepth = 1000;

struct CompareDepth {
  CompareDepth() {
    if (++g_compare_depth > kMaxCompareDepth) {
      --g_compare_depth;
      throw rt::Error("RecursionError", "maximum recursion depth exceeded in comparison");
    }
  }
  ~CompareDepth() { --g_compare_depth; }
};
}  // namespace

bool values_equal(Interp& in, const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.to_double() == b.to_double();
    return a.as_int() == b.as_int();
  }
  if (a.is_none() || b.is_none()) return a.is_none() && b.is_none();
  if (!a.is_obj() || !b.is_obj()) return false;
  if (a.obj() == b.obj()) return true;
  if (a.is(ObjKind::DType) || b.is(ObjKind::DType)) {  // `x.dtype == bool`: the builtins float/int/bool name dtypes
    std::optional<rt::DType> x = script_dtype(a), y = script_dtype(b);
    return x && y && *x == *y;
  }
  if (a.obj()->kind() != b.obj()->kind()) return false;
  CompareDepth depth;
  switch (a.obj()->kind()) {
    case ObjKind::Str: return a.as<Str>()->value == b.as<Str>()->value;
    case ObjKind::List: return sequences_equal(in, a.as<List>()->items, b.as<List>()->items);
    case ObjKind::Tuple: return sequences_equal(in, a.as<Tuple>()->items, b.as<Tuple>()->items);
    case ObjKind::Dict: {
      auto* x = a.as<Dict>();
      auto* y = b.as<Dict>();
      if (x->size() != y->size()) return false;
      for (auto& [k, v] : x->entries) {
        Value* other = y->find(k);
        if (!other || !values_equal(in, v, *other)) return false;
      }
      return true;
    }
    case ObjKind::Instance: {
      Value m = in.find_attr(a, intern("__eq__"));
      return !m.is_undef() && in.truthy(in.call(m, {b}));
    }
    default: return a.obj()->equals(*b.obj());
  }
}

bool value_less(Interp& in, const Value& a, const Value& b, const Span& where) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return a.to_double() < b.to_double();
    return a.as_int() < b.as_int();
  }
  if (a.is(ObjKind::Str) && b.is(ObjKind::Str)) return a.as<Str>()->value < b.as<Str>()->value;
  bool seq_a = a.is(ObjKind::List) || a.is(ObjKind::Tuple);
  if (seq_a && a.is_obj() && b.is_obj() && a.obj()->kind() == b.obj()->kind()) {
    const auto& x = a.is(ObjKind::List) ? a.as<List>()->items : a.as<Tuple>()->items;
    const auto& y = b.is(ObjKind::List) ? b.as<List>()->items : b.as<Tuple>()->items;
    for (size_t i = 0; i < x.size() && i < y.size(); ++i)
      if (!values_equal(in, x[i], y[i])) return value_less(in, x[i], y[i], where);
    return x.size() < y.size();
  }
  if (a.is(ObjKind::Instance)) {
    Value m = in.find_attr(a, intern("__lt__"));
    if (!m.is_undef()) return in.truthy(in.call(m, {b}));
  }
  Interp::fail("TypeError", fmt::format("'<' is not supported between '{}' and '{}'", type_name(a), type_name(b)), where);
}

static bool contains(Interp& in, const Value& container, const Value& item, const Span& where) {
  if (container.is(ObjKind::Str)) {
    if (!item.is(ObjKind::Str)) Interp::fail("TypeError", "'in <str>' requires a string on the left, not " + type_name(item), where);
    return container.as<Str>()->value.find(item.as<Str>()->value) != std::string::npos;
  }
  if (container.is(ObjKind::Dict)) {
    try { check_hashable(item); } catch (AmpsError& e) { e.set_span(where); throw; }
    return container.as<Dict>()->find(item) != nullptr;
  }
  if (container.is(ObjKind::Instance)) {
    Value m = in.find_attr(container, intern("__contains__"));
    if (!m.is_undef()) return in.truthy(in.call(m, {item}));
  }
  bool found = false;
  in.iterate(container, where, [&](Value v) { found = values_equal(in, v, item); return !found; });
  return found;
}

static bool identical(const Value& a, const Value& b) {
  if (a.tag() != b.tag()) return false;
  if (a.is_obj()) return a.obj() == b.obj();
  if (a.is_float()) return a.as_float() == b.as_float();
  return a.as_int() == b.as_int();
}

// a.__op__(b) for an instance that defines the rich comparison `op`; undef otherwise.
static Value instance_compare(Interp& in, CompareOp op, const Value& a, const Value& b) {
  static const char* names[] = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"};
  if (!a.is(ObjKind::Instance) || op > CompareOp::Ge) return Value::undef();
  Value m = in.find_attr(a, intern(names[int(op)]));
  return m.is_undef() ? m : in.call(m, {b});
}

// NaN-correct number comparisons (a <= b is not !(b < a) when either is NaN).
static bool number_compare(CompareOp op, const Value& a, const Value& b) {
  if (!a.is_float() && !b.is_float()) {
    int64_t x = a.as_int(), y = b.as_int();
    return op == CompareOp::Lt ? x < y : op == CompareOp::Le ? x <= y : op == CompareOp::Gt ? x > y : x >= y;
  }
  double x = a.to_double(), y = b.to_double();
  return op == CompareOp::Lt ? x < y : op == CompareOp::Le ? x <= y : op == CompareOp::Gt ? x > y : x >= y;
}

Value compare_op(Interp& in, CompareOp op, const Value& a, const Value& b, const Span& where) {
  if (g_hooks.compare && (a.is(ObjKind::Tensor) || b.is(ObjKind::Tensor)) && op <= CompareOp::Ge)
    return g_hooks.compare(in, op, a, b, where);
  if (op >= CompareOp::Lt && op <= CompareOp::Ge && a.is_number() && b.is_number())
    return Value(number_compare(op, a, b));
  if (Value r = instance_compare(in, op, a, b); !r.is_undef()) return r;
  switch (op) {
    case CompareOp::Eq: return Value(values_equal(in, a, b));
    case CompareOp::Ne: return Value(!values_equal(in, a, b));
    case CompareOp::Lt: return Value(value_less(in, a, b, where));
    case CompareOp::Gt: return Value(value_less(in, b, a, where));
    case CompareOp::Le: return Value(!value_less(in, b, a, where));
    case CompareOp::Ge: return Value(!value_less(in, a, b, where));
    case CompareOp::In: return Value(contains(in, b, a, where));
    case CompareOp::NotIn: return Value(!contains(in, b, a, where));
    case CompareOp::Is: return Value(identical(a, b));
    case CompareOp::IsNot: return Value(!identical(a, b));
  }
  return Value(false);
}

}  // namespace amps::interp
