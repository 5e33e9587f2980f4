#pragma once
// The levers of one arm as the probe reads them: the JSON array of WCP_PROBE_LEVERS
// (docs/instrumentation.md, "Levers").
#include <string>
#include <string_view>
#include <vector>

#include "model/lever.h"

namespace wcp::levers {

inline constexpr const char* kLeversVariable = "WCP_PROBE_LEVERS";

std::string_view to_string(LeverKind kind);  // "config", "module_option", "drop_unique", "noop_call"

std::string probe_levers_json(const std::vector<Lever>& levers);

}  // namespace wcp::levers
