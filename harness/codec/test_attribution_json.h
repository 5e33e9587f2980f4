#pragma once
// The report's `tests` array (schema 11, docs/report-schema.md#tests): null when no load had a
// test context.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/test_attribution.h"

namespace wcp {

nlohmann::json test_attribution_to_json(const std::optional<std::vector<TestCompileCost>>& tests);
// Throws json_fields::FieldError naming the field on a wrong type or an unknown phase.
std::optional<std::vector<TestCompileCost>> test_attribution_from_json(const nlohmann::json& document);

}  // namespace wcp
