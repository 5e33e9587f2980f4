#pragma once
// `check --json`: the check result as JSON, for tools (the fields mirror budget_result.h).
#include <nlohmann/json.hpp>

#include "budget/budget_result.h"

namespace wcp::render {

nlohmann::json budget_result_to_json(const budget::CheckResult& result);

}  // namespace wcp::render
