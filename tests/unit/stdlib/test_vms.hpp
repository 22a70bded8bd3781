// Interpreters the stdlib unit tests share: a bare one (no stdlib) that test tensors belong to, and a sandboxed one
// with the stdlib that collects its output.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "amps/amps.hpp"

namespace amps::stdlib::test {

// The interpreter the tensors of a test belong to (no stdlib needed), made once.
inline Vm& bare_vm() {
  static Vm v = [] {
    Config c;
    c.no_stdlib = true;
    return Vm(std::move(c));
  }();
  return v;
}

// A sandboxed interpreter (no file or process access); its output and diagnostics are collected.
struct Sandboxed {
  std::string out, err;
  Vm vm;
  Sandboxed() : vm(config(this)) {}
  static Config config(Sandboxed* s) {
    Config c;
    c.sandbox = true;
    c.write = [s](std::string_view t) { s->out += t; };
    c.diagnostic = [s](std::string_view t) { s->err += t; };
    return c;
  }
  void run(const std::string& code) {
    Result r = vm.run(code, "t.amps");
    ASSERT_TRUE(r) << r.error->diagnostic;
  }
  // "Kind: message" of the error [code] raises, or "no error".
  std::string error(const std::string& code) {
    Result r = vm.run(code, "t.amps");
    return r ? "no error" : r.error->kind + ": " + r.error->message;
  }
};

}  // namespace amps::stdlib::test
