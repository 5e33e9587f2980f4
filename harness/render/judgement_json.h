#pragma once
// `compare --json`: the comparison as JSON (docs/report-schema.md#comparison).
#include <nlohmann/json.hpp>

#include "verdict/judge.h"

namespace wcp::render {

nlohmann::json judgement_to_json(const verdict::Judgement& judgement);

}  // namespace wcp::render
