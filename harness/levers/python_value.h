#pragma once
// The two spellings of a lever's value: JSON, as the probe receives it (WCP_PROBE_LEVERS), and
// Python's repr, as the option record and the load snapshots hold it.
#include <optional>
#include <string>
#include <string_view>

namespace wcp::levers {

// "false" -> "False", "2" -> "2", "\"release\"" -> "'release'", "null" -> "None"; nullopt when
// the text is not a JSON scalar.
std::optional<std::string> python_repr(std::string_view value_json);

// The reverse, for the literals a program writes ("True", "3", "0.5", "'debug'"); nullopt for
// anything else (a list, an object's repr), which no lever can pass on.
std::optional<std::string> json_of_repr(std::string_view repr);

}  // namespace wcp::levers
