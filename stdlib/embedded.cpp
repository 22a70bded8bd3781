// Looks embedded stdlib scripts up in the generated index.
#include "stdlib/embedded.hpp"

#include <map>
#include <string>

namespace amps::stdlib {
namespace embedded {
const std::map<std::string, std::string_view (*)(), std::less<>>& index();
}

std::string_view embedded_source(std::string_view name) {
  auto& table = embedded::index();
  auto it = table.find(name);
  return it == table.end() ? std::string_view() : it->second();
}

}  // namespace amps::stdlib
