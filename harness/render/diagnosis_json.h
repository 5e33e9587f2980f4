#pragma once
// `diagnose --json`: the diagnosis as JSON (docs/report-schema.md#diagnosis).
#include <nlohmann/json.hpp>

#include "analysis/finding.h"

namespace wcp::render {

nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis);

}  // namespace wcp::render
