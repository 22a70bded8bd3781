// Operators on values with Python's semantics (int/float arithmetic, sequences, strings),
// instance operator methods (__add__, __eq__, ...), and tensor operators.
#pragma once

#include "interp/ast.hpp"
#include "interp/value.hpp"

namespace amps::interp {

Value binary_op(Interp& in, BinaryOp op, const Value& a, const Value& b, const Span& where);
Value unary_op(Interp& in, UnaryOp op, const Value& a, const Span& where);
Value compare_op(Interp& in, CompareOp op, const Value& a, const Value& b, const Span& where);
// Structural equality (==) for plain values; instances use __eq__ when they define it.
bool values_equal(Interp& in, const Value& a, const Value& b);
// a < b for numbers, strings and sequences; TypeError otherwise.
bool value_less(Interp& in, const Value& a, const Value& b, const Span& where);

// Hook for tensor operands (installed by the tensor binding): returns undef when neither
// operand is a tensor. Keeps the language core free of runtime types.
using TensorBinaryHook = Value (*)(Interp&, BinaryOp, const Value&, const Value&, const Span&);
using TensorCompareHook = Value (*)(Interp&, CompareOp, const Value&, const Value&, const Span&);
using TensorUnaryHook = Value (*)(Interp&, UnaryOp, const Value&, const Span&);
struct TensorOperatorHooks {
  TensorBinaryHook binary = nullptr;
  TensorCompareHook compare = nullptr;
  TensorUnaryHook unary = nullptr;
  TensorBinaryHook inplace = nullptr;  // `t op= v` on a tensor t: updates t in place and returns it
};
void set_tensor_operator_hooks(TensorOperatorHooks hooks);

// `a op= b` as Python: a tensor is updated in place (add_, sub_, ...; PyTorch's __iadd__) and a list extended
// by an iterable with +=, the same object coming back; otherwise a op b (numbers, strings, tuples rebind).
Value augmented_op(Interp& in, BinaryOp op, const Value& a, const Value& b, const Span& where);

}  // namespace amps::interp
