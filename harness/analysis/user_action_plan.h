#pragma once
// Plans what this user can do (analysis/user_actions.h) from a report and its diagnosis: which
// entry-point settings reach the modules of findings in code they do not own, with their
// estimated saving; whether this run's warm figure shows what a kept kernel cache gives; their
// own finding groups; and the other groups counted per package.
#include "analysis/finding.h"
#include "model/report.h"

namespace wcp::analysis {

// `diagnosis` must hold its findings, finding groups and kernel usage.
UserActions plan_user_actions(const Report& report, const Diagnosis& diagnosis);

}  // namespace wcp::analysis
