#pragma once
// `ab --json`: both arms' reports, measured interleaved, their order and their comparison
// (docs/documents.md). The comparison is encoded by its own writer (render/judgement_json.h);
// this document only holds it, and `report AB.json` judges the arms again from their reports.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/report.h"

namespace wcp {

struct AbArms {
  Report baseline;
  Report candidate;
};

// `order`: per pair, "AB" when the baseline ran first, else "BA".
nlohmann::json ab_to_json(const Report& baseline, const Report& candidate, const std::vector<std::string>& order,
                          nlohmann::json comparison);

// Throws UsageError naming `source` for another kind of document (what it is, and that
// `report` takes BASELINE.json CANDIDATE.json instead), a later version, or a bad arm.
AbArms ab_arms_from_json(const nlohmann::json& document, std::string_view source);

}  // namespace wcp
