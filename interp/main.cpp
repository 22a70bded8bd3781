// Process entry point: runs the CLI on a thread with a large stack, so deep (but bounded)
// script recursion and deeply nested expressions end in amps errors, not a crashed process.
#include <pthread.h>

#include <cstdio>

#include "interp/cli.hpp"

namespace {

struct MainArgs {
  int argc;
  char** argv;
  int status;
};

void* run_cli(void* p) {
  auto* a = static_cast<MainArgs*>(p);
  a->status = amps::interp::cli_main(a->argc, a->argv);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  MainArgs args{argc, argv, 1};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);   // reserved, not committed
  pthread_t thread;
  if (pthread_create(&thread, &attr, run_cli, &args) != 0) return amps::interp::cli_main(argc, argv);
  pthread_join(thread, nullptr);
  std::fflush(stdout);
  return args.status;
}
