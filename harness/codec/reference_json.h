#pragma once
// The report's `reference` object (docs/report-schema.md#reference). Summaries are written
// flat like the report's own (<stem>_median, _mad, _values, _n).
#include <nlohmann/json.hpp>

#include "model/reference.h"

namespace wcp {

nlohmann::json reference_to_json(const MachineReference& reference);
// Throws json_fields::FieldError naming the field on a wrong type or an unknown kind.
MachineReference reference_from_json(const nlohmann::json& in);

}  // namespace wcp
