#pragma once
// The tool's own environment, as a map (to build a child's environment from) and as a lookup
// (for `${NAME}` expansion in budget files, and tests that fake it).
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace wcp {

using Environment = std::map<std::string, std::string>;
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

Environment current_environment();
EnvironmentLookup process_environment();
EnvironmentLookup lookup_in(Environment environment);

// Whether a variable is set to something that means "on" (not empty, not "0").
bool flag_set(const EnvironmentLookup& environment, const std::string& name);

}  // namespace wcp
