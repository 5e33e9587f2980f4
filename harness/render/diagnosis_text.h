#pragma once
// The diagnosis as text (and as JSON for `diagnose --json`): the bottleneck statement, each finding with its evidence,
// cost, fix, limits and docs link, then what was ruled out and what could not be checked.
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "analysis/finding.h"

namespace wcp::render {

void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out);
nlohmann::json diagnosis_to_json(const analysis::Diagnosis& diagnosis);

}  // namespace wcp::render
