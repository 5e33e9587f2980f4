#pragma once
// `compare --json`: the comparison as JSON (docs/report-schema.md#comparison).
#include <nlohmann/json.hpp>

#include "verdict/judge.h"

namespace wcp::render {

nlohmann::json judgement_to_json(const verdict::Judgement& judgement);
// Its `identity_changes`, which a `baseline:` budget's command also carries (`since_baseline`).
nlohmann::json identity_changes_to_json(const verdict::IdentityChanges& changes);

}  // namespace wcp::render
