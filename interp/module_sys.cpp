// The `sys` module (argv, exit, stdout/stderr, maxsize, platform, byteorder, getrecursionlimit) and the builtins
// `exit`/`quit`. Exiting is Python's SystemExit: an error of that kind unwinds the script (finally blocks run,
// `catch` can stop it) and the CLI turns it into the process status without a traceback (interp/cli.cpp).
#include <fmt/format.h>

#include <climits>

#include "interp/builtins.hpp"
#include "interp/exceptions.hpp"
#include "interp/utf8.hpp"

namespace amps::interp {
namespace {

// sys.stdout / sys.stderr: `.write(s)` (returns the count, as Python's) and `.flush()` on the interpreter's sinks,
// so hosts that capture output capture these too.
struct TextStream : Opaque {
  explicit TextStream(bool err) : is_err(err) {}
  std::string type_name() const override { return "TextIOWrapper"; }
  std::string repr() const override { return is_err ? "<sys.stderr>" : "<sys.stdout>"; }
  Value get_attr(Interp&, Atom name) override {
    const bool err = is_err;
    if (*name == "write")
      return make<Native>("write", [err](Interp& in, CallArgs& a) {
        ArgReader r(a, "write", {"s"});
        const Value& s = r.required(0);
        if (!s.is(ObjKind::Str)) Interp::fail("TypeError", "write() argument must be str, not " + interp::type_name(s), a.span);
        const std::string& text = s.as<Str>()->value;
        err ? in.write_err(text) : in.write_out(text);
        return Value(int64_t(utf8_length(text)));
      });
    if (*name == "flush") return make<Native>("flush", [err](Interp&, CallArgs&) {
        std::fflush(err ? stderr : stdout);
        return Value();
      });
    if (*name == "name") return make_str(is_err ? "<stderr>" : "<stdout>");
    return Value::undef();
  }
  bool is_err;
};

// exit(code): raises SystemExit(code), whose message is Python's str(SystemExit(code)): "" for none, the number for
// an int (the CLI's exit status), else the text (printed on stderr, status 1).
Value b_exit(Interp& in, CallArgs& a) {
  ArgReader r(a, "exit", {"status"});
  std::vector<Value> args;
  if (r.has(0) && !r.get(0).is_none()) args.push_back(r.get(0).is_bool() ? Value(r.get(0).as_int()) : r.get(0));
  throw raise_error(in, new_exception(exception_class(in, "SystemExit"), std::move(args)), Value::undef(), a.span);
}

}  // namespace

void install_sys_module(Interp& in) {
  in.def_native("exit", b_exit);
  in.def_native("quit", b_exit);
  in.def_module("sys", [](Interp& inn, Module& m) {
    std::vector<Value> argv{make_str(inn.config().script_name)};
    for (auto& s : inn.config().script_args) argv.push_back(make_str(s));
    m.attrs[intern("argv")] = make_list(std::move(argv));
    m.attrs[intern("exit")] = make<Native>("exit", b_exit);
    m.attrs[intern("stdout")] = make<TextStream>(false);
    m.attrs[intern("stderr")] = make<TextStream>(true);
    m.attrs[intern("maxsize")] = Value(int64_t(INT64_MAX));
    m.attrs[intern("platform")] = make_str("linux");
    m.attrs[intern("byteorder")] = make_str("little");
    const int64_t depth = int64_t(inn.config().max_call_depth);
    m.attrs[intern("getrecursionlimit")] = make<Native>("getrecursionlimit", [depth](Interp&, CallArgs&) { return Value(depth); });
  });
}

// The process status a SystemExit stands for, printing its text when it is not a number (Python's rule).
int system_exit_status(const AmpsError& e, const std::function<void(std::string_view)>& err) {
  const std::string& m = e.message();
  if (m.empty()) return 0;
  char* end = nullptr;
  long long v = std::strtoll(m.c_str(), &end, 10);
  if (end && *end == '\0') return int(v & 0xFF);
  err(m + "\n");
  return 1;
}

}  // namespace amps::interp
