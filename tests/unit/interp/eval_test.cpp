// Evaluator units: run snippets through Interp with captured output; results, errors, hooks.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "interp/diagnostics.hpp"
#include "interp/interp.hpp"

namespace amps::interp {
namespace {

// An interpreter whose print output is collected in `out`.
struct Harness {
  std::string out, err;
  std::unique_ptr<Interp> in;
  explicit Harness(InterpConfig cfg = {}) {
    cfg.sinks.out = [this](std::string_view s) { out += s; };
    cfg.sinks.err = [this](std::string_view s) { err += s; };
    in = std::make_unique<Interp>(std::move(cfg));
  }
  Value run(const std::string& code, bool interactive = false) {
    return in->run(std::make_shared<SourceFile>("t.amps", code, "."), interactive);
  }
  AmpsError error(const std::string& code) {
    try {
      run(code);
    } catch (const AmpsError& e) {
      return e;
    }
    ADD_FAILURE() << "no error from: " << code;
    return AmpsError("", "");
  }
};

std::string output_of(const std::string& code) {
  Harness h;
  h.run(code);
  return h.out;
}

TEST(Eval, PrintGoesToTheSink) {
  EXPECT_EQ(output_of("print(1 + 2, \"x\", 0.1, none, [true])"), "3 x 0.1 none [true]\n");
  EXPECT_EQ(output_of("print(1, 2, sep=\"-\", end=\"|\")"), "1-2|");
}

TEST(Eval, InteractiveRunReturnsTheTrailingExpression) {
  Harness h;
  EXPECT_TRUE(h.run("let x = 20", true).is_undef());
  Value v = h.run("x * 2 + 2", true);
  ASSERT_TRUE(v.is_int());
  EXPECT_EQ(v.as_int(), 42);
  EXPECT_TRUE(h.run("x * 2", false).is_undef());   // not interactive: no value
  EXPECT_EQ(h.in->repr(h.run("[x, \"s\"]", true)), "[20, 's']");
}

TEST(Eval, GlobalsPersistAcrossRuns) {
  Harness h;
  h.run("let counter = 1\nfn bump() { counter += 1 }");
  h.run("bump(); bump()");
  EXPECT_EQ(h.in->lookup_global("counter").as_int(), 3);
  auto names = h.in->global_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "bump"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "print"), names.end());
}

// [e] is a [kind] error saying [message] at [line]:[col].
void expect_error_at(const AmpsError& e, const std::string& kind, const std::string& message, unsigned line,
                     unsigned col) {
  EXPECT_EQ(e.kind(), kind);
  EXPECT_EQ(e.message(), message);
  EXPECT_EQ(e.span().line, line);
  EXPECT_EQ(e.span().col, col);
}

TEST(Eval, ErrorsCarryKindMessageAndSpan) {
  Harness h;
  AmpsError e = h.error("let xs = [1]\nprint(xs[3])");
  expect_error_at(e, "IndexError", "list index 3 is out of range for length 1", 2, 7);
  e = h.error("let z = 1 / 0");
  EXPECT_EQ(e.kind(), "ZeroDivisionError");
  EXPECT_EQ(e.span().col, 11u);
}

TEST(Eval, ErrorsInFunctionsRecordTheCallStack) {
  Harness h;
  AmpsError e = h.error("fn inner() { return [][0] }\nfn outer() { return inner() }\nouter()");
  ASSERT_EQ(e.stack().size(), 3u);
  EXPECT_EQ(e.stack()[0].function, "inner");
  EXPECT_EQ(e.stack()[0].where.line, 1u);
  EXPECT_EQ(e.stack()[1].function, "outer");
  EXPECT_EQ(e.stack()[1].where.line, 2u);
  EXPECT_EQ(e.stack()[2].function, "<script>");
  EXPECT_EQ(e.stack()[2].where.line, 3u);
  std::string text = format_diagnostic(e);
  EXPECT_EQ(text.rfind("t.amps:1:21: IndexError: ", 0), 0u) << text;
  EXPECT_NE(text.find("in outer at t.amps:2:21"), std::string::npos) << text;
}

TEST(Eval, ScriptsCatchErrorsAsValues) {
  EXPECT_EQ(output_of("try { {}[\"k\"] } catch e { print(e.kind, e.message) } finally { print(\"f\") }"),
            "KeyError 'k'\nf\n");
}

TEST(Eval, NativeFunctionsAreCallableFromScripts) {
  Harness h;
  std::vector<int64_t> seen;
  h.in->def_native("record", [&](Interp&, CallArgs& a) {
    for (auto& v : a.pos) seen.push_back(v.as_int());
    for (auto& [k, v] : a.kw) seen.push_back(v.as_int() * (*k == "w" ? 100 : -1));
    return Value(int64_t(a.pos.size()));
  });
  h.run("print(record(1, 2, w=3))");
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 2, 300}));
  EXPECT_EQ(h.out, "2\n");
}

TEST(Eval, CallingScriptFunctionsFromCpp) {
  Harness h;
  h.run("fn add(a, b=10) { return a + b }");
  Value r = h.in->call(h.in->lookup_global("add"), std::vector<Value>{Value(int64_t(5))});
  EXPECT_EQ(r.as_int(), 15);
}

TEST(Eval, AutocastAndNoGradRunTheirBodiesInsideTheHooksGuard) {
  Harness h;
  std::vector<std::string> events;
  h.in->def_global("cuda", Value(int64_t(7)));
  h.in->def_global("float16", Value(int64_t(16)));
  h.in->def_native("mark", [&](Interp&, CallArgs& a) { events.push_back("body " + std::to_string(a.pos[0].as_int())); return Value(); });
  h.in->hooks.autocast_enter = [&](Interp&, const Value& dev, CallArgs& args) {
    std::string kw;
    for (auto& [k, v] : args.kw) kw += " " + *k + "=" + (v.as_bool() ? "true" : "false");
    events.push_back("enter " + std::to_string(dev.as_int()) + " " + std::to_string(args.pos.at(0).as_int()) + kw);
    return std::shared_ptr<void>(nullptr, [&](void*) { events.push_back("exit autocast"); });
  };
  h.in->hooks.grad_mode_enter = [&](Interp&, bool enabled) {
    events.push_back(enabled ? "enter enable_grad" : "enter no_grad");
    return std::shared_ptr<void>(nullptr, [&](void*) { events.push_back("exit no_grad"); });
  };
  h.run("autocast cuda<float16, enabled=false> { let y = 1; no_grad { mark(y) } }\nmark(y + 1)");
  EXPECT_EQ(events, (std::vector<std::string>{"enter 7 16 enabled=false", "enter no_grad", "body 1", "exit no_grad",
                                              "exit autocast", "body 2"}));
}

TEST(Eval, AutocastGuardIsReleasedWhenTheBodyFails) {
  Harness h;
  bool released = false;
  h.in->def_global("dev", Value());
  h.in->hooks.autocast_enter = [&](Interp&, const Value&, CallArgs&) {
    return std::shared_ptr<void>(nullptr, [&](void*) { released = true; });
  };
  EXPECT_EQ(h.error("autocast dev<> { [][0] }").kind(), "IndexError");
  EXPECT_TRUE(released);
}

TEST(Eval, ScaleWithoutAScalerNamesTheFix) {
  Harness h;
  AmpsError e = h.error("scale(1.0)");
  EXPECT_EQ(e.kind(), "RuntimeError");
  EXPECT_NE(e.message().find("GradScaler()"), std::string::npos) << e.message();
}

TEST(Eval, ScriptArgumentsAreAList) {
  InterpConfig cfg;
  cfg.script_args = {"--lr", "0.1"};
  Harness h(std::move(cfg));
  h.run("print(args, len(args))");
  EXPECT_EQ(h.out, "['--lr', '0.1'] 2\n");
}

TEST(Eval, RecursionLimitIsConfigurableAndCatchable) {
  InterpConfig cfg;
  cfg.max_call_depth = 50;
  Harness h(std::move(cfg));
  h.run("fn d(n) { return 0 if n == 0 else 1 + d(n - 1) }\nprint(d(40))");
  EXPECT_EQ(h.out, "40\n");
  EXPECT_EQ(h.error("d(60)").kind(), "RecursionError");
  h.run("print(d(45))");   // the interpreter is usable after the error
  EXPECT_EQ(h.out, "40\n45\n");
}

TEST(Eval, InterruptStopsARunningLoop) {
  Harness h;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    h.in->request_interrupt();
  });
  AmpsError e = h.error("let n = 0\nwhile true { n += 1 }");
  t.join();
  EXPECT_EQ(e.kind(), "KeyboardInterrupt");
  EXPECT_GT(h.in->lookup_global("n").as_int(), 0);
  h.run("print(\"still alive\")");
  EXPECT_EQ(h.out, "still alive\n");
}

TEST(Eval, InterpretersAreIndependent) {
  Harness a, b;
  a.run("let x = 1");
  b.run("let x = 2");
  a.run("print(x)");
  b.run("print(x)");
  EXPECT_EQ(a.out, "1\n");
  EXPECT_EQ(b.out, "2\n");
}

TEST(Eval, FileImportsResolveAgainstTheImportingFile) {
  auto dir = std::filesystem::temp_directory_path() / ("amps_eval_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "lib");
  std::ofstream(dir / "lib" / "helper.amps") << "let k = 3\nfn triple(x) { return x * k }\n";
  std::ofstream(dir / "main.amps") << "import \"lib/helper.amps\" as h\nprint(h.triple(4), h.k)\n";
  Harness h;
  h.in->run_file((dir / "main.amps").string());
  EXPECT_EQ(h.out, "12 3\n");
  std::filesystem::remove_all(dir);
}

TEST(Eval, ReprAndStrFollowPython) {
  Harness h;
  EXPECT_EQ(h.in->repr(h.run("(1,)", true)), "(1,)");
  EXPECT_EQ(h.in->repr(h.run("\"it's\"", true)), "\"it's\"");
  EXPECT_EQ(h.in->str(h.run("65536.0", true)), "65536.0");
  EXPECT_EQ(h.in->str(h.run("1e-5", true)), "1e-05");
  EXPECT_EQ(h.in->repr(h.run("{\"a\": none}", true)), "{'a': none}");
}

}  // namespace
}  // namespace amps::interp

namespace amps::interp {
namespace {

// Source text the lexer cannot take is a positioned SyntaxError, never an exception without a place: invalid
// UTF-8, NUL bytes, brackets nested past the parser's limit; a directory is not a script.
TEST(Eval, BadSourceTextIsAPositionedSyntaxError) {
  Harness h;
  AmpsError utf8 = h.error("let a = 1\nprint(\"\xc3\xa9\", \"a\xff\")");
  // column 14 in code points: the two-byte é counts once
  expect_error_at(utf8, "SyntaxError", "invalid UTF-8 byte 0xff in the source; save the file as UTF-8", 2, 14);
  AmpsError nul = h.error(std::string("print(1)\0print(2)", 17));
  EXPECT_EQ(nul.kind(), "SyntaxError");
  EXPECT_EQ(nul.span().col, 9u);
  EXPECT_EQ(h.error("let x = " + std::string(201, '(') + "1" + std::string(201, ')')).message(),
            "too many nested brackets (more than 200); split the expression into named parts");
  h.run("let ok = " + std::string(150, '[') + "1" + std::string(150, ']'));
  const std::string dir = (std::filesystem::temp_directory_path() / "amps_dir_script").string();
  std::filesystem::create_directories(dir);
  AmpsError imp = h.error("import \"" + dir + "\" as d");
  EXPECT_EQ(imp.kind(), "IsADirectoryError");
}

}  // namespace
}  // namespace amps::interp
