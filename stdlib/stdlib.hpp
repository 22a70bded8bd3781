// Internal header of the stdlib bindings: each part's install function and the helpers they share.
#pragma once

#include <map>
#include <string>

#include "interp/builtins.hpp"

namespace amps::stdlib {

// Each registers its globals or `def_module`s in `in` (called once by install_stdlib).
void install_data(interp::Interp& in);       // module data: loaders, datasets, Fashion-MNIST, CSVLogger
void install_io(interp::Interp& in);         // save, load, load_metadata
void install_progress(interp::Interp& in);   // progress, log_csv
void install_plot(interp::Interp& in);       // module plot

// Argument `i` of `fn` as a file path; PermissionError in a sandboxed interpreter, TypeError unless a str.
std::string checked_path(interp::Interp& in, const interp::ArgReader& r, size_t i, const char* fn);
// A dict str -> value as a str -> str map (values through str()); TypeError naming `what` otherwise.
std::map<std::string, std::string> string_map(interp::Interp& in, const interp::Value& v, const std::string& what);
// Adds a native function `name` to a module.
void def(interp::Module& m, const char* name, interp::Native::Fn fn);
// Number of items of a dataset-like value (list, tuple, or an object with __len__); TypeError otherwise.
int64_t length_of(interp::Interp& in, const interp::Value& v, const interp::Span& where);

}  // namespace amps::stdlib

namespace amps::stdlib {
// `self.name` as a bound native method: `fn` receives self as its first positional argument.
interp::Value bound(interp::Object* self, const char* name, interp::Native::Fn fn);
}  // namespace amps::stdlib
