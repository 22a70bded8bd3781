// Host objects (amps_class: methods, attribute and next hooks, drop), how natives and hooks hand
// errors back (amps_fail, failures of calls into the vm re-raised unchanged), parallel calls,
// random streams, the sandbox query and the diagnostic sink.
#include <cstring>
#include <memory>
#include <string>

#include "amps/amps.hpp"
#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

// ---- a C host class: a counter with a method, an attribute and a drop that reports itself
struct Counter {
  int64_t n = 0;
  int* drops;
};

amps_status counter_bump(amps_vm*, amps_args* call) {
  auto* c = static_cast<Counter*>(amps_object_data(amps_arg(call, 0), nullptr));
  amps_value* r = amps_int(++c->n);
  amps_return(call, r);
  amps_release(r);
  return AMPS_OK;
}

amps_status counter_attr(amps_vm* vm, void* data, const char* name, amps_value** out) {
  if (std::strcmp(name, "n") == 0) *out = amps_int(static_cast<Counter*>(data)->n);
  if (std::strcmp(name, "boom") == 0) return amps_fail(vm, "ValueError", "no boom here");
  return AMPS_OK;
}

void counter_drop(void* data) {
  auto* c = static_cast<Counter*>(data);
  ++*c->drops;
  delete c;
}

const amps_reg kCounterMethods[] = {{"bump", counter_bump, AMPS_CAST_NONE, nullptr}, {}};
const amps_class kCounter = {"Counter", kCounterMethods, counter_attr, nullptr, counter_drop};

// make_counter() -> a new Counter; user points at the drop count.
amps_status make_counter(amps_vm* vm, amps_args* call) {
  auto* c = new Counter{0, static_cast<int*>(amps_args_user(call))};
  amps_value* obj = nullptr;
  if (amps_status s = amps_object_new(vm, &kCounter, c, &obj)) {
    delete c;
    return s;
  }
  amps_return(call, obj);
  amps_release(obj);
  return AMPS_OK;
}

// ---- a C++ iterator class: yields 1..n, then fails with a ValueError when asked to
struct Upto : amps::Object {
  Upto(int64_t n, bool fail) : n(n), fail(fail) {}
  amps::Value next(amps::Vm&) override {
    if (i < n) return amps::Value::of(++i);
    if (fail) throw amps::ScriptError("ValueError", "ran past the end");
    return amps::Value();
  }
  int64_t n, i = 0;
  bool fail;
};
const amps_class kUpto = amps::iterator_class("Upto");

amps::Value upto(amps::Vm& vm, amps::Call& call) {
  amps::Args r(vm, call, "upto", {"n", "fail"});
  return vm.new_object(kUpto, std::make_unique<Upto>(r.int_or(0, 0), r.bool_or(1, false)));
}

// ---- a C++ object class with a method that calls back into the script
struct Box : amps::Object {
  explicit Box(amps::Value v) : v(std::move(v)) {}
  amps::Value apply(amps::Vm& vm, amps::Call& call) { return vm.call(call.arg(1), {v}).get(); }   // errors re-raised
  amps::Value attr(amps::Vm&, const char* name) override { return std::strcmp(name, "value") == 0 ? v : amps::Value(); }
  amps::Value v;
};
const amps_reg kBoxMethods[] = {{"apply", amps::method<&Box::apply>, AMPS_CAST_NONE, nullptr}, {}};
const amps_class kBox = amps::object_class("Box", kBoxMethods);

amps::Value box(amps::Vm& vm, amps::Call& call) { return vm.new_object(kBox, std::make_unique<Box>(call.arg(0))); }

// Natives over a C++ vm; output captured.
struct ObjVm {
  ObjVm() : vm(config(this)) {
    static const amps_reg table[] = {{"upto", amps::native<upto>, AMPS_CAST_NONE, nullptr},
                                     {"box", amps::native<box>, AMPS_CAST_NONE, nullptr},
                                     {}};
    auto err = vm.register_globals_table(table);
    EXPECT_FALSE(err) << err->message;
  }
  static amps::Config config(ObjVm* self) {
    amps::Config c;
    c.no_stdlib = true;
    c.write = [self](std::string_view s) { self->out += s; };
    return c;
  }
  std::string out;
  amps::Vm vm;
};

}  // namespace

TEST(EmbedObjects, CClassMethodsAttributesAndDrop) {
  CapturedVm t;
  int drops = 0;
  amps_reg table[] = {{"make_counter", make_counter, AMPS_CAST_NONE, &drops}, {}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  t.ok("let c = make_counter()\nc.bump()\nc.bump()\nprint(c.n, type(c))\n"
       "try { c.missing } catch e { print(e.kind, e.message) }\ntry { c.boom } catch e { print(e.kind, e.message) }");
  EXPECT_EQ(t.out, "2 <class 'Counter'>\nAttributeError 'Counter' object has no attribute 'missing'\nValueError no boom here\n");
  amps_value* c = nullptr;
  ASSERT_EQ(amps_get_global(t.vm, "c", &c), AMPS_OK);
  EXPECT_EQ(amps_object_class(c), &kCounter);
  EXPECT_NE(amps_object_data(c, &kCounter), nullptr);
  amps_class other = kCounter;
  EXPECT_EQ(amps_object_data(c, &other), nullptr);
  amps_release(c);
  EXPECT_EQ(drops, 0);
  t.ok("c = none");
  EXPECT_EQ(drops, 1);
}

TEST(EmbedObjects, InconsistentClassesAreMisuse) {
  CapturedVm t;
  amps_class both = {"Both", kCounterMethods, nullptr, [](amps_vm*, void*, amps_value**) { return AMPS_OK; }, nullptr};
  amps_value* out = nullptr;
  EXPECT_EQ(amps_object_new(t.vm, &both, nullptr, &out), AMPS_ERROR_MISUSE);
  amps_class unnamed = {nullptr, nullptr, nullptr, nullptr, nullptr};
  EXPECT_EQ(amps_object_new(t.vm, &unnamed, nullptr, &out), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_object_new(t.vm, nullptr, nullptr, &out), AMPS_ERROR_MISUSE);
}

TEST(EmbedObjects, CxxIteratorsDriveForLoopsAndRaiseFromNext) {
  ObjVm o;
  ASSERT_TRUE(o.vm.run("let s = 0\nfor i in upto(4) { s += i }\nprint(s, type(upto(1)), list(upto(3)))"));
  EXPECT_EQ(o.out, "10 <class 'Upto'> [1, 2, 3]\n");
  amps::Result r = o.vm.run("let k = 0\nfor i in upto(2, fail=true) {\n  k += i\n}\n", "it.amps");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error->kind, "ValueError");
  EXPECT_EQ(r.error->message, "ran past the end");
  EXPECT_EQ(r.error->line, 2u);   // the for statement's position
  amps::Value it = o.vm.global("upto").get();
  amps::Value u = o.vm.call(it, {amps::Value::of(2)}).get();
  EXPECT_EQ(o.vm.to_int(o.vm.next(u)), 1);
  EXPECT_EQ(o.vm.to_int(o.vm.next(u)), 2);
  EXPECT_FALSE(o.vm.next(u));
}

// A script error inside a callback reaches the script unchanged: its own class, message, position.
TEST(EmbedObjects, FailuresOfCallsBackIntoTheVmAreReRaisedUnchanged) {
  ObjVm o;
  ASSERT_TRUE(o.vm.run("\n"
                       "fn bad(x) {\n  raise ValueError(f\"bad {x}\")\n}\n"
                       "let b = box(7)\nprint(b.value, b.apply(fn(x) { return x * 2 }))"));
  EXPECT_EQ(o.out, "7 14\n");
  ASSERT_TRUE(o.vm.run("try { b.apply(bad) } catch e { print(e.kind, e.message, e.line) }"));
  EXPECT_EQ(o.out, "7 14\nValueError bad 7 3\n");
  amps::Result r = o.vm.run("b.apply(bad)", "top.amps");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error->kind, "ValueError");
  EXPECT_NE(r.error->diagnostic.find("<string>:3"), std::string::npos) << r.error->diagnostic;   // raised in bad()
  EXPECT_EQ(r.error->diagnostic.find("<host>"), std::string::npos) << r.error->diagnostic;       // no host frame inside
}

TEST(EmbedObjects, ObjectCastChecksTheCxxType) {
  ObjVm o;
  amps::Value b = o.vm.run("box(1)").get();
  amps::Value u = o.vm.run("upto(1)").get();
  EXPECT_NE(amps::object_cast<Box>(b), nullptr);
  EXPECT_EQ(amps::object_cast<Upto>(b), nullptr);
  EXPECT_NE(amps::object_cast<Upto>(u), nullptr);
  EXPECT_EQ(amps::object_cast<Box>(amps::Value::of(3)), nullptr);
}

// callees run on threads of their own; results come back in order, errors as the first failure.
TEST(EmbedObjects, ParallelCalls) {
  ObjVm o;
  ASSERT_TRUE(o.vm.run("fn sq(x) { return x * x }\nfn boom(x) { raise RuntimeError(\"no\") }"));
  amps::Value sq = o.vm.global("sq").get(), boom = o.vm.global("boom").get();
  std::vector<amps::Value> fs{sq, sq, sq}, args{amps::Value::tuple({amps::Value::of(2)}), amps::Value::list({amps::Value::of(3)}),
                                                amps::Value::tuple({amps::Value::of(4)})};
  std::vector<amps::Value> r = o.vm.call_parallel(fs, args);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(o.vm.to_int(r[0]), 4);
  EXPECT_EQ(o.vm.to_int(r[2]), 16);
  fs[1] = boom;
  EXPECT_THROW(o.vm.call_parallel(fs, args), amps::Failed);
  EXPECT_EQ(o.vm.last_error().message, "no");
  args[0] = amps::Value::of(1);
  try {
    o.vm.call_parallel(fs, args);
    ADD_FAILURE() << "no error";
  } catch (const amps::Failed& e) {
    EXPECT_EQ(e.error.status, AMPS_ERROR_MISUSE);
  }
}

// A stream seeded like manual_seed(s) draws what the vm's generator draws after manual_seed(s).
TEST(EmbedObjects, RandomStreamsMatchTheScriptsGenerator) {
  CapturedVm t;
  amps_rng* own = amps_rng_new(5);
  uint64_t a = amps_rng_below(own, 1000), b = amps_rng_below(own, 1000);
  t.ok("manual_seed(5)");
  amps_rng* shared = amps_vm_rng(t.vm);
  EXPECT_EQ(amps_rng_below(shared, 1000), a);
  EXPECT_EQ(amps_rng_below(shared, 1000), b);
  EXPECT_EQ(amps_rng_below(own, 0), 0u);
  double z = amps_rng_normal(own);
  EXPECT_TRUE(z > -10 && z < 10);
  amps_rng_free(own);
  amps_rng_free(nullptr);
}

TEST(EmbedObjects, SandboxQueryAndDiagnosticSink) {
  CapturedVm plain;
  CapturedVm boxed(false, [](amps_config& c) { c.sandbox = 1; });
  EXPECT_EQ(amps_sandboxed(plain.vm), 0);
  EXPECT_EQ(amps_sandboxed(boxed.vm), 1);
  EXPECT_EQ(amps_sandboxed(nullptr), 0);
  amps_write_diagnostic(plain.vm, "warn\n", 5);
  amps_write(plain.vm, "out\n", 4);
  amps_write(nullptr, "x", 1);
  EXPECT_EQ(plain.diag, "warn\n");
  EXPECT_EQ(plain.out, "out\n");
}

// The stdlib is one of these clients: its loaders are host objects of the public API.
TEST(EmbedObjects, StdlibObjectsAreHostObjects) {
  CapturedVm t(true);
  amps_value* loader = nullptr;
  ASSERT_EQ(amps_run(t.vm, "<t>", "import data\ndata.DataLoader(data.TensorDataset(arange(4)), batch_size=2)", &loader), AMPS_OK)
      << amps_last_error(t.vm)->diagnostic;
  EXPECT_STREQ(amps_type_name(loader), "DataLoader");
  EXPECT_NE(amps_object_class(loader), nullptr);
  amps_release(loader);
}

// amps_checkpoint_loaded (what the stdlib's load() calls): GradScaler state in a checkpoint the host
// read makes a fresh GradScaler warn once on the diagnostic sink; a NULL argument is misuse.
TEST(EmbedObjects, CheckpointWithScalerStateWarnsAFreshScalerOnce) {
  CapturedVm t;
  amps_value* ckpt = nullptr;
  ASSERT_EQ(amps_run(t.vm, "<ckpt>", "{\"epoch\": 2, \"scaler\": {\"scale\": 2048.0, \"growth_factor\": 2.0, "
                     "\"backoff_factor\": 0.5, \"growth_interval\": 2000, \"_growth_tracker\": 5}}", &ckpt), AMPS_OK)
      << amps_last_error(t.vm)->diagnostic;
  EXPECT_EQ(amps_checkpoint_loaded(t.vm, "host.ckpt", ckpt), AMPS_OK);
  EXPECT_EQ(amps_checkpoint_loaded(t.vm, nullptr, ckpt), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_checkpoint_loaded(t.vm, "host.ckpt", nullptr), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_checkpoint_loaded(nullptr, "host.ckpt", ckpt), AMPS_ERROR_MISUSE);
  t.ok("let s = GradScaler()\ns.scale(ones(1))\ns.scale(ones(1))\nlet r = GradScaler()\nr.load_state_dict(" "{\"scale\": 2048.0, "
       "\"growth_factor\": 2.0, \"backoff_factor\": 0.5, \"growth_interval\": 2000, \"_growth_tracker\": 5})\nr.scale(ones(1))");
  EXPECT_EQ(t.diag, "<test>:2:1: UserWarning: the checkpoint loaded from host.ckpt holds GradScaler state (scale=2048.0) but "
                    "this GradScaler starts fresh (scale=65536.0); call scaler.load_state_dict(ckpt[\"scaler\"]) to resume it\n");
  amps_release(ckpt);
}
