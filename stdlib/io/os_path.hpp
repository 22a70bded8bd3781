// Python's posixpath string functions (no file system access): join, basename, dirname, split,
// splitext, isabs, normpath, and expanduser given the home directory. Pure, so unit-tested alone.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace amps::stdlib::io {

std::string path_join(const std::vector<std::string>& parts);
std::string path_basename(const std::string& p);
std::string path_dirname(const std::string& p);
std::pair<std::string, std::string> path_split(const std::string& p);
std::pair<std::string, std::string> path_splitext(const std::string& p);
std::string path_normpath(const std::string& p);
// "~" and "~/x" with [home] (trailing slashes dropped); other paths unchanged ("~user" is the caller's).
std::string path_expand_home(const std::string& p, const std::string& home);

}  // namespace amps::stdlib::io
