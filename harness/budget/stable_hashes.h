#pragma once
// The `stable_hashes: true` budget: the command's module identities are the same in a process
// with another PYTHONHASHSEED and from a copy of its checkout at another path (the hash
// experiments, Report::hash_stability). Undecided experiments cannot pass: missing is not zero.
#include "budget/budget_result.h"
#include "model/report.h"

namespace wcp::budget {

BudgetOutcome stable_hashes_budget(const Report& report);

}  // namespace wcp::budget
