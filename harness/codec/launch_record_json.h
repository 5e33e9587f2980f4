#pragma once
// The launch record's JSON form (docs/launch-record.md): written by the instrumentation, kept
// in reports as `launch_record`, read back here. Reading checks the grammar's invariants and
// throws json_fields::FieldError naming the place.
#include <nlohmann/json.hpp>

#include "model/launch_record.h"

namespace wcp {

void to_json(nlohmann::json& out, const LaunchSignature& signature);
void from_json(const nlohmann::json& in, LaunchSignature& signature);
void to_json(nlohmann::json& out, const LaunchRecord& record);
void from_json(const nlohmann::json& in, LaunchRecord& record);

}  // namespace wcp
