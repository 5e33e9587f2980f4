#pragma once
// The budgets on the CUDA build measured without a GPU (`cuda_arch`, docs/budgets.md#cuda-build;
// the build itself: model/cuda_build.h): the CUDA compile CPU per arch, per module build and per
// kernel, and the output per arch. Missing is not zero: a report without the build, an arch it
// did not build, a build that failed or was not timed fails the budget as unavailable, with the
// reason, never as a 0. Pure: no I/O.
#include <vector>

#include "budget/budget_file.h"
#include "budget/budget_result.h"
#include "model/report.h"

namespace wcp::budget {

// One outcome per CUDA budget the entry sets, for every architecture of its `cuda_arch` (the
// report's own when the entry names none), in the key table's order.
std::vector<BudgetOutcome> cuda_budget_outcomes(const CommandEntry& entry, const Report& report);

}  // namespace wcp::budget
