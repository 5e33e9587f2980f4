#pragma once
// Budgets on the tests of a suite (docs/budgets.md#test-budgets): at most N builds or S seconds
// of cold module work per test, and no build after a named warm-up test or phase. They read
// each cold-pass build's test context (LoadDetail::test, schema 11); a run whose loads carry
// none cannot pass them.
#include <optional>
#include <string>
#include <vector>

#include "budget/budget_result.h"
#include "budget/budget_settings.h"
#include "model/report.h"

namespace wcp::budget {

// One outcome per test budget the settings carry, in key order; none when none is set.
std::vector<BudgetOutcome> test_budget_outcomes(const Settings& budgets, const Report& report);

}  // namespace wcp::budget
