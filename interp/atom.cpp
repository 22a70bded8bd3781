// The process-wide intern table behind Atom.
#include "interp/atom.hpp"

#include <mutex>
#include <unordered_set>

namespace amps::interp {

Atom intern(std::string_view text) {
  static std::mutex mu;
  static std::unordered_set<std::string>* table = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> lock(mu);
  return &*table->emplace(text).first;
}

}  // namespace amps::interp
