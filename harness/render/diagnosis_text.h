#pragma once
// The diagnosis as text: the bottleneck statement, the findings in the user's code, then the
// ones about code they do not own, each with its evidence, cost, fix, limits and docs link;
// the option receipts; then facts, what was ruled out and what could not be checked. The kernel-usage table and the
// boundary proposal are their own sections, printed when asked for.
#include <iosfwd>
#include <vector>

#include "analysis/finding.h"

namespace wcp::render {

void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out);
void render_kernel_usage_text(const std::vector<ModuleUse>& usage, std::ostream& out);
void render_boundaries_text(const analysis::BoundaryProposal& proposal, std::ostream& out);

}  // namespace wcp::render
