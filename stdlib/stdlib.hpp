// Internal header of the stdlib bindings: each part's install function and the helpers they share.
// Like every stdlib file it sees only the public embedding API (amps/amps.hpp); see install.cpp.
#pragma once

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "amps/amps.hpp"

namespace amps::stdlib {

// Each registers its module or globals through the embedding API (called once by install_stdlib);
// they throw amps::Failed when a registration fails.
void install_data(Vm& vm);       // module data: loaders, datasets, Fashion-MNIST, CSVLogger, loadtxt, .npy/.npz
void install_io(Vm& vm);         // save, load, load_metadata
void install_progress(Vm& vm);   // progress, log_csv
void install_plot(Vm& vm);       // module plot
void install_open(Vm& vm);       // open (text files)
void install_os(Vm& vm);         // module os (os.path, os.environ)
void install_glob(Vm& vm);       // module glob
void install_file_data(Vm& vm);  // from_file (data's readers are in install_data's table)

// Raises an amps error of [kind] (ValueError, OSError, ...) from a native or hook.
[[noreturn]] inline void fail(const char* kind, std::string message) { throw ScriptError(kind, message); }
// ValueError with a formatted message unless [cond] holds.
template <class... A>
void check_value(bool cond, fmt::format_string<A...> f, A&&... args) {
  if (!cond) fail("ValueError", fmt::format(f, std::forward<A>(args)...));
}
// An internal invariant failed: prints FILE:LINE and the message, then aborts (not a script error).
[[noreturn]] void internal_error(const char* file, int line, const std::string& message);
#define AMPS_STDLIB_ASSERT(cond, ...) \
  ((cond) ? void(0) : ::amps::stdlib::internal_error(__FILE__, __LINE__, fmt::format(__VA_ARGS__)))

// Argument [i] as a file path; PermissionError in a sandboxed interpreter, TypeError unless a str.
std::string checked_path(Vm& vm, const Args& r, size_t i, const char* fn);
// A dict str -> value as a str -> str map (values through str()); TypeError naming [what] otherwise.
std::map<std::string, std::string> string_map(Vm& vm, const Value& v, const std::string& what);
// Number of items of a dataset-like value (list, tuple, or an object with __len__); TypeError otherwise.
int64_t length_of(Vm& vm, const Value& v);
// repr(v) as the script's repr() gives it (strings quoted).
std::string repr_of(Vm& vm, const Value& v);
// Registers module [name] from a static table (and an optional amps body); throws Failed.
void register_module(Vm& vm, const char* name, const amps_reg* table, const char* source = nullptr);
void register_globals(Vm& vm, const amps_reg* table);

// True for the floating dtypes (float64, float32, float16, bfloat16).
inline bool is_floating(amps_dtype d) { return d == AMPS_FLOAT64 || d == AMPS_FLOAT32 || d == AMPS_FLOAT16 || d == AMPS_BFLOAT16; }
// The tensor's shape as a vector.
inline std::vector<int64_t> shape_of(const amps_tensor_info& t) { return std::vector<int64_t>(t.shape, t.shape + t.ndim); }
// True when the tensor's elements lie row-major and gapless from info.data (sizes-1 dims ignored).
bool is_contiguous(const amps_tensor_info& t);

}  // namespace amps::stdlib
