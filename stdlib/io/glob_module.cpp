// Module `glob`: glob.glob(pattern, recursive=false), CPython's Lib/glob.py (_iglob, _glob0/1/2, _rlistdir)
// ported function by function, so hidden names, trailing slashes, literal parts and `**` behave as Python's.
// Differences: the result is sorted (Python's follows os.scandir's arbitrary order), and `**` does not enter a
// directory link that leads back into the walk (Python's recurses until the path is too long).
#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <memory>

#include "stdlib/io/os_path.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::io {
namespace {

using Names = std::vector<std::string>;

bool has_magic(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }
bool is_hidden(const std::string& s) { return !s.empty() && s[0] == '.'; }
bool lexists(const std::string& p) { struct stat st {}; return ::lstat(p.c_str(), &st) == 0; }
bool is_dir(const std::string& p) { struct stat st {}; return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode); }
std::string join(const std::string& a, const std::string& b) { return path_join({a, b}); }

// The names in [dir] ("" is the working directory); only directories when [dironly]; none when unreadable.
Names list_dir(const std::string& dir, bool dironly) {
  Names out;
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.empty() ? "." : dir.c_str()), ::closedir);
  if (!d) return out;
  for (dirent* e = ::readdir(d.get()); e; e = ::readdir(d.get())) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    std::string p = join(dir, n);
    struct stat st {};
    bool dir_entry = ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);   // a link to a directory counts, as is_dir()
    if (!dironly || dir_entry) out.push_back(n);
  }
  return out;
}

// _glob1: the names of [dir] matching a magic [pattern] (hidden ones only for a hidden pattern).
Names glob1(const std::string& dir, const std::string& pattern, bool dironly) {
  Names out;
  for (auto& n : list_dir(dir, dironly))
    if ((is_hidden(pattern) || !is_hidden(n)) && ::fnmatch(pattern.c_str(), n.c_str(), FNM_NOESCAPE) == 0) out.push_back(n);
  return out;
}

// _glob0: a literal name, when it exists ("" stands for [dir] itself, which must be a directory).
Names glob0(const std::string& dir, const std::string& name, bool) {
  if (name.empty()) return is_dir(dir) ? Names{""} : Names{};
  return lexists(join(dir, name)) ? Names{name} : Names{};
}

// _rlistdir: every non-hidden name below [dir], depth first, as relative paths. Links to directories are
// followed as Python's is_dir() does; [open] holds the (device, inode) of the directories being walked, so a
// link back to one of them is listed but not entered again (Python would recurse until the path is too long).
void rlist(const std::string& dir, const std::string& prefix, bool dironly, std::vector<std::pair<dev_t, ino_t>>& open, Names& out) {
  for (auto& n : list_dir(dir, dironly)) {
    if (is_hidden(n)) continue;
    out.push_back(join(prefix, n));
    std::string p = join(dir, n);
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    std::pair<dev_t, ino_t> id{st.st_dev, st.st_ino};
    if (std::find(open.begin(), open.end(), id) != open.end()) continue;
    open.push_back(id);
    rlist(p, join(prefix, n), dironly, open, out);
    open.pop_back();
  }
}

// _glob2: `**` matches [dir] itself ("") and everything below it.
Names glob2(const std::string& dir, const std::string&, bool dironly) {
  Names out{""};
  std::vector<std::pair<dev_t, ino_t>> open;
  struct stat st {};
  if (::stat(dir.empty() ? "." : dir.c_str(), &st) == 0) open.emplace_back(st.st_dev, st.st_ino);
  rlist(dir, "", dironly, open, out);
  return out;
}

bool is_recursive(const std::string& s) { return s == "**"; }

Names iglob(const std::string& pathname, bool recursive, bool dironly) {
  auto [dirname, basename] = path_split(pathname);
  if (!has_magic(pathname)) {
    if (basename.empty() ? is_dir(dirname) : lexists(pathname)) return {pathname};
    return {};
  }
  if (dirname.empty())
    return recursive && is_recursive(basename) ? glob2("", basename, dironly) : glob1("", basename, dironly);
  Names dirs = dirname != pathname && has_magic(dirname) ? iglob(dirname, recursive, true) : Names{dirname};
  auto in_dir = !has_magic(basename) ? glob0 : recursive && is_recursive(basename) ? glob2 : glob1;
  Names out;
  for (auto& d : dirs)
    for (auto& n : in_dir(d, basename, dironly)) out.push_back(join(d, n));
  return out;
}

Value b_glob(Vm& vm, Call& c) {
  Args r(vm, c, "glob", {"pathname", "recursive"});
  bool recursive = r.bool_or(1, false);
  if (vm.sandboxed()) fail("PermissionError", "glob(): file access is disabled in this sandboxed interpreter");
  const Value& p = r.required(0);
  if (!p.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("expected str, bytes or os.PathLike object, not {}", p.type_name()));
  std::string pattern = *vm.to_str(p);
  Names found = iglob(pattern, recursive, false);
  if (recursive && pattern.rfind("**", 0) == 0 && !found.empty() && found.front().empty()) found.erase(found.begin());   // as iglob()
  std::sort(found.begin(), found.end());
  std::vector<Value> out;
  for (auto& f : found) out.push_back(Value::of(std::string_view(f)));
  return Value::list(out);
}

const amps_reg kGlobNatives[] = {
    {"glob", native<b_glob>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace
}  // namespace amps::stdlib::io

namespace amps::stdlib {

void install_glob(Vm& vm) { register_module(vm, "glob", io::kGlobNatives); }

}  // namespace amps::stdlib
