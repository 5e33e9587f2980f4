#include "io/environment.h"

#include <unistd.h>  // environ (glibc declares it for _GNU_SOURCE, which g++ and clang++ define)

#include <cstdlib>

namespace wcp {

Environment current_environment() {
  // Read from `environ` directly: Boost 1.74's bp::environment entries read past the end of
  // short entries (found by AddressSanitizer), and this is all that is needed.
  Environment environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0) continue;
    environment.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return environment;
}

EnvironmentLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

EnvironmentLookup lookup_in(Environment environment) {
  return [environment = std::move(environment)](const std::string& name) -> std::optional<std::string> {
    const auto found = environment.find(name);
    if (found == environment.end()) return std::nullopt;
    return found->second;
  };
}

bool flag_set(const EnvironmentLookup& environment, const std::string& name) {
  const auto value = environment(name);
  return value && !value->empty() && *value != "0";
}

}  // namespace wcp
