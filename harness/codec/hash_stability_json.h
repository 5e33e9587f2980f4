#pragma once
// The report's `hash_stability` object (docs/report-schema.md, schema 7).
#include <nlohmann/json.hpp>

#include "model/hash_stability.h"

namespace wcp {

nlohmann::json hash_stability_to_json(const HashStability& stability);
// Throws json_fields::FieldError naming the field on a wrong type or an unknown cause.
HashStability hash_stability_from_json(const nlohmann::json& in);

}  // namespace wcp
