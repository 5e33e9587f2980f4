#include "levers/python_value.h"

#include <nlohmann/json.hpp>

namespace wcp::levers {

std::optional<std::string> python_repr(std::string_view value_json) {
  const auto value = nlohmann::json::parse(value_json, nullptr, false);
  if (value.is_discarded()) return std::nullopt;
  if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
  if (value.is_null()) return "None";
  if (value.is_number()) return value.dump();
  if (value.is_string()) {
    // Python's repr of a plain string: single quotes (the values levers set have no quote in them).
    return "'" + value.get<std::string>() + "'";
  }
  return std::nullopt;
}

std::optional<std::string> json_of_repr(std::string_view repr) {
  if (repr == "True") return "true";
  if (repr == "False") return "false";
  if (repr == "None") return "null";
  if (repr.size() >= 2 && (repr.front() == '\'' || repr.front() == '"') && repr.back() == repr.front()) {
    const std::string_view inner = repr.substr(1, repr.size() - 2);
    if (inner.find_first_of("\\'\"") != std::string_view::npos) return std::nullopt;  // escapes: not ours to undo
    return nlohmann::json(std::string(inner)).dump();
  }
  const auto number = nlohmann::json::parse(repr, nullptr, false);
  if (!number.is_discarded() && number.is_number()) return number.dump();
  return std::nullopt;
}

}  // namespace wcp::levers
