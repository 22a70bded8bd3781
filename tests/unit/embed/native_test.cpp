// Host functions: {name, fn} tables as globals and modules (with an amps body), errors they raise,
// and the AMP cast rules the autocast layer applies to their tensor arguments.
#include <cstring>
#include <string>

#include "amps/amps.hpp"
#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

// add(a, b) -> a + b as floats; user points at a call counter.
amps_status native_add(amps_vm* vm, amps_args* call) {
  ++*static_cast<int*>(amps_args_user(call));
  double a = 0, b = 0;
  if (amps_arg_count(call) != 2) return amps_raise(call, "TypeError", "add() takes 2 arguments");
  if (amps_to_float(vm, amps_arg(call, 0), &a) != AMPS_OK || amps_to_float(vm, amps_arg(call, 1), &b) != AMPS_OK)
    return amps_raise(call, "TypeError", amps_last_error(vm)->message);
  amps_value* r = amps_float(a + b);
  amps_return(call, r);
  amps_release(r);
  return AMPS_OK;
}

// Fails without raising: the binding reports the status.
amps_status native_broken(amps_vm*, amps_args*) { return AMPS_ERROR_MISUSE; }

// dtypes(*tensors) -> "float32 bfloat16 ..." (what the function received after the cast rule).
amps::Value dtypes(amps::Vm& vm, amps::Call& call) {
  static const char* names[] = {"float64", "float32", "float16", "bfloat16", "int64", "int32", "bool"};
  std::string out;
  for (size_t i = 0; i < call.size(); ++i) {
    amps_tensor_info info{};
    if (amps_tensor_info_get(vm.get(), call.arg(i).get(), &info) != AMPS_OK) throw amps::ScriptError("TypeError", "tensors only");
    out += (i ? " " : "") + std::string(names[info.dtype]);
  }
  return amps::Value::of(std::string_view(out));
}

// A C++ vm with dtypes registered under each cast rule, its output captured in `out`.
struct CastVm {
  CastVm() : vm(config(out)) {
    auto err = vm.register_globals({{"as_is", dtypes, amps::CastRule::none},
                                    {"as_fp32", dtypes, amps::CastRule::fp32},
                                    {"as_lower", dtypes, amps::CastRule::lower},
                                    {"as_promote", dtypes, amps::CastRule::promote}});
    EXPECT_FALSE(err) << err->message;
  }
  static amps::Config config(std::string& out) {
    amps::Config c;
    c.no_stdlib = true;
    c.write = [&out](std::string_view s) { out += s; };
    return c;
  }
  std::string out;
  amps::Vm vm;
};

}  // namespace

TEST(EmbedNative, GlobalsFromATableReceiveArgumentsAndUserData) {
  CapturedVm t;
  int calls = 0;
  amps_reg table[] = {{"add", native_add, AMPS_CAST_NONE, &calls}, {nullptr, nullptr, AMPS_CAST_NONE, nullptr}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  t.ok("print(add(1, 2.5))");
  EXPECT_EQ(t.out, "3.5\n");
  EXPECT_EQ(calls, 1);
}

TEST(EmbedNative, RaisedErrorsAreCatchableAndPositioned) {
  CapturedVm t;
  int calls = 0;
  amps_reg table[] = {{"add", native_add, AMPS_CAST_NONE, &calls}, {"broken", native_broken, AMPS_CAST_NONE, nullptr}, {}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  t.ok("try { add(1, \"x\") } catch e { print(e.kind, e.message) }");
  EXPECT_EQ(t.out, "TypeError amps_to_float: expected a number or a one-element tensor, got str\n");
  ASSERT_EQ(amps_run(t.vm, "host.amps", "let x = 1\nadd(x)\n", nullptr), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(amps_last_error(t.vm)->line, 2u);
  EXPECT_EQ(t.message(), "add() takes 2 arguments");
  EXPECT_EQ(t.run("broken()"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.message(), "broken() failed (AMPS_ERROR_MISUSE)");
}

TEST(EmbedNative, ModulesCombineATableWithAnAmpsBody) {
  CapturedVm t;
  int calls = 0;
  amps_reg table[] = {{"add", native_add, AMPS_CAST_NONE, &calls}, {}};
  ASSERT_EQ(amps_register_module(t.vm, "hostmath", table, "fn twice(x) { return add(x, x) }\nlet pi = 3.0"), AMPS_OK);
  EXPECT_EQ(calls, 0);   // created on first import
  t.ok("import hostmath\nprint(hostmath.twice(hostmath.pi), hostmath.add(1, 1))");
  EXPECT_EQ(t.out, "6.0 2.0\n");
}

TEST(EmbedMisuse, BadTablesAreRejected) {
  CapturedVm t;
  amps_reg no_fn[] = {{"f", nullptr, AMPS_CAST_NONE, nullptr}, {}};
  EXPECT_EQ(amps_register_globals(t.vm, no_fn), AMPS_ERROR_MISUSE);
  EXPECT_EQ(t.message(), "amps_register_globals: row 'f' has no function");
  amps_reg bad_cast[] = {{"f", native_broken, amps_cast_rule(9), nullptr}, {}};
  EXPECT_EQ(amps_register_module(t.vm, "m", bad_cast, nullptr), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_register_globals(t.vm, nullptr), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_register_module(t.vm, "", nullptr, nullptr), AMPS_ERROR_MISUSE);
}

TEST(EmbedCast, Fp32FunctionRunsInFloat32InsideAutocastCpuBfloat16) {
  CastVm c;
  auto r = c.vm.run(
      "let x = randn(2, 2)\nlet w = randn(2).bfloat16()\n"
      "autocast cpu<bfloat16> {\n  let h = x @ x\n  print(h.dtype, as_fp32(h, w, x))\n}\n"
      "print(as_fp32(w, x))");
  ASSERT_TRUE(r) << r.error->diagnostic;
  EXPECT_EQ(c.out, "bfloat16 float32 float32 float32\nbfloat16 float32\n");   // outside a region: untouched
}

TEST(EmbedCast, LowerPromoteAndNoneFollowTheRegion) {
  CastVm c;
  auto r = c.vm.run(
      "let x = randn(2)\nlet b = randn(2).bfloat16()\nlet d = randn(2).double()\n"
      "autocast cpu<bfloat16> { print(as_lower(x, d), \"|\", as_promote(b, x), \"|\", as_promote(b, b), \"|\", as_is(x, b)) }\n"
      "autocast cpu<bfloat16, enabled=false> { print(as_lower(x)) }");
  ASSERT_TRUE(r) << r.error->diagnostic;
  EXPECT_EQ(c.out, "bfloat16 float64 | float32 float32 | bfloat16 bfloat16 | float32 bfloat16\nfloat32\n");
}

TEST(EmbedCast, CastsKeepAutogradHistory) {
  CastVm c;
  auto r = c.vm.run("let w = randn(3, requires_grad=true)\nautocast cpu<bfloat16> { let y = as_lower(w) }\n");
  ASSERT_TRUE(r) << r.error->diagnostic;
  EXPECT_EQ(c.out, "");
  ASSERT_TRUE(c.vm.register_globals({{"first", [](amps::Vm&, amps::Call& call) { return call.arg(0); }, amps::CastRule::lower}}) == std::nullopt);
  r = c.vm.run("autocast cpu<bfloat16> { let z = first(w) }\nprint(z.dtype, z.requires_grad)\nz.float().sum().backward()\nprint(w.grad)");
  ASSERT_TRUE(r) << r.error->diagnostic;
  EXPECT_EQ(c.out, "bfloat16 true\ntensor([1., 1., 1.])\n");
}
