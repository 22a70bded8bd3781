// Exception classes as a host sees them: a script's own exception class is the error's kind, and errors a native
// raises by kind are instances of the matching class (built-in, or one made for a kind Python does not have).
#include <string>

#include "embed_util.hpp"

using amps_test::CapturedVm;

namespace {

// fail(kind, message): raises an amps error of that kind from the host.
amps_status native_fail(amps_vm* vm, amps_args* call) {
  const char* kind = nullptr;
  const char* message = nullptr;
  if (amps_to_str(vm, amps_arg(call, 0), &kind, nullptr) != AMPS_OK ||
      amps_to_str(vm, amps_arg(call, 1), &message, nullptr) != AMPS_OK)
    return amps_raise(call, "TypeError", "fail(kind, message) takes two strings");
  return amps_raise(call, kind, message);
}

}  // namespace

TEST(EmbedExceptions, AnUncaughtUserExceptionReportsItsClassAsTheKind) {
  CapturedVm t;
  const char* code = "class ConfigError(ValueError) { fn init(self, msg, field) { super.init(msg); self.field = field } }\n"
                     "raise ConfigError(\"lr must be positive\", \"lr\")\n";
  ASSERT_EQ(amps_run(t.vm, "cfg.amps", code, nullptr), AMPS_ERROR_RUNTIME);
  EXPECT_EQ(t.kind(), "ConfigError");
  EXPECT_EQ(t.message(), "lr must be positive");
  EXPECT_EQ(amps_last_error(t.vm)->line, 2u);
  EXPECT_EQ(std::string(amps_last_error(t.vm)->diagnostic).rfind("cfg.amps:2:7: ConfigError: lr must be positive\n", 0), 0u)
      << amps_last_error(t.vm)->diagnostic;
}

TEST(EmbedExceptions, HostRaisedKindsAreInstancesOfTheirClasses) {
  CapturedVm t;
  amps_reg table[] = {{"fail", native_fail, AMPS_CAST_NONE, nullptr}, {}};
  ASSERT_EQ(amps_register_globals(t.vm, table), AMPS_OK);
  t.ok("try { fail(\"KeyError\", \"k\") } except LookupError as e { print(type(e).__name__, isinstance(e, KeyError), e) }\n"
       "try { fail(\"HostError\", \"device lost\") } except Exception as e { print(type(e).__name__, e.kind, e.args) }\n"
       "let first = none\n"
       "try { fail(\"HostError\", \"a\") } catch e { first = type(e) }\n"
       "try { fail(\"HostError\", \"b\") } except BaseException as e { print(type(e) is first, issubclass(first, Exception)) }");
  EXPECT_EQ(t.out, "KeyError true k\nHostError HostError ('device lost',)\ntrue true\n");
}
