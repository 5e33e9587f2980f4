#pragma once
// The modules a failed budget points at, each with the finding that explains it. Built on the
// rebuild analysis (analysis/rebuilds.h) and the report's own structure.
#include <map>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "analysis/rebuilds.h"
#include "budget/budget_result.h"
#include "report/report.h"

namespace wcp::budget {

std::string rebuild_finding(const analysis::RebuiltModule& module, const Report& report);
Offender rebuild_offender(const analysis::RebuiltModule& module, const Report& report);

// Every module name compiled in the cold pass, most expensive first, with why there are many.
std::vector<Offender> module_offenders(const Report& report);

// The slowest compiled identities (at most `limit`).
std::vector<Offender> slowest_offenders(const Report& report, std::size_t limit);

// The modules with the most generated source (at most `limit`).
std::vector<Offender> source_offenders(const Report& report, std::size_t limit);

// Modules compiled again in the warm pass.
std::vector<Offender> warm_offenders(const Report& report);

// Replaces an offender's generic explanation with the diagnosis finding about its module (the
// precise mechanism, e.g. CS-1 late kernel vs CS-3 late option, and its fix). A rebuild keeps
// its cause label ("identity churn", "block_dim spread") in front.
void attach_findings(std::vector<Offender>& offenders, const analysis::Diagnosis& diagnosis);

}  // namespace wcp::budget
