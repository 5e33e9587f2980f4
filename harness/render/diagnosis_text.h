#pragma once
// The diagnosis as text: the bottleneck statement, each finding with its evidence, cost, fix,
// limits and docs link, the option receipts, then what was ruled out and what could not be
// checked.
#include <iosfwd>

#include "analysis/finding.h"

namespace wcp::render {

void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out);

}  // namespace wcp::render
