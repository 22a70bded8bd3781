// Running code through the C API: statuses, positioned diagnostics, results, globals, calls, sinks.
#include <cstdlib>
#include <cstring>

#include "embed_util.hpp"

using amps_test::CapturedVm;

TEST(EmbedRun, OkWritesToTheOutputSinkAndReturnsTheTrailingExpression) {
  CapturedVm t;
  amps_value* r = nullptr;
  ASSERT_EQ(amps_run(t.vm, nullptr, "print(\"hi\")\n1 + 2", &r), AMPS_OK);
  EXPECT_EQ(t.out, "hi\n");
  int64_t v = 0;
  ASSERT_EQ(amps_to_int(t.vm, r, &v), AMPS_OK);
  EXPECT_EQ(v, 3);
  EXPECT_EQ(amps_last_error(t.vm)->status, AMPS_OK);
  amps_release(r);
}

TEST(EmbedRun, SyntaxErrorIsReportedWithItsPosition) {
  CapturedVm t;
  ASSERT_EQ(amps_run(t.vm, "bad.amps", "let x = 1\nlet y = (2 +\n", nullptr), AMPS_ERROR_SYNTAX);
  const amps_error* e = amps_last_error(t.vm);
  EXPECT_EQ(e->status, AMPS_ERROR_SYNTAX);
  EXPECT_STREQ(e->kind, "SyntaxError");
  EXPECT_STREQ(e->file, "bad.amps");
  EXPECT_GE(e->line, 2u);
  EXPECT_NE(std::strstr(e->diagnostic, "bad.amps:"), nullptr) << e->diagnostic;
}

TEST(EmbedRun, UndefinedNameIsACompileError) {
  CapturedVm t;
  EXPECT_EQ(t.run("print(nope)"), AMPS_ERROR_SYNTAX);
  EXPECT_EQ(t.kind(), "NameError");
}

TEST(EmbedRun, RuntimeErrorCarriesPositionAndCallStack) {
  CapturedVm t;
  ASSERT_EQ(amps_run(t.vm, "rt.amps", "fn f(x) {\n  return x / 0\n}\nf(1)\n", nullptr), AMPS_ERROR_RUNTIME);
  const amps_error* e = amps_last_error(t.vm);
  EXPECT_STREQ(e->kind, "ZeroDivisionError");
  EXPECT_EQ(e->line, 2u);
  EXPECT_NE(std::strstr(e->diagnostic, "rt.amps:2:"), nullptr) << e->diagnostic;
  EXPECT_NE(std::strstr(e->diagnostic, "rt.amps:4:"), nullptr) << e->diagnostic;   // the caller's line
}

TEST(EmbedRun, GlobalsPersistAcrossRunsAndTheHostCanSetThem) {
  CapturedVm t;
  t.ok("let counter = 41");
  amps_value* v = amps_int(1);
  ASSERT_EQ(amps_set_global(t.vm, "step", v), AMPS_OK);     // new name: a builtin
  amps_release(v);
  t.ok("counter = counter + step");
  amps_value* c = nullptr;
  ASSERT_EQ(amps_get_global(t.vm, "counter", &c), AMPS_OK);
  int64_t n = 0;
  ASSERT_EQ(amps_to_int(t.vm, c, &n), AMPS_OK);
  EXPECT_EQ(n, 42);
  amps_release(c);
  v = amps_int(7);
  ASSERT_EQ(amps_set_global(t.vm, "counter", v), AMPS_OK);  // declared by the script: assigned
  amps_release(v);
  t.ok("print(counter)");
  EXPECT_EQ(t.out, "7\n");
  EXPECT_EQ(amps_get_global(t.vm, "missing", &c), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "NameError");
}

TEST(EmbedRun, HostCallsScriptFunctionsAndMethods) {
  CapturedVm t;
  t.ok("fn add(a, b) { return a + b }\nclass Box { let v = 2\n fn get(self, k) { return self.v * k } }\nlet box = Box()");
  amps_value *add = nullptr, *r = nullptr;
  ASSERT_EQ(amps_get_global(t.vm, "add", &add), AMPS_OK);
  EXPECT_EQ(amps_typeof(add), AMPS_TYPE_CALLABLE);
  amps_value* args[] = {amps_float(1.5), amps_int(2)};
  ASSERT_EQ(amps_call(t.vm, add, 2, args, &r), AMPS_OK) << amps_last_error(t.vm)->diagnostic;
  double d = 0;
  ASSERT_EQ(amps_to_float(t.vm, r, &d), AMPS_OK);
  EXPECT_EQ(d, 3.5);
  amps_release(r);
  amps_value *box = nullptr, *get = nullptr;
  ASSERT_EQ(amps_get_global(t.vm, "box", &box), AMPS_OK);
  ASSERT_EQ(amps_get_attr(t.vm, box, "get", &get), AMPS_OK);
  ASSERT_EQ(amps_call(t.vm, get, 1, args + 1, &r), AMPS_OK);
  int64_t n = 0;
  ASSERT_EQ(amps_to_int(t.vm, r, &n), AMPS_OK);
  EXPECT_EQ(n, 4);
  EXPECT_EQ(amps_call(t.vm, add, 1, args, nullptr), AMPS_ERROR_RUNTIME);   // missing argument
  EXPECT_EQ(t.kind(), "TypeError");
  for (amps_value* v : {add, r, box, get, args[0], args[1]}) amps_release(v);
}

TEST(EmbedRun, StringsAndReprRoundTrip) {
  CapturedVm t;
  amps_value* s = amps_str("héllo", std::strlen("héllo"));
  const char* text = nullptr;
  size_t len = 0;
  ASSERT_EQ(amps_to_str(t.vm, s, &text, &len), AMPS_OK);
  EXPECT_EQ(std::string(text, len), "héllo");
  amps_value* items[] = {s, amps_none()};
  amps_value* list = amps_list(2, items);
  char* r = nullptr;
  ASSERT_EQ(amps_repr(t.vm, list, &r), AMPS_OK);
  EXPECT_STREQ(r, "['héllo', none]");
  std::free(r);
  for (amps_value* v : {s, items[1], list}) amps_release(v);
}

TEST(EmbedMisuse, NullHandlesAreErrorsWithMessages) {
  EXPECT_EQ(amps_run(nullptr, nullptr, "1", nullptr), AMPS_ERROR_MISUSE);
  EXPECT_EQ(amps_last_error(nullptr)->status, AMPS_ERROR_MISUSE);
  EXPECT_NE(std::strstr(amps_last_error(nullptr)->message, "null amps_vm"), nullptr);
  amps_interrupt(nullptr);
  amps_free(nullptr);
  amps_release(nullptr);
  CapturedVm t;
  EXPECT_EQ(amps_run(t.vm, nullptr, nullptr, nullptr), AMPS_ERROR_MISUSE);
  EXPECT_EQ(t.kind(), "MisuseError");
  EXPECT_NE(t.message().find("code is NULL"), std::string::npos);
  EXPECT_EQ(amps_call(t.vm, nullptr, 0, nullptr, nullptr), AMPS_ERROR_MISUSE);
  int64_t i = 0;
  amps_value* s = amps_str("x", 1);
  EXPECT_EQ(amps_to_int(t.vm, s, &i), AMPS_ERROR_MISUSE);
  EXPECT_EQ(t.message(), "amps_to_int: expected an int, bool or integral float, got str");
  EXPECT_EQ(amps_get_global(t.vm, "x", nullptr), AMPS_ERROR_MISUSE);
  amps_release(s);
}

TEST(EmbedMisuse, BadConfigFailsCreationThroughTheDiagnosticSink) {
  CapturedVm t(false, [](amps_config& c) { c.default_device = "tpu"; });
  EXPECT_EQ(t.status, AMPS_ERROR_MISUSE);
  EXPECT_EQ(t.vm, nullptr);
  EXPECT_NE(t.diag.find("amps_new"), std::string::npos) << t.diag;
  CapturedVm half(false, [](amps_config& c) { c.alloc = [](void*, size_t) -> void* { return nullptr; }; });
  EXPECT_EQ(half.status, AMPS_ERROR_MISUSE);
  EXPECT_NE(half.diag.find("alloc and free"), std::string::npos) << half.diag;
}

TEST(EmbedRun, StdlibIsInstalledUnlessTheConfigSaysNot) {
  CapturedVm with(true);
  with.ok("import nn\nprint(type(nn.Linear(2, 3)))");
  EXPECT_EQ(with.out, "<class 'Linear'>\n");
  CapturedVm without;
  EXPECT_EQ(without.run("import nn"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(without.kind(), "ModuleNotFoundError");
  ASSERT_EQ(amps_open_stdlib(without.vm), AMPS_OK);
  without.ok("import optim");
}
