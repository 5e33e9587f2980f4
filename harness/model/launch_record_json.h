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

// A flat launch list, one object per launch or per run (the original probe's `launches`, and
// schema 1's with `count`), as a record.
LaunchRecord record_from_flat_list(const nlohmann::json& list);

}  // namespace wcp
