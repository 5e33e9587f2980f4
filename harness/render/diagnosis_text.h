#pragma once
// The diagnosis as text: the bottleneck statement, the findings in the user's code, then the
// ones about code they do not own, each with its evidence, cost, fix, limits and docs link;
// the option receipts; then facts, what was ruled out and what could not be checked. The kernel-usage table and the
// boundary proposal are their own sections, printed when asked for.
#include <iosfwd>
#include <vector>

#include "analysis/finding.h"

namespace wcp::render {

// The full text (`diagnose --verbose`, and `measure`'s diagnosis).
void render_diagnosis_text(const analysis::Diagnosis& diagnosis, std::ostream& out);
// One screen (`diagnose`'s default): the bottleneck, each finding group in a few lines, the ids
// ruled out and not checked, every line at most render::kScreenColumns wide.
void render_diagnosis_summary_text(const analysis::Diagnosis& diagnosis, std::ostream& out);
// The full text of one mechanism (`diagnose --explain ID`): its findings, or why it was ruled out
// or could not be checked.
void render_mechanism_text(const analysis::Diagnosis& diagnosis, Mechanism mechanism, std::ostream& out);
void render_kernel_usage_text(const std::vector<ModuleUse>& usage, std::ostream& out);
void render_boundaries_text(const analysis::BoundaryProposal& proposal, std::ostream& out);

}  // namespace wcp::render
