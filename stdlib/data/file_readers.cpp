// Tensors from data files: data.loadtxt (numpy.loadtxt), data.load_npy / save_npy / load_npz / save_npz
// (NumPy's .npy and .npz) and the global from_file (torch.from_file). Saving is atomic (io::atomic_write).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "stdlib/data/file_readers.hpp"
#include "stdlib/data/loadtxt.hpp"
#include "stdlib/data/npy.hpp"
#include "stdlib/data/zip_archive.hpp"
#include "stdlib/io/atomic_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::data {
namespace {

std::string file_text(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    io::os_error("read", path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) io::os_error("open", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// np.save / np.savez append their extension to a str path without it.
std::string with_suffix(std::string path, const char* suffix) {
  size_t n = std::strlen(suffix);
  if (path.size() < n || path.compare(path.size() - n, n, suffix) != 0) path += suffix;
  return path;
}

void write_file(const std::string& path, const std::string& bytes) {
  io::atomic_write(path, [&](int fd) { io::write_all(fd, bytes.data(), bytes.size(), path); });
}

// Argument [i] as a dtype ([dflt] when absent or none); the builtins float, int and bool stand for float32,
// int64 and bool as in the interpreter's own dtype= arguments (recognised by their repr).
amps_dtype dtype_arg(Vm& vm, const Args& r, size_t i, const char* fn, amps_dtype dflt) {
  if (!r.has(i) || r.get(i).is_none()) return dflt;
  for (auto [name, dt] : {std::pair{"float", AMPS_FLOAT32}, std::pair{"int", AMPS_INT64}, std::pair{"bool", AMPS_BOOL}})
    if (!r.get(i).is(AMPS_TYPE_DTYPE) && vm.repr(r.get(i)) == vm.repr(vm.builtin(name))) return dt;
  if (!r.get(i).is(AMPS_TYPE_DTYPE)) fail("TypeError", fmt::format("{}(): dtype must be a dtype (float32, int64, ...), not {}", fn, r.get(i).type_name()));
  return vm.dtype_of(r.get(i));
}

std::vector<std::string> comment_list(Vm& vm, const Value& v) {
  if (v.is_none()) return {};
  if (v.is(AMPS_TYPE_STR)) return {*vm.to_str(v)};
  std::vector<std::string> out;
  Value it = vm.iter(v);
  for (Value c = vm.next(it); c; c = vm.next(it)) {
    if (!c.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("loadtxt(): comments must be a str or a list of str, not a {} entry", c.type_name()));
    out.push_back(*vm.to_str(c));
  }
  return out;
}

std::vector<int64_t> usecols_list(Vm& vm, const Value& v) {
  if (v.is(AMPS_TYPE_INT)) return {*vm.to_int(v)};
  std::vector<int64_t> out;
  Value it = vm.iter(v);
  for (Value c = vm.next(it); c; c = vm.next(it)) {
    if (!c.is(AMPS_TYPE_INT)) fail("TypeError", fmt::format("loadtxt(): usecols must be an int or a sequence of ints, not a {} entry", c.type_name()));
    out.push_back(*vm.to_int(c));
  }
  return out;
}

LoadtxtOptions loadtxt_options(Vm& vm, const Args& r, amps_dtype dt) {
  LoadtxtOptions o;
  o.dtype_name = amps_dtype_name(dt);
  o.integer = !is_floating(dt);
  if (r.has(2)) o.comments = comment_list(vm, r.get(2));
  std::string delim = r.str_or(3, "");
  if (r.has(3) && !r.get(3).is_none() && delim.size() != 1)
    fail("TypeError", fmt::format("Text reading control character must be a single unicode character or None; but got: '{}'", delim));
  if (delim.size() == 1) o.delimiter = delim[0];
  if (r.has(4) && !r.get(4).is_none()) fail("ValueError", "loadtxt(): converters= is not supported: amps converts cells to numbers only");
  o.skiprows = r.int_or(5, 0);
  if (o.skiprows < 0) fail("ValueError", "argument must be nonnegative");
  if (r.has(6) && !r.get(6).is_none()) o.usecols = usecols_list(vm, r.get(6));
  o.ndmin = int(r.int_or(8, 0));
  if (o.ndmin < 0 || o.ndmin > 2) fail("ValueError", fmt::format("Illegal value of ndmin keyword: {}", o.ndmin));
  o.max_rows = r.int_or(10, -1);
  return o;
}

// loadtxt's text and the name its errors give: a path's content, or what an open file's read() returns
// (np.loadtxt(f) inside `with open(...) as f`).
std::pair<std::string, std::string> loadtxt_source(Vm& vm, const Args& r) {
  const Value& f = r.required(0);
  Value read = f.is(AMPS_TYPE_STR) ? Value() : vm.find_attr(f, "read");
  if (!read) {
    std::string path = checked_path(vm, r, 0, "loadtxt");
    return {file_text(path), path};
  }
  Value text = vm.call(read).get();
  if (!text.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("loadtxt(): fname.read() returned {}, not str", text.type_name()));
  Value name = vm.find_attr(f, "name");
  return {*vm.to_str(text), name && name.is(AMPS_TYPE_STR) ? *vm.to_str(name) : std::string("<file>")};
}

}  // namespace

// loadtxt(fname, dtype=float32, comments="#", delimiter=none, converters=none, skiprows=0, usecols=none,
//         unpack=false, ndmin=0, encoding=none, max_rows=none): numpy.loadtxt's positions and results.
Value b_data_loadtxt(Vm& vm, Call& call) {
  Args r(vm, call, "loadtxt", {"fname", "dtype", "comments", "delimiter", "converters", "skiprows", "usecols", "unpack",
                               "ndmin", "encoding", "max_rows"});
  auto [text, path] = loadtxt_source(vm, r);
  amps_dtype dt = dtype_arg(vm, r, 1, "loadtxt", AMPS_FLOAT32);
  std::string enc = r.str_or(9, "bytes");
  if (enc != "bytes" && enc != "utf-8" && enc != "utf8" && enc != "UTF-8" && enc != "latin1" && enc != "ascii")
    fail("ValueError", fmt::format("loadtxt(): encoding '{}' is not supported: amps reads UTF-8 (numbers are ASCII)", enc));
  LoadtxtTable t = parse_loadtxt(text, path, loadtxt_options(vm, r, dt));
  Value out = is_floating(dt) ? vm.tensor_copy(t.values.data(), AMPS_FLOAT64, t.shape).get()
                              : vm.tensor_copy(t.ints.data(), AMPS_INT64, t.shape).get();
  out = vm.call_method(out, "to", {Value::dtype(dt)}).get();
  if (r.bool_or(7, false)) out = vm.call_method(vm.call_method(out, "t").get(), "contiguous").get();
  return out;
}

Value b_data_load_npy(Vm& vm, Call& call) {
  Args r(vm, call, "load_npy", {"path"});
  return load_npy_file(vm, checked_path(vm, r, 0, "load_npy"));
}

// save_npy(path, tensor) as np.save(file, arr): ".npy" appended when missing.
Value b_data_save_npy(Vm& vm, Call& call) {
  Args r(vm, call, "save_npy", {"path", "tensor"});
  std::string path = with_suffix(checked_path(vm, r, 0, "save_npy"), ".npy");
  write_file(path, npy_bytes(vm, r.required(1), path));
  return Value::none();
}

// load_npz(path): {name: tensor} in archive order, names without ".npy" (NpzFile's keys).
Value b_data_load_npz(Vm& vm, Call& call) {
  Args r(vm, call, "load_npz", {"path"});
  std::string path = checked_path(vm, r, 0, "load_npz");
  Value d = Value::dict();
  for (ZipMember& m : read_zip(path)) {
    std::string key = m.name.size() > 4 && m.name.ends_with(".npy") ? m.name.substr(0, m.name.size() - 4) : m.name;
    std::string where = path + "[" + m.name + "]";
    if (m.data.rfind("\x93NUMPY", 0) != 0)
      fail("ValueError", fmt::format("'{}' is not a .npy array (amps has no bytes type for other members)", where));
    auto read = [&](void* dst, uint64_t off, size_t n) {
      if (off > m.data.size() || n > m.data.size() - off) fail("ValueError", fmt::format("'{}' is not a valid .npy file: truncated", where));
      std::memcpy(dst, m.data.data() + off, n);
    };
    vm.dict_set(d, Value::of(std::string_view(key)), load_npy(vm, read, m.data.size(), where));
  }
  return d;
}

// save_npz(path, *arrays, **named) as np.savez: positional arrays are arr_0, arr_1, ...
Value b_data_save_npz(Vm& vm, Call& call) {
  if (call.size() < 1) fail("TypeError", "save_npz() missing required argument 'file'");
  Value p = call.arg(0);
  if (!p.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("save_npz(): argument 'file' must be a str (a file path), not {}", p.type_name()));
  if (vm.sandboxed()) fail("PermissionError", "save_npz(): file access is disabled in this sandboxed interpreter");
  std::string path = with_suffix(*vm.to_str(p), ".npz");
  std::vector<std::pair<std::string, Value>> named;
  for (size_t i = 1; i < call.size(); ++i) named.emplace_back(fmt::format("arr_{}", i - 1), call.arg(i));
  std::set<std::string> used;
  for (auto& [n, v] : named) used.insert(n);
  for (size_t i = 0; i < call.kw_size(); ++i) {
    auto kw = call.kw(i);
    if (used.count(kw.first)) fail("ValueError", fmt::format("Cannot use un-named variables and keyword {}", kw.first));
    named.push_back(std::move(kw));
  }
  std::vector<ZipMember> members;
  for (auto& [n, v] : named) members.push_back({n + ".npy", npy_bytes(vm, v, path + "[" + n + "]")});
  write_file(path, zip_bytes(members, path));
  return Value::none();
}

namespace {

// ---- from_file(filename, shared=none, size=0, *, dtype=none): torch.from_file of PyTorch 1.13, with its
// RuntimeError messages: [size] elements of [dtype] (float32 by default) from the file's first bytes.

struct Fd {
  int fd = -1;
  ~Fd() { if (fd >= 0) ::close(fd); }
};

void unmap(void* user, void* data) { ::munmap(data, reinterpret_cast<size_t>(user)); }

[[noreturn]] void open_error(const std::string& path, const char* mode) {
  int err = errno;
  fail("RuntimeError", fmt::format("unable to open file <{}> in {} mode: {} ({})", path, mode, std::strerror(err), err));
}

[[noreturn]] void too_small(const std::string& path, size_t bytes) {
  fail("RuntimeError", fmt::format("file <{}> size is smaller than the required mapping size <{}>", path, bytes));
}

// A bool tensor's bytes must be 0 or 1 (PyTorch reads any nonzero byte as true).
void check_bools(const void* data, size_t n, const std::string& path) {
  for (size_t i = 0; i < n; ++i)
    if (static_cast<const uint8_t*>(data)[i] > 1)
      fail("ValueError", fmt::format("from_file(): byte {} of '{}' is {}, not a bool (0 or 1)", i, path, static_cast<const uint8_t*>(data)[i]));
}

// shared=true: the file mapped read-write, created and grown to the size as PyTorch does; writes to the
// tensor reach the file, and the mapping goes when the last tensor using it dies.
Value shared_file(Vm& vm, const std::string& path, amps_dtype dt, int64_t size, size_t bytes) {
  Fd f{::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666)};
  if (f.fd < 0) open_error(path, "read-write");
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) open_error(path, "read-write");
  if (uint64_t(st.st_size) < bytes && ::ftruncate(f.fd, off_t(bytes)) != 0) too_small(path, bytes);
  if (bytes == 0) return vm.tensor_empty(dt, {size});
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0);
  if (p == MAP_FAILED) fail("RuntimeError", fmt::format("unable to mmap {} bytes from file <{}>: {} ({})", bytes, path, std::strerror(errno), errno));
  if (dt == AMPS_BOOL) {
    try { check_bools(p, bytes, path); } catch (...) { ::munmap(p, bytes); throw; }
  }
  return vm.tensor_wrap(p, dt, {size}, {}, unmap, reinterpret_cast<void*>(bytes)).get();
}

// shared=false: a copy of the bytes (PyTorch maps them copy-on-write, which reads the same).
Value private_file(Vm& vm, const std::string& path, amps_dtype dt, int64_t size, size_t bytes) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) open_error(path, "read-only");
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) open_error(path, "read-only");
  if (uint64_t(st.st_size) < bytes) too_small(path, bytes);
  Value t = vm.tensor_empty(dt, {size});
  auto* p = static_cast<char*>(vm.tensor_info(t).data);
  for (size_t done = 0; done < bytes;) {
    ssize_t n = ::pread(f.fd, p + done, bytes - done, off_t(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) too_small(path, bytes);
    done += size_t(n);
  }
  if (dt == AMPS_BOOL)
    for (size_t i = 0; i < bytes; ++i) p[i] = p[i] != 0;
  return t;
}

Value b_from_file(Vm& vm, Call& call) {
  Args r(vm, call, "from_file", {"filename", "shared", "size", "dtype", "device", "requires_grad"});
  std::string path = checked_path(vm, r, 0, "from_file");
  int64_t size = r.int_or(2, 0);
  amps_dtype dt = dtype_arg(vm, r, 3, "from_file", AMPS_FLOAT32);
  if (size < 0) fail("RuntimeError", fmt::format("from_file(): size must be non-negative, got {}", size));
  size_t bytes = 0;
  if (__builtin_mul_overflow(size_t(size), amps_dtype_size(dt), &bytes)) fail("RuntimeError", fmt::format("from_file(): size {} overflows", size));
  Value t = r.bool_or(1, false) ? shared_file(vm, path, dt, size, bytes) : private_file(vm, path, dt, size, bytes);
  if (r.has(4) && !r.get(4).is_none()) t = vm.call_method(t, "to", {r.get(4)}).get();
  if (r.bool_or(5, false)) t = vm.call_method(t, "requires_grad_").get();
  return t;
}

const amps_reg kFileDataGlobals[] = {
    {"from_file", native<b_from_file>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace
}  // namespace amps::stdlib::data

namespace amps::stdlib {

void install_file_data(Vm& vm) { register_globals(vm, data::kFileDataGlobals); }

}  // namespace amps::stdlib
