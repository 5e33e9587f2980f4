#pragma once
// The modules a failed budget points at, each with what explains it. Built on the rebuild
// analysis (facts/rebuilds.h), the report's structure and, when something failed, the
// diagnosis' findings.
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "budget/budget_result.h"
#include "facts/rebuilds.h"
#include "model/report.h"

namespace wcp::budget {

Offender rebuild_offender(const RebuiltModule& module, const Report& report);

// Every module name compiled in the cold pass, most expensive first, with why there are many.
std::vector<Offender> module_offenders(const Report& report);

// The slowest compiled identities (at most `limit`).
std::vector<Offender> slowest_offenders(const Report& report, std::size_t limit);

// The modules with the most generated source (at most `limit`).
std::vector<Offender> source_offenders(const Report& report, std::size_t limit);

// Modules compiled again in the warm pass.
std::vector<Offender> warm_offenders(const Report& report);

// Explains each offender by the diagnosis finding about its module (the precise mechanism,
// e.g. CS-1 late kernel vs CS-3 late option, and its fix).
void attach_findings(std::vector<Offender>& offenders, const analysis::Diagnosis& diagnosis);

}  // namespace wcp::budget
