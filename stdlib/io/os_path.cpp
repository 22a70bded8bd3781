// posixpath's string functions, following CPython's Lib/posixpath.py line by line (see os_path.hpp).
#include "stdlib/io/os_path.hpp"

namespace amps::stdlib::io {

std::string path_join(const std::vector<std::string>& parts) {
  std::string out = parts.empty() ? "" : parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& b = parts[i];
    if (!b.empty() && b[0] == '/') out = b;   // an absolute part discards what came before
    else if (out.empty() || out.back() == '/') out += b;
    else out += "/" + b;
  }
  return out;
}

std::string path_basename(const std::string& p) { return p.substr(p.rfind('/') + 1); }

std::string path_dirname(const std::string& p) { return path_split(p).first; }

// (head, tail): tail after the last slash; head without trailing slashes unless it is all slashes.
std::pair<std::string, std::string> path_split(const std::string& p) {
  size_t i = p.rfind('/') + 1;
  std::string head = p.substr(0, i), tail = p.substr(i);
  if (!head.empty() && head.find_first_not_of('/') != std::string::npos)
    head.erase(head.find_last_not_of('/') + 1);
  return {head, tail};
}

// The extension is from the last dot of the last component, unless only dots precede it there.
std::pair<std::string, std::string> path_splitext(const std::string& p) {
  size_t sep = p.rfind('/'), dot = p.rfind('.');
  size_t sep_i = sep == std::string::npos ? 0 : sep + 1;
  if (dot != std::string::npos && (sep == std::string::npos || dot > sep))
    for (size_t i = sep_i; i < dot; ++i)
      if (p[i] != '.') return {p.substr(0, dot), p.substr(dot)};
  return {p, ""};
}

std::string path_normpath(const std::string& p) {
  if (p.empty()) return ".";
  size_t initial = p[0] == '/' ? (p.rfind("//", 0) == 0 && p.rfind("///", 0) != 0 ? 2 : 1) : 0;
  std::vector<std::string> comps;
  size_t at = 0;
  while (at <= p.size()) {
    size_t end = p.find('/', at);
    if (end == std::string::npos) end = p.size();
    std::string c = p.substr(at, end - at);
    at = end + 1;
    if (c.empty() || c == ".") continue;
    if (c != ".." || (initial == 0 && comps.empty()) || (!comps.empty() && comps.back() == "..")) comps.push_back(c);
    else if (!comps.empty()) comps.pop_back();
  }
  std::string out(initial, '/');
  for (size_t i = 0; i < comps.size(); ++i) out += (i ? "/" : "") + comps[i];
  return out.empty() ? "." : out;
}

std::string path_expand_home(const std::string& p, const std::string& home) {
  if (p.empty() || p[0] != '~' || (p.size() > 1 && p[1] != '/')) return p;
  std::string h = home;
  while (!h.empty() && h.back() == '/') h.pop_back();
  std::string out = h + p.substr(1);
  return out.empty() ? "/" : out;
}

}  // namespace amps::stdlib::io
