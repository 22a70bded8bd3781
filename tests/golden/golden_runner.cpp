// Golden-script runner: runs one .amps file with the amps binary and checks its inline
// expectations (one behaviour per file, as in Crafting Interpreters' test suite):
//   # expect: TEXT                 next line the script prints on stdout (exact)
//   # expect error: Kind: message   the run fails (exit 1) with its first stderr line at this
//                                   comment's line: FILE:LINE:COL: Kind: message...
//   # expect error line N: ...      the same, for an error reported at line N
//   # expect stderr: TEXT           some stderr line contains TEXT
//   # expect stderr once: TEXT      exactly one stderr line contains TEXT (a warning given once)
//   # expect no stderr: TEXT        no stderr line contains TEXT
//   # args: A B C                   arguments passed to the script
//   # exit: N                       expected exit status when it is not 0 or 1
//   # requires: cuda                the script needs a CUDA GPU: without one it is skipped (exit 77, which
//                                   ctest reports as skipped), with one it runs as any other
// With --smoke (examples), stdout is not compared: the script must exit 0, and its arguments
// come from a `# smoke-args: A B C` line.
// Usage: golden_runner [--smoke] AMPS_BINARY SCRIPT.amps
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Expectations {
  std::vector<std::string> stdout_lines;
  std::vector<std::string> stderr_contains;
  std::vector<std::string> stderr_once;
  std::vector<std::string> stderr_absent;
  std::vector<std::string> args;
  std::vector<std::string> smoke_args;
  std::string error;      // "Kind: message" prefix
  int error_line = 0;
  int exit_code = 0;
  bool requires_cuda = false;
};

std::string after(const std::string& line, const std::string& marker) {
  size_t p = line.find(marker);
  return p == std::string::npos ? std::string() : line.substr(p + marker.size());
}

Expectations parse(const std::string& path) {
  Expectations e;
  std::ifstream f(path);
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    if (line.find("# expect: ") != std::string::npos) e.stdout_lines.push_back(after(line, "# expect: "));
    else if (line.find("# expect error line ") != std::string::npos) {
      std::string rest = after(line, "# expect error line ");
      e.error_line = std::stoi(rest);
      e.error = rest.substr(rest.find(": ") + 2);
      e.exit_code = 1;
    } else if (line.find("# expect error: ") != std::string::npos) {
      e.error = after(line, "# expect error: ");
      e.error_line = n;
      e.exit_code = 1;
    } else if (line.find("# expect stderr: ") != std::string::npos) e.stderr_contains.push_back(after(line, "# expect stderr: "));
    else if (line.find("# expect stderr once: ") != std::string::npos) e.stderr_once.push_back(after(line, "# expect stderr once: "));
    else if (line.find("# expect no stderr: ") != std::string::npos) e.stderr_absent.push_back(after(line, "# expect no stderr: "));
    else if (line.find("# args: ") != std::string::npos) {
      std::istringstream ss(after(line, "# args: "));
      for (std::string a; ss >> a;) e.args.push_back(a);
    } else if (line.find("# exit: ") != std::string::npos) e.exit_code = std::stoi(after(line, "# exit: "));
    else if (line.find("# requires: cuda") != std::string::npos) e.requires_cuda = true;
    else if (line.find("# smoke-args: ") != std::string::npos) {
      std::istringstream ss(after(line, "# smoke-args: "));
      for (std::string a; ss >> a;) e.smoke_args.push_back(a);
    }
  }
  return e;
}

std::string slurp(int fd) {
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  close(fd);
  return out;
}

// Runs the binary, returning (status, stdout, stderr). stderr goes through a temp file so a
// script that fills both pipes cannot deadlock.
int run(const std::vector<std::string>& argv, std::string& out, std::string& err) {
  int pout[2];
  if (pipe(pout) != 0) return -1;
  FILE* errf = std::tmpfile();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pout[1], 1);
    dup2(fileno(errf), 2);
    close(pout[0]);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pout[1]);
  out = slurp(pout[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  std::rewind(errf);
  err = slurp(dup(fileno(errf)));
  std::fclose(errf);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

size_t lines_containing(const std::string& text, const std::string& s) {
  size_t n = 0;
  for (const std::string& l : lines(text)) n += l.find(s) != std::string::npos;
  return n;
}

bool check_error(const Expectations& e, const std::string& script, const std::string& err, std::string& why) {
  std::string first = lines(err).empty() ? "" : lines(err)[0];
  std::string pos = script + ":" + std::to_string(e.error_line) + ":";
  if (!first.starts_with(pos)) { why = "error not reported at " + pos + " (got: " + first + ")"; return false; }
  size_t colon = first.find(": ", pos.size());
  std::string msg = colon == std::string::npos ? "" : first.substr(colon + 2);
  if (!msg.starts_with(e.error)) { why = "error message differs\n  want: " + e.error + "\n  got:  " + msg; return false; }
  return true;
}

}  // namespace

// --smoke: run with the smoke arguments; only the exit status counts.
int smoke(const char* amps, const char* script) {
  Expectations e = parse(script);
  std::vector<std::string> cmd = {amps, script};
  cmd.insert(cmd.end(), e.smoke_args.begin(), e.smoke_args.end());
  std::string out, err;
  int status = run(cmd, out, err);
  if (status == 0) return 0;
  std::cerr << "FAIL " << script << ": exit status " << status << "\n--- stdout ---\n" << out << "--- stderr ---\n" << err;
  return 1;
}

// Whether the amps binary sees a CUDA GPU.
bool cuda_present(const char* amps) {
  std::string out, err;
  return run({amps, "-e", "print(cuda.available())"}, out, err) == 0 && out == "true\n";
}

constexpr int kSkipped = 77;  // SKIP_RETURN_CODE of the golden tests (tests/lang.cmake)

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--smoke") return smoke(argv[2], argv[3]);
  if (argc != 3) { std::cerr << "usage: golden_runner [--smoke] AMPS SCRIPT\n"; return 2; }
  Expectations e = parse(argv[2]);
  if (e.requires_cuda && !cuda_present(argv[1])) {
    std::cout << "SKIP " << argv[2] << ": no CUDA GPU\n";
    return kSkipped;
  }
  std::vector<std::string> cmd = {argv[1], argv[2]};
  cmd.insert(cmd.end(), e.args.begin(), e.args.end());
  std::string out, err, why;
  int status = run(cmd, out, err);
  bool ok = status == e.exit_code;
  if (!ok) why = "exit status " + std::to_string(status) + ", expected " + std::to_string(e.exit_code);
  if (ok && !e.error.empty()) ok = check_error(e, argv[2], err, why);
  auto got = lines(out);
  if (ok && got != e.stdout_lines) {
    ok = false;
    why = "stdout differs";
    for (size_t i = 0; i < std::max(got.size(), e.stdout_lines.size()); ++i) {
      std::string w = i < e.stdout_lines.size() ? e.stdout_lines[i] : "<nothing>";
      std::string g = i < got.size() ? got[i] : "<nothing>";
      if (w != g) { why += "\n  line " + std::to_string(i + 1) + " want: " + w + "\n  line " + std::to_string(i + 1) + " got:  " + g; break; }
    }
  }
  for (auto& s : e.stderr_contains)
    if (ok && err.find(s) == std::string::npos) ok = false, why = "stderr lacks: " + s;
  for (auto& s : e.stderr_once)
    if (size_t n = lines_containing(err, s); ok && n != 1) ok = false, why = std::to_string(n) + " stderr lines (want 1) contain: " + s;
  for (auto& s : e.stderr_absent)
    if (ok && lines_containing(err, s) != 0) ok = false, why = "stderr has: " + s;
  if (ok) return 0;
  std::cerr << "FAIL " << argv[2] << ": " << why << "\n--- stdout ---\n" << out << "--- stderr ---\n" << err;
  return 1;
}
