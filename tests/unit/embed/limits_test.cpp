// Limits a host sets: step and time budgets, interrupts from another thread, the sandbox (no file
// access; imports only from module roots) and the host's module loader.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "embed_util.hpp"

using amps_test::CapturedVm;
using Clock = std::chrono::steady_clock;

namespace {

// started(): tells the host the script is running (user: an atomic flag).
amps_status native_started(amps_vm*, amps_args* call) {
  static_cast<std::atomic<bool>*>(amps_args_user(call))->store(true);
  return AMPS_OK;
}

// A directory with helper.amps (under the roots) and a sibling outside.txt.amps (not).
struct ModuleDir {
  ModuleDir() {
    root = std::filesystem::temp_directory_path() / ("amps_embed_roots_" + std::to_string(::getpid()));
    std::filesystem::create_directories(root / "lib");
    std::ofstream(root / "lib" / "helper.amps") << "fn triple(x) { return 3 * x }\n";
    std::ofstream(root / "outside.amps") << "let secret = 1\n";
  }
  ~ModuleDir() { std::filesystem::remove_all(root); }
  std::filesystem::path root;
};

}  // namespace

TEST(EmbedLimits, StepBudgetStopsARunawayLoop) {
  CapturedVm t(false, [](amps_config& c) { c.step_budget = 10000; });
  EXPECT_EQ(t.run("let n = 0\nwhile true { n = n + 1 }"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "BudgetError");
  t.ok("let m = 0\nfor i in range(5000) { m = m + 1 }");   // each run gets the whole budget again
}

TEST(EmbedLimits, ExhaustedBudgetCannotBeCaughtAndIgnored) {
  CapturedVm t(false, [](amps_config& c) { c.step_budget = 1000; });
  EXPECT_EQ(t.run("while true { try { while true {} } catch e { print(e.kind) } }"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.out, "BudgetError\n");
  EXPECT_EQ(t.kind(), "BudgetError");
}

TEST(EmbedLimits, TimeBudgetInterruptsWithinTheBudget) {
  CapturedVm t(false, [](amps_config& c) { c.time_budget_ms = 150; });
  auto start = Clock::now();
  EXPECT_EQ(t.run("while true {}"), AMPS_ERROR_RUNTIME);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  EXPECT_EQ(t.kind(), "TimeoutError");
  EXPECT_GE(ms, 150);
  EXPECT_LT(ms, 2000);
}

TEST(EmbedLimits, HostThreadInterruptsARunawayScript) {
  CapturedVm t;
  std::atomic<bool> started{false};
  amps_reg table[] = {{"started", native_started, AMPS_CAST_NONE, &started}, {}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  std::thread host([&] {
    while (!started.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    amps_interrupt(t.vm);
  });
  auto start = Clock::now();
  EXPECT_EQ(amps_run(t.vm, "loop.amps", "started()\nwhile true {}\n", nullptr), AMPS_ERROR_RUNTIME);
  host.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(t.kind(), "KeyboardInterrupt");
  EXPECT_EQ(amps_last_error(t.vm)->line, 2u);
}

TEST(EmbedLimits, InterruptIsCatchableInTheScript) {
  CapturedVm t;
  std::atomic<bool> started{false};
  amps_reg table[] = {{"started", native_started, AMPS_CAST_NONE, &started}, {}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  std::thread host([&] {
    while (!started.load()) std::this_thread::yield();
    amps_interrupt(t.vm);
  });
  t.ok("try { started()\n while true {} } catch e { print(e.kind) }\nprint(\"after\")");
  host.join();
  EXPECT_EQ(t.out, "KeyboardInterrupt\nafter\n");
}

TEST(EmbedSandbox, ScriptsCannotOpenFiles) {
  CapturedVm t(true, [](amps_config& c) { c.sandbox = 1; });
  const char* attempts[] = {"save(ones(2), \"/tmp/amps_embed_sandbox.safetensors\")",
                            "load(\"/etc/passwd\")",
                            "import \"/etc/hosts.amps\" as h"};
  for (const char* code : attempts) {
    EXPECT_EQ(t.run(code), AMPS_ERROR_RUNTIME) << code;
    EXPECT_EQ(t.kind(), "PermissionError") << code;
    EXPECT_NE(t.message().find("sandbox"), std::string::npos) << t.message();
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/amps_embed_sandbox.safetensors"));
}

TEST(EmbedSandbox, ImportsComeOnlyFromModuleRoots) {
  ModuleDir dir;
  std::string lib = (dir.root / "lib").string();
  CapturedVm t(false, [&](amps_config& c) {
    static const char* roots[1];
    roots[0] = lib.c_str();
    c.sandbox = 1;
    c.module_roots = roots;
    c.module_root_count = 1;
  });
  t.ok("import helper\nprint(helper.triple(2))");
  std::string inside = "import \"" + (dir.root / "lib" / "helper.amps").string() + "\" as h\nprint(h.triple(1))";
  t.ok(inside.c_str());
  EXPECT_EQ(t.out, "6\n3\n");
  std::string escape = "import \"" + lib + "/../outside.amps\" as o";
  EXPECT_EQ(t.run(escape.c_str()), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "PermissionError");
  EXPECT_NE(t.message().find("only from its module roots"), std::string::npos) << t.message();
}

TEST(EmbedSandbox, HostLoaderServesImportsFirst) {
  CapturedVm t(false, [](amps_config& c) {
    c.load_module = [](void*, const char* name) -> char* {
      if (std::strcmp(name, "greet") != 0) return nullptr;
      return strdup("fn hello(n) { return f\"hello {n}\" }\n");
    };
  });
  t.ok("import greet\nprint(greet.hello(\"host\"))");
  EXPECT_EQ(t.out, "hello host\n");
  EXPECT_EQ(t.run("import nothere"), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "ModuleNotFoundError");
}
