// Module `os` (with os.path and os.environ): the file-system calls a training script needs,
// with Python's results and OSErrors ("[Errno 2] No such file or directory: 'x'"). os.listdir returns
// sorted names (Python's order is arbitrary). os.environ is a dict copied at import.
// In a sandboxed interpreter every call that reads or changes the file system (or the working or home
// directory) raises PermissionError, and os.environ is empty; the string functions of os.path still work.
#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "stdlib/io/os_path.hpp"
#include "stdlib/io/text_file.hpp"
#include "stdlib/stdlib.hpp"

extern char** environ;

namespace amps::stdlib::io {
namespace {

[[noreturn]] void os_fail(const std::string& path, const std::string& extra = "") {
  int err = errno;
  const char* kind = err == ENOENT ? "FileNotFoundError" : err == EACCES || err == EPERM ? "PermissionError"
                     : err == EISDIR ? "IsADirectoryError" : err == ENOTDIR ? "NotADirectoryError"
                     : err == EEXIST ? "FileExistsError" : "OSError";
  fail(kind, errno_message(err, path) + extra);
}

void check_sandbox(Vm& vm, const char* fn) {
  if (vm.sandboxed()) fail("PermissionError", fmt::format("{}(): file access is disabled in this sandboxed interpreter", fn));
}

// Argument [i] as a path str (TypeError as Python's for another type).
std::string path_arg(Vm& vm, const Args& r, size_t i, const char* fn) {
  const Value& v = r.required(i);
  if (!v.is(AMPS_TYPE_STR))
    fail("TypeError", fmt::format("{}: path should be string, bytes or os.PathLike, not {}", fn, v.type_name()));
  return *vm.to_str(v);
}

// A file-system path argument: sandbox check first.
std::string fs_path(Vm& vm, Call& call, const char* fn, std::vector<const char*> params, size_t i = 1) {
  Args r(vm, call, fn, std::move(params));
  check_sandbox(vm, fn);
  return path_arg(vm, r, i, fn);
}

Value str_value(const std::string& s) { return Value::of(std::string_view(s)); }
Value pair_value(const std::pair<std::string, std::string>& p) { return Value::tuple({str_value(p.first), str_value(p.second)}); }

std::string home_dir() {
  if (const char* h = std::getenv("HOME")) return h;
  const passwd* pw = ::getpwuid(::getuid());
  return pw ? pw->pw_dir : "";
}

std::string current_dir() {
  std::string buf(4096, '\0');
  while (!::getcwd(buf.data(), buf.size())) {
    if (errno != ERANGE) os_fail(".");
    buf.resize(buf.size() * 2);
  }
  return buf.c_str();
}

// ---- os.path (an object whose methods are posixpath's functions; arg 0 is the object itself)
struct PathModule : Object {
  Value exists(Vm& vm, Call& c) { return stat_is(vm, c, "exists", [](const struct stat&) { return true; }); }
  Value isfile(Vm& vm, Call& c) { return stat_is(vm, c, "isfile", [](const struct stat& s) { return S_ISREG(s.st_mode); }); }
  Value isdir(Vm& vm, Call& c) { return stat_is(vm, c, "isdir", [](const struct stat& s) { return S_ISDIR(s.st_mode); }); }
  Value getsize(Vm& vm, Call& c) {
    std::string p = fs_path(vm, c, "getsize", {"self", "filename"});
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) os_fail(p);
    return Value::of(int64_t(st.st_size));
  }
  Value join(Vm& vm, Call& c) {
    std::vector<std::string> parts;
    for (size_t i = 1; i < c.size(); ++i) {
      Value v = c.arg(i);
      if (!v.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("join() argument must be str, bytes, or os.PathLike object, not '{}'", v.type_name()));
      parts.push_back(*vm.to_str(v));
    }
    if (parts.empty()) fail("TypeError", "join() missing 1 required positional argument: 'a'");
    return str_value(path_join(parts));
  }
  Value basename(Vm& vm, Call& c) { return str_value(path_basename(pure(vm, c, "basename"))); }
  Value dirname(Vm& vm, Call& c) { return str_value(path_dirname(pure(vm, c, "dirname"))); }
  Value split(Vm& vm, Call& c) { return pair_value(path_split(pure(vm, c, "split"))); }
  Value splitext(Vm& vm, Call& c) { return pair_value(path_splitext(pure(vm, c, "splitext"))); }
  Value normpath(Vm& vm, Call& c) { return str_value(path_normpath(pure(vm, c, "normpath"))); }
  Value isabs(Vm& vm, Call& c) {
    std::string p = pure(vm, c, "isabs");
    return Value::of(!p.empty() && p[0] == '/');
  }
  Value abspath(Vm& vm, Call& c) {
    std::string p = fs_path(vm, c, "abspath", {"self", "path"});
    return str_value(path_normpath(!p.empty() && p[0] == '/' ? p : path_join({current_dir(), p})));
  }
  Value expanduser(Vm& vm, Call& c) {
    std::string p = fs_path(vm, c, "expanduser", {"self", "path"});
    if (p.empty() || p[0] != '~') return str_value(p);
    size_t slash = std::min(p.find('/'), p.size());
    if (slash == 1) return str_value(path_expand_home(p, home_dir()));
    const passwd* pw = ::getpwnam(p.substr(1, slash - 1).c_str());   // "~user/..."
    return str_value(pw ? path_expand_home("~" + p.substr(slash), pw->pw_dir) : p);
  }

 private:
  template <class Pred>
  Value stat_is(Vm& vm, Call& c, const char* fn, Pred pred) {
    Args r(vm, c, fn, {"self", "path"});
    check_sandbox(vm, fn);
    const Value& v = r.required(1);
    if (!v.is(AMPS_TYPE_STR)) return Value::of(false);   // Python answers False for what stat() refuses
    struct stat st {};
    return Value::of(::stat(vm.to_str(v)->c_str(), &st) == 0 && pred(st));
  }
  static std::string pure(Vm& vm, Call& c, const char* fn) {
    Args r(vm, c, fn, {"self", "p"});
    const Value& v = r.required(1);
    if (!v.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("expected str, bytes or os.PathLike object, not {}", v.type_name()));
    return *vm.to_str(v);
  }
};

#define AMPS_PATH_ROW(f) {#f, method<&PathModule::f>, AMPS_CAST_NONE, nullptr}
const amps_reg kPathMethods[] = {
    AMPS_PATH_ROW(exists),   AMPS_PATH_ROW(isfile), AMPS_PATH_ROW(isdir),   AMPS_PATH_ROW(getsize),
    AMPS_PATH_ROW(join),     AMPS_PATH_ROW(basename), AMPS_PATH_ROW(dirname), AMPS_PATH_ROW(split),
    AMPS_PATH_ROW(splitext), AMPS_PATH_ROW(normpath), AMPS_PATH_ROW(isabs), AMPS_PATH_ROW(abspath),
    AMPS_PATH_ROW(expanduser), {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};
#undef AMPS_PATH_ROW
const amps_class kPathClass = object_class("module", kPathMethods);

Value b_path_module(Vm& vm, Call&) { return vm.new_object(kPathClass, std::make_unique<PathModule>()); }

// A dict copy of the environment (empty in a sandbox).
Value b_environ(Vm& vm, Call&) {
  Value d = Value::dict();
  if (vm.sandboxed()) return d;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos && eq > 0) vm.dict_set(d, str_value(kv.substr(0, eq)), str_value(kv.substr(eq + 1)));
  }
  return d;
}

// ---- os

Value b_getcwd(Vm& vm, Call& c) {
  Args r(vm, c, "getcwd", {});
  check_sandbox(vm, "getcwd");
  return str_value(current_dir());
}

Value b_listdir(Vm& vm, Call& c) {
  Args r(vm, c, "listdir", {"path"});
  check_sandbox(vm, "listdir");
  std::string p = r.has(0) && !r.get(0).is_none() ? path_arg(vm, r, 0, "listdir") : ".";
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(p.c_str()), ::closedir);
  if (!d) os_fail(p);
  std::vector<std::string> names;
  for (dirent* e = ::readdir(d.get()); e; e = ::readdir(d.get()))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
  std::sort(names.begin(), names.end());
  std::vector<Value> out;
  for (auto& n : names) out.push_back(str_value(n));
  return Value::list(out);
}

void make_dirs(const std::string& p, mode_t mode, bool exist_ok) {
  auto [head, tail] = path_split(p);
  if (tail.empty()) std::tie(head, tail) = path_split(head);
  struct stat st {};
  if (!head.empty() && !tail.empty() && ::stat(head.c_str(), &st) != 0) make_dirs(head, mode, true);
  if (::mkdir(p.c_str(), mode) == 0) return;
  int err = errno;
  if (!(exist_ok && err == EEXIST && ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode))) {
    errno = err;
    os_fail(p);
  }
}

Value b_makedirs(Vm& vm, Call& c) {
  Args r(vm, c, "makedirs", {"name", "mode", "exist_ok"});
  check_sandbox(vm, "makedirs");
  make_dirs(path_arg(vm, r, 0, "makedirs"), mode_t(r.int_or(1, 0777)), r.bool_or(2, false));
  return Value::none();
}

Value b_mkdir(Vm& vm, Call& c) {
  Args r(vm, c, "mkdir", {"path", "mode"});
  check_sandbox(vm, "mkdir");
  std::string p = path_arg(vm, r, 0, "mkdir");
  if (::mkdir(p.c_str(), mode_t(r.int_or(1, 0777))) != 0) os_fail(p);
  return Value::none();
}

Value b_remove(Vm& vm, Call& c) {
  Args r(vm, c, "remove", {"path"});
  check_sandbox(vm, "remove");
  std::string p = path_arg(vm, r, 0, "remove");
  if (::unlink(p.c_str()) != 0) os_fail(p);
  return Value::none();
}

Value b_rmdir(Vm& vm, Call& c) {
  Args r(vm, c, "rmdir", {"path"});
  check_sandbox(vm, "rmdir");
  std::string p = path_arg(vm, r, 0, "rmdir");
  if (::rmdir(p.c_str()) != 0) os_fail(p);
  return Value::none();
}

Value b_rename(Vm& vm, Call& c) {
  Args r(vm, c, "rename", {"src", "dst"});
  check_sandbox(vm, "rename");
  std::string src = path_arg(vm, r, 0, "rename"), dst = path_arg(vm, r, 1, "rename");
  if (::rename(src.c_str(), dst.c_str()) != 0) os_fail(src, " -> '" + dst + "'");
  return Value::none();
}

Value b_getenv(Vm& vm, Call& c) {
  Args r(vm, c, "getenv", {"key", "default"});
  std::string k = r.str_or(0, "");
  const char* v = vm.sandboxed() ? nullptr : std::getenv(k.c_str());
  return v ? str_value(v) : r.has(1) ? r.get(1) : Value::none();
}

// os.getpid(): the process id (training scripts tag their log lines with it; harmless in a sandbox).
Value b_getpid(Vm& vm, Call& c) {
  Args r(vm, c, "getpid", {});
  return Value::of(int64_t(::getpid()));
}

const amps_reg kOsNatives[] = {
    {"_path_module", native<b_path_module>, AMPS_CAST_NONE, nullptr},
    {"_environ", native<b_environ>, AMPS_CAST_NONE, nullptr},
    {"getcwd", native<b_getcwd>, AMPS_CAST_NONE, nullptr},
    {"listdir", native<b_listdir>, AMPS_CAST_NONE, nullptr},
    {"makedirs", native<b_makedirs>, AMPS_CAST_NONE, nullptr},
    {"mkdir", native<b_mkdir>, AMPS_CAST_NONE, nullptr},
    {"remove", native<b_remove>, AMPS_CAST_NONE, nullptr},
    {"rmdir", native<b_rmdir>, AMPS_CAST_NONE, nullptr},
    {"rename", native<b_rename>, AMPS_CAST_NONE, nullptr},
    {"getenv", native<b_getenv>, AMPS_CAST_NONE, nullptr},
    {"getpid", native<b_getpid>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace
}  // namespace amps::stdlib::io

namespace amps::stdlib {

void install_os(Vm& vm) {
  register_module(vm, "os", io::kOsNatives, "let path = _path_module()\nlet environ = _environ()\nlet sep = \"/\"\nlet linesep = \"\\n\"\n");
}

}  // namespace amps::stdlib
