// The `amps` command line (see cli.hpp).
#include "interp/cli.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "amp/policy.hpp"
#include "interp/ast_printer.hpp"
#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/interp.hpp"
#include "interp/parser.hpp"
#include "interp/embed/handles.hpp"
#include "runtime/error.hpp"
#include "runtime/op_profiler.hpp"
#include "stdlib/install.hpp"
#include "interp/repl.hpp"

#ifndef AMPS_VERSION
#define AMPS_VERSION "0.0.0"
#endif

namespace amps::interp {
namespace {

struct Options {
  std::string code;
  bool dump_tokens = false, dump_ast = false;
  bool trace_casts = false, dump_cast_lists = false, profile = false, profile_gpu = false;
  size_t profile_rows = 25;
  std::vector<std::string> rest;   // FILE then the script's ARGS
};

std::atomic<Interp*> g_running{nullptr};   // the interpreter SIGINT interrupts

extern "C" void on_sigint(int) {
  if (Interp* in = g_running.load()) in->request_interrupt();
}

// Reads a file or stdin ("-") as a SourceFile; throws AmpsError when unreadable.
SourceRef load_source(const std::string& path) {
  std::ostringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    return std::make_shared<SourceFile>("<stdin>", ss.str(), ".");
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw AmpsError("IsADirectoryError", "cannot run '" + path + "': it is a directory, not a script");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw AmpsError("FileNotFoundError", "cannot open script '" + path + "': " + std::strerror(errno));
  ss << f.rdbuf();
  auto dir = std::filesystem::path(path).parent_path().string();
  return std::make_shared<SourceFile>(path, ss.str(), dir.empty() ? "." : dir);
}

int report(const AmpsError& e) {
  std::fflush(stdout);
  if (is_system_exit(e))   // exit(code), raise SystemExit(code) or a subclass: the status, no traceback (a text code is printed, as Python)
    return system_exit_status(e, [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stderr); });
  std::string text = format_diagnostic(e);
  if (!e.has_span() && text.starts_with("<unknown>: ")) text = "amps: " + text.substr(11);
  std::fwrite(text.data(), 1, text.size(), stderr);  // all of it: a NUL in a shown source line must not cut it
  return 1;
}

// The --profile table, on stderr after the script's own output (and after its error, if it failed).
void print_profile(const rt::OpProfiler& profiler, std::chrono::steady_clock::duration wall, size_t rows) {
  std::fflush(stdout);
  const std::string text = profiler.table(std::chrono::duration<double>(wall).count(), rows);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

// --dump-tokens / --dump-ast: the stage's printout of [src]; its syntax error is reported here, while the
// source it points into is alive.
int dump_stage(const Options& opt, const SourceRef& src) {
  try {
    std::fputs((opt.dump_tokens ? dump_tokens(src) : dump_ast(parse_program(src))).c_str(), stdout);
    return 0;
  } catch (const AmpsError& e) {
    return report(e);
  }
}

int run_source(const Options& opt, SourceRef src, std::vector<std::string> script_args, std::string script_name) {
  if (opt.dump_tokens || opt.dump_ast) return dump_stage(opt, src);
  InterpConfig cfg;
  cfg.script_args = std::move(script_args);
  cfg.script_name = std::move(script_name);
  cfg.trace_casts = opt.trace_casts;
  Interp in(std::move(cfg));
  amps_status installed = stdlib::install_stdlib(embed::handle_of(in));
  AMPS_ASSERT(installed == AMPS_OK, "installing the stdlib failed: {}", amps_last_error(embed::handle_of(in))->message);
  std::shared_ptr<rt::OpProfiler> profiler;
  if (opt.profile || opt.profile_gpu)
    in.runtime().add_layer(profiler = std::make_shared<rt::OpProfiler>(opt.profile_gpu), rt::layer_order::profiling);
  g_running = &in;
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  try {
    in.run(src);
  } catch (const AmpsError& e) {
    status = report(e);
  }
  g_running = nullptr;
  if (profiler) print_profile(*profiler, std::chrono::steady_clock::now() - start, opt.profile_rows);
  return status;
}

int dispatch(const Options& opt) {
  std::signal(SIGINT, on_sigint);
  if (opt.dump_cast_lists) { std::fputs(amp::cast_lists_markdown().c_str(), stdout); return 0; }
  if (!opt.code.empty()) return run_source(opt, std::make_shared<SourceFile>("<string>", opt.code, "."), opt.rest, "-c");
  if (!opt.rest.empty()) {
    std::vector<std::string> script_args(opt.rest.begin() + 1, opt.rest.end());
    return run_source(opt, load_source(opt.rest[0]), std::move(script_args), opt.rest[0]);
  }
  if (!isatty(STDIN_FILENO)) return run_source(opt, load_source("-"), {}, "");
  return run_repl();
}

}  // namespace

int cli_main(int argc, char** argv) {
  CLI::App app{"amps: run mixed-precision training scripts (.amps)", "amps"};
  Options opt;
  app.prefix_command();
  app.set_version_flag("--version", std::string("amps ") + AMPS_VERSION);
  app.add_option("-e", opt.code, "run CODE instead of a file");
  app.add_flag("--dump-tokens", opt.dump_tokens, "print the token stream and exit");
  app.add_flag("--dump-ast", opt.dump_ast, "print the AST as s-expressions and exit");
  app.add_flag("--trace-casts", opt.trace_casts, "print each autocast decision (op, dtypes, policy, FILE:LINE:COL) to stderr");
  app.add_flag("--profile", opt.profile, "time every op and print a table (op, dtype, calls, self/total ms) to stderr at exit");
  app.add_flag("--profile-gpu", opt.profile_gpu,
               "--profile, waiting for the GPU before and after every op so that rows hold its time (cuda)");
  app.add_option("--profile-rows", opt.profile_rows, "rows of the --profile table (default 25)");
  app.add_flag("--dump-cast-lists", opt.dump_cast_lists, "print the autocast cast lists (docs/cast-lists.md) and exit");
  app.footer("Usage: amps FILE.amps [ARGS...] | amps -e CODE | amps (REPL)\n"
             "Exit status: 0 success, 1 error in the script, 2 bad command line.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  opt.rest = app.remaining();
  if (!opt.rest.empty() && opt.rest[0] == "--") opt.rest.erase(opt.rest.begin());
  if (!opt.rest.empty() && opt.rest[0].starts_with("-") && opt.rest[0] != "-") {
    std::fprintf(stderr, "amps: unknown option '%s' (see amps --help)\n", opt.rest[0].c_str());
    return 2;
  }
  try {
    return dispatch(opt);
  } catch (const AmpsError& e) {
    return report(e);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "amps: MemoryError: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amps: internal error: %s\n", e.what());
    return 1;
  }
}

}  // namespace amps::interp
