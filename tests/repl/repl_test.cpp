// REPL end to end: drives `amps` (no arguments) through a pseudo-terminal like a user would,
// and checks non-terminal stdin runs as a script. Every wait is bounded, so it cannot hang.
// Usage: repl_tests AMPS_BINARY [gtest flags]
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace {

std::string g_amps;   // path of the amps binary (argv[1])

using Clock = std::chrono::steady_clock;

// A child process on the slave side of a pty; reads collect everything it prints.
class PtySession {
 public:
  explicit PtySession(const std::string& home) {
    struct winsize ws{24, 100, 0, 0};
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "vt100", 1);
      execl(g_amps.c_str(), g_amps.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~PtySession() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0; }

  void type(const std::string& keys) {
    ASSERT_EQ(write(fd_, keys.data(), keys.size()), ssize_t(keys.size()));
  }

  // Reads until `text` appears in the output after the mark, or the timeout passes.
  bool wait_for(const std::string& text, int timeout_ms = 10000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (output_.find(text, mark_) == std::string::npos) {
      int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0 || !read_some(left)) return false;
    }
    mark_ = output_.find(text, mark_) + text.size();
    return true;
  }

  // Ctrl-D at the prompt. It is sent only once the line editor has put the terminal in raw
  // mode: a ^D typed ahead while the tty is still canonical becomes an EOF marker that the mode
  // switch turns into a stray byte (a real user cannot type that fast).
  int ctrl_d_and_wait() {
    if (!wait_raw_mode()) return -2;
    type("\x04");
    return wait_exit();
  }

  bool wait_raw_mode(int timeout_ms = 10000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (struct termios t; Clock::now() < deadline; read_some(10))
      if (tcgetattr(fd_, &t) == 0 && !(t.c_lflag & ICANON)) return true;
    return false;
  }

  // Waits for the process to exit; returns its exit status, or -1 on timeout/signal.
  int wait_exit(int timeout_ms = 10000) {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (Clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      read_some(50);   // keep draining so the child never blocks on a full pty
    }
    return -1;
  }

  const std::string& output() const { return output_; }

 private:
  bool read_some(int timeout_ms) {
    struct pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    output_.append(buf, size_t(n));
    return true;
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  std::string output_;
  size_t mark_ = 0;
};

class Repl : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = std::filesystem::temp_directory_path() / ("amps_repl_test_" + std::to_string(getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(home_);
  }
  void TearDown() override { std::filesystem::remove_all(home_); }
  std::filesystem::path home_;
};

TEST_F(Repl, EvaluatesEntriesAndPrintsValues) {
  PtySession s(home_.string());
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("let x = 2\r");
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("x * 21\r");
  EXPECT_TRUE(s.wait_for("42")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("print(undefined_thing)\r");
  EXPECT_TRUE(s.wait_for("NameError: name 'undefined_thing' is not defined")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("x + 1\r");   // the session survives the error
  EXPECT_TRUE(s.wait_for("3")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  EXPECT_EQ(s.ctrl_d_and_wait(), 0) << s.output();
}

TEST_F(Repl, OpenBraceContinuesOnTheNextLine) {
  PtySession s(home_.string());
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("fn seven() {\r");
  ASSERT_TRUE(s.wait_for("... ")) << s.output();
  s.type("return 7 }\r");
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("seven() * 6\r");
  EXPECT_TRUE(s.wait_for("42")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  EXPECT_EQ(s.ctrl_d_and_wait(), 0) << s.output();
}

TEST_F(Repl, HelpCommand) {
  PtySession s(home_.string());
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type(":help\r");
  EXPECT_TRUE(s.wait_for(":quit")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type(":quit\r");
  EXPECT_EQ(s.wait_exit(), 0) << s.output();
}

TEST_F(Repl, CastExplorationCommands) {
  PtySession s(home_.string());
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("let a = ones(2, 2)\r");
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type(":explain mm(a, a)\r");
  EXPECT_TRUE(s.wait_for("mm(float32, float32) -> float32   [cpu policy: lower_precision_fp]")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type(":trace on\r");
  ASSERT_TRUE(s.wait_for("cast tracing is on")) << s.output();
  s.type("autocast cpu<bfloat16> { let c = mm(a, a) }\r");
  EXPECT_TRUE(s.wait_for("autocast: mm(float32, float32) -> bfloat16 [lower_precision_fp]")) << s.output();
  s.type(":policy xla\r");
  EXPECT_TRUE(s.wait_for("'max_pool2d'")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type(":trace off\r");
  ASSERT_TRUE(s.wait_for("cast tracing is off")) << s.output();
  s.type(":profile autocast cpu<> { mm(a, a) }\r");
  EXPECT_TRUE(s.wait_for("in 3 op calls")) << s.output();  // two casts, then the product
  EXPECT_TRUE(s.wait_for("to(bfloat16)")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type(":quit\r");
  EXPECT_EQ(s.wait_exit(), 0) << s.output();
}

TEST_F(Repl, TabCompletesAGlobalName) {
  PtySession s(home_.string());
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("let zebra_count = 5\r");
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("zebra_c\t");
  EXPECT_TRUE(s.wait_for("ount")) << s.output();   // the rest of the name is inserted
  s.type(" + 1\r");
  EXPECT_TRUE(s.wait_for("6")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  EXPECT_EQ(s.ctrl_d_and_wait(), 0) << s.output();
}

TEST_F(Repl, CtrlCInterruptsARunningEntry) {
  PtySession s(home_.string());
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("while true { }\r");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  s.type("\x03");
  EXPECT_TRUE(s.wait_for("KeyboardInterrupt")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  s.type("1 + 1\r");
  EXPECT_TRUE(s.wait_for("2")) << s.output();
  ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
  EXPECT_EQ(s.ctrl_d_and_wait(), 0) << s.output();
}

TEST_F(Repl, CtrlDExitsZeroAndWritesHistory) {
  {
    PtySession s(home_.string());
    ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
    s.type("let remembered = 1\r");
    ASSERT_TRUE(s.wait_for(">>> ")) << s.output();
    ASSERT_EQ(s.ctrl_d_and_wait(), 0) << s.output();
  }
  std::ifstream f(home_ / ".amps_history");
  ASSERT_TRUE(f.good()) << "no ~/.amps_history";
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("remembered"), std::string::npos) << ss.str();   // libedit escapes spaces as \040
}

// stdin that is not a terminal is read as a whole script: no banner, no prompts.
TEST(ReplStdin, PipedInputRunsAsAScript) {
  int in[2], out[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(pipe(out), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    execl(g_amps.c_str(), g_amps.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  std::string script = "print(5)\nlet y = 2\nprint(y * 3)\n";
  ASSERT_EQ(write(in[1], script.data(), script.size()), ssize_t(script.size()));
  close(in[1]);
  std::string got;
  auto deadline = Clock::now() + std::chrono::seconds(10);
  for (char buf[256]; Clock::now() < deadline;) {
    struct pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, size_t(n));
  }
  close(out[0]);
  int status = 0;
  for (int i = 0; i < 100 && waitpid(pid, &status, WNOHANG) != pid; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "amps did not exit";
  }
  EXPECT_EQ(got, "5\n6\n");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: repl_tests AMPS_BINARY\n");
    return 2;
  }
  g_amps = argv[1];
  return RUN_ALL_TESTS();
}
