// The interactive REPL (see repl.hpp). Ctrl-C interrupts a running entry (it becomes a
// KeyboardInterrupt error) and clears the line at the prompt; Ctrl-D exits.
#include "interp/repl.hpp"

#include <editline/readline.h>

#include <csignal>
#include <cstring>
#include <cstdlib>
#include <string>
#include <vector>

#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/interp.hpp"
#include "interp/parser.hpp"
#include "interp/repl_commands.hpp"
#include "interp/embed/handles.hpp"
#include "runtime/error.hpp"
#include "stdlib/install.hpp"

namespace amps::interp {
namespace {

Interp* g_repl = nullptr;            // the REPL's interpreter, for completion and SIGINT
std::vector<std::string> g_matches;  // completion candidates of the current request

extern "C" void repl_sigint(int) {
  if (g_repl) g_repl->request_interrupt();
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.amps_history";
}

// Attribute names of a value, for completing `obj.<TAB>`.
std::vector<std::string> attribute_names(const Value& v) {
  std::vector<std::string> out;
  if (v.is(ObjKind::Module)) for (auto& [k, x] : v.as<Module>()->attrs) out.push_back(*k);
  if (v.is(ObjKind::Instance)) {
    for (auto& [k, x] : v.as<Instance>()->attrs) out.push_back(*k);
    for (const Class* c = v.as<Instance>()->cls.get(); c; c = c->base.get())
      for (auto& [k, x] : c->attrs) out.push_back(*k);
  }
  if (v.is(ObjKind::Class))
    for (const Class* c = v.as<Class>(); c; c = c->base.get())
      for (auto& [k, x] : c->attrs) out.push_back(*k);
  return out;
}

// Candidates for `text`: a global name, or `a.b.pre` resolved through attributes only
// (nothing is called, so completion has no side effects).
std::vector<std::string> candidates(const std::string& text) {
  size_t dot = text.rfind('.');
  if (dot == std::string::npos) {
    std::vector<std::string> out;
    for (auto& n : g_repl->global_names())
      if (n.starts_with(text) && n.find("__") != 0) out.push_back(n);
    return out;
  }
  std::string path = text.substr(0, dot), prefix = text.substr(dot + 1);
  size_t start = 0, next;
  std::string first = path.substr(0, path.find('.'));
  Value v = g_repl->lookup_global(first);
  start = first.size();
  while (!v.is_undef() && start < path.size()) {
    next = path.find('.', start + 1);
    std::string part = path.substr(start + 1, next == std::string::npos ? std::string::npos : next - start - 1);
    v = g_repl->find_attr(v, intern(part));
    start = next == std::string::npos ? path.size() : next;
  }
  std::vector<std::string> out;
  if (v.is_undef()) return out;
  for (auto& n : attribute_names(v))
    if (n.starts_with(prefix)) out.push_back(path + "." + n);
  return out;
}

extern "C" char* complete_next(const char* text, int state) {
  if (state == 0) g_matches = candidates(text);
  if (size_t(state) >= g_matches.size()) return nullptr;
  return strdup(g_matches[state].c_str());
}

extern "C" char** complete(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, complete_next);
}

const char* kHelp =
    "amps REPL: type statements or expressions; an expression's value is printed.\n"
    "  Open brackets or a trailing operator continue on the next line.\n"
    "  :help   this text\n"
    "  :quit   leave (or Ctrl-D)\n"
    "  Ctrl-C interrupts a running statement; Tab completes names and attributes.\n";

// Reads one entry (several lines while brackets are open); false at end of input.
bool read_entry(std::string& entry) {
  entry.clear();
  const char* prompt = ">>> ";
  for (;;) {
    char* line = readline(prompt);
    if (!line) return !entry.empty();
    entry += (entry.empty() ? "" : "\n") + std::string(line);
    std::free(line);
    if (entry.empty() || !needs_more_input(entry)) return true;
    prompt = "... ";
  }
}

// Runs one entry; returns the exit status when it called exit() (the REPL then ends), else -1.
int run_entry(Interp& in, const std::string& entry, int n) {
  auto src = std::make_shared<SourceFile>("<stdin>", entry, ".");
  try {
    Value v = in.run(src, true);
    if (!v.is_undef() && !v.is_none()) in.write_out(in.repr(v) + "\n");
  } catch (const AmpsError& e) {
    std::fflush(stdout);
    if (is_system_exit(e)) return system_exit_status(e, [&](std::string_view s) { in.write_err(s); });
    in.write_err(format_diagnostic(e));
  }
  (void)n;
  return -1;
}

}  // namespace

int run_repl() {
  Interp in;
  amps_status installed = stdlib::install_stdlib(embed::handle_of(in));
  AMPS_ASSERT(installed == AMPS_OK, "installing the stdlib failed: {}", amps_last_error(embed::handle_of(in))->message);
  g_repl = &in;
  rl_readline_name = "amps";
  rl_attempted_completion_function = complete;
  std::string hist = history_path();
  read_history(hist.c_str());
  std::signal(SIGINT, repl_sigint);
  std::printf("amps REPL: :help for help, :quit or Ctrl-D to leave\n");
  std::string entry;
  int status = 0;
  for (int n = 1; read_entry(entry); ++n) {
    if (entry.find_first_not_of(" \t\n") == std::string::npos) continue;
    add_history(entry.c_str());
    if (entry == ":quit" || entry == ":q") break;
    if (entry == ":help") { std::fputs(kHelp, stdout); std::fputs(kCastCommandsHelp, stdout); continue; }
    if (entry.starts_with(":") && run_cast_command(in, entry)) continue;
    if (entry.starts_with(":")) { std::printf("unknown command %s (try :help)\n", entry.c_str()); continue; }
    if ((status = run_entry(in, entry, n)) >= 0) break;
    status = 0;
  }
  write_history(hist.c_str());
  std::printf("\n");
  g_repl = nullptr;
  return status;
}

}  // namespace amps::interp
