// Tests for the op table, schemas, dispatch layers, argument completion and printing.
#include <gtest/gtest.h>

#include "runtime/backend/backend.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/functions.hpp"
#include "runtime/print.hpp"
#include "runtime/schema.hpp"
#include "test_util.hpp"

namespace amps::rt {
namespace {

using test::make;
using test::throws_error;

TEST(OpTable, EverySchemaParsesAndFlagsAreHonest) {
  for (int i = 0; i < op_count; ++i) {
    OpId op = OpId(i);
    const Schema& s = op_parsed_schema(op);
    EXPECT_EQ(s.name, op_name(op)) << op_schema(op);
    EXPECT_FALSE(op_doc(op).empty()) << op_id_name(op);
    bool has_variant = op_inplace_variant(op).has_value();
    EXPECT_EQ(op_has(op, opflag::has_inplace), has_variant) << op_id_name(op);
    if (op_has(op, opflag::inplace)) {
      EXPECT_TRUE(s.args[0].mutated) << op_id_name(op);
    }
  }
  const Schema& mm = op_parsed_schema(OpId::mm);
  EXPECT_EQ(mm.out_index, 2);
  EXPECT_TRUE(mm.args[2].kwarg_only);
  const Schema& conv = op_parsed_schema(OpId::conv2d);
  EXPECT_EQ(conv.args[3].list_size, 2);
  EXPECT_EQ(conv.args[3].default_value.i64(), 1);
  EXPECT_EQ(op_parsed_schema(OpId::max_dim).returns.size(), 2u);
  EXPECT_EQ(op_name(OpId::max_dim), "max");
}

TEST(OpTable, CpuBackendCoversTheLanguageOps) {
  const char* required[] = {"matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "addr", "linear", "relu",
                            "prelu", "gelu", "sigmoid", "tanh", "softmax", "log_softmax", "exp", "log", "sqrt",
                            "rsqrt", "pow", "sum", "mean", "prod", "cat", "stack", "index_copy", "layer_norm",
                            "batch_norm", "group_norm", "dropout", "cross_entropy", "nll_loss", "mse_loss", "l1_loss",
                            "binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss"};
  for (const char* name : required) {
    std::optional<OpId> op = op_from_id_name(name);
    ASSERT_TRUE(op.has_value()) << name;
    EXPECT_TRUE(cpu_backend().supports(*op, DType::float32)) << name;
  }
}

// Records every op it sees, then passes it on.
class RecordingLayer : public DispatchLayer {
 public:
  std::vector<OpId> seen;
  std::string_view name() const override { return "recording"; }
  Tensors call(OpId op, Args& args, const Next& next) override {
    seen.push_back(op);
    return next(op, args);
  }
};

// Casts float32 tensor arguments of mm to float64, as an autocast-like layer would (re-dispatching the cast
// with itself excluded).
class CastingLayer : public DispatchLayer {
 public:
  std::string_view name() const override { return "casting"; }
  Tensors call(OpId op, Args& args, const Next& next) override {
    if (op == OpId::mm) {
      ExcludeLayerGuard g(this);
      for (IValue& v : args)
        if (v.is_tensor() && v.tensor().defined()) v = v.tensor().to(DType::float64);
    }
    return next(op, args);
  }
};

TEST(Dispatch, LayersRunInOrderAndCanRewriteArguments) {
  Context ctx;
  ContextGuard guard(ctx);
  auto rec = std::make_shared<RecordingLayer>();
  ctx.add_layer(rec, layer_order::autograd);
  ctx.add_layer(std::make_shared<CastingLayer>(), layer_order::autocast);
  Tensor r = mm(make({1, 2, 3, 4}, {2, 2}), make({1, 0, 0, 1}, {2, 2}));
  EXPECT_EQ(r.dtype(), DType::float64);
  ASSERT_EQ(rec->seen.size(), 3u);  // two casts from the casting layer, then mm itself
  EXPECT_EQ(rec->seen[0], OpId::to);
  EXPECT_EQ(rec->seen[2], OpId::mm);
  ctx.remove_layer(rec.get());
  mm(make({1}, {1, 1}), make({1}, {1, 1}));
  EXPECT_EQ(rec->seen.size(), 3u);
}

TEST(Dispatch, CompletesDefaultsAndRejectsBadArguments) {
  Args args{make({1, 2}, {2}), make({3, 4}, {2})};
  Tensors r = dispatch(OpId::add, args);
  EXPECT_EQ(args.size(), op_parsed_schema(OpId::add).args.size());
  EXPECT_TRUE(test::all_close(r[0], {4, 6}));
  EXPECT_TRUE(throws_error([] { dispatch(OpId::mm, Args{make({1}, {1, 1})}); }, "TypeError",
                           "mm() missing required argument 'mat2'"));
  EXPECT_TRUE(throws_error([] { dispatch(OpId::mm, Args{make({1}, {1, 1}), "x"}); }, "TypeError",
                           "mm(): argument 'mat2' (position 2) must be Tensor, not str"));
  EXPECT_TRUE(throws_error([] { call_op(OpId::cholesky, make({1}, {1, 1}, DType::bool_)); }, "RuntimeError",
                           "not implemented for 'bool'"));
}

TEST(Dispatch, OutArgumentReceivesResult) {
  Tensor out = Tensor::empty({0});
  Tensor r = call_op(OpId::add, make({1, 2}, {2}), make({1, 1}, {2}), int64_t(1), out);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.sizes(), (Dims{2}));
  EXPECT_TRUE(test::all_close(out, {2, 3}));
  Tensor iout = Tensor::empty({2}, DType::int64);
  EXPECT_TRUE(throws_error([&] { call_op(OpId::add, make({1, 2}, {2}), 0.5, int64_t(1), iout); }, "RuntimeError",
                           "can't be cast to the desired output type int64"));
}

TEST(Print, MatchesPyTorchFormatting) {
  EXPECT_EQ(tensor_repr(make({1, 2, 3, 4}, {2, 2})), "tensor([[1., 2.],\n        [3., 4.]])");
  EXPECT_EQ(tensor_repr(make({1.5, 2.25}, {2}, DType::bfloat16)), "tensor([1.5000, 2.2500], dtype=bfloat16)");
  EXPECT_EQ(tensor_repr(Tensor::scalar(int64_t(3))), "tensor(3)");
  EXPECT_EQ(tensor_repr(make({1, 0}, {2}, DType::bool_)), "tensor([ True, False])");
  EXPECT_EQ(tensor_repr(make({1e-5, 1}, {2})), "tensor([1.0000e-05, 1.0000e+00])");
  EXPECT_EQ(tensor_repr(Tensor::empty({0})), "tensor([])");
  Tensor g = make({1}, {1});
  g.set_requires_grad(true);
  EXPECT_EQ(tensor_repr(g), "tensor([1.], requires_grad=True)");
  std::string big = tensor_repr(arange(int64_t(2000)));
  EXPECT_EQ(big, "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
  EXPECT_EQ(python_float_repr(65536.0), "65536.0");
  EXPECT_EQ(python_float_repr(0.1), "0.1");
  EXPECT_EQ(python_float_repr(1e-5), "1e-05");
}

}  // namespace
}  // namespace amps::rt
