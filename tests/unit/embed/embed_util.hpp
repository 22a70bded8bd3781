// Helpers of the embedding tests: a vm whose output and diagnostics are captured, checked runs.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "amps/amps.h"
#include "amps/amps.hpp"

namespace amps_test {

// A C-API vm (no stdlib unless asked) writing into `out` and `diag`.
struct CapturedVm {
  explicit CapturedVm(bool stdlib = false, const std::function<void(amps_config&)>& tweak = {}) {
    amps_config cfg;
    amps_config_init(&cfg);
    cfg.user = this;
    cfg.write = [](void* u, const char* t, size_t n) { static_cast<CapturedVm*>(u)->out.append(t, n); };
    cfg.diagnostic = [](void* u, const char* t, size_t n) { static_cast<CapturedVm*>(u)->diag.append(t, n); };
    cfg.no_stdlib = !stdlib;
    if (tweak) tweak(cfg);
    status = amps_new(&cfg, &vm);
  }
  ~CapturedVm() { amps_free(vm); }
  CapturedVm(const CapturedVm&) = delete;
  CapturedVm& operator=(const CapturedVm&) = delete;

  amps_status run(const char* code) { return amps_run(vm, "<test>", code, nullptr); }
  // Runs code that must succeed; the diagnostic is the failure message otherwise.
  void ok(const char* code) { ASSERT_EQ(run(code), AMPS_OK) << amps_last_error(vm)->diagnostic; }
  std::string kind() const { return amps_last_error(vm)->kind; }
  std::string message() const { return amps_last_error(vm)->message; }

  amps_vm* vm = nullptr;
  amps_status status = AMPS_OK;
  std::string out, diag;
};

// A C++-API vm (amps::Vm, with the stdlib) whose script output goes to `out`.
struct CapturedCppVm {
  std::string out;
  amps::Vm vm;
  CapturedCppVm() : vm(config(this)) {}
  static amps::Config config(CapturedCppVm* c) {
    amps::Config cfg;
    cfg.write = [c](std::string_view t) { c->out += t; };
    return cfg;
  }
};

}  // namespace amps_test
