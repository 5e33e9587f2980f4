#pragma once
// A Summary in a JSON document is stored flat, beside its siblings: <stem>_median, <stem>_mad,
// <stem>_values, <stem>_n (the report's clocks and its reference's, docs/report-schema.md).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "stats/summary.h"

namespace wcp {

// All four null (the values an empty list) when nothing was measured; `_n` null when the count
// is unknown (0).
void put_summary(nlohmann::json& out, const std::string& stem, const std::optional<Summary>& summary);

}  // namespace wcp
