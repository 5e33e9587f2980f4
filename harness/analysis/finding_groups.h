#pragma once
// Groups a diagnosis's findings for a reader: one group per mechanism, owner and fix, where the
// fix is compared with each member's module name and its line numbers abstracted. Four modules
// with unused backward code set from the same file are one thing to do, not four.
#include <vector>

#include "analysis/finding.h"

namespace wcp::analysis {

std::vector<FindingGroup> group_findings(const std::vector<Finding>& findings);

}  // namespace wcp::analysis
