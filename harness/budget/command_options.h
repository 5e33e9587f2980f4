#pragma once
// How a budget entry is measured: the bridge from the budget file to the measure stage.
#include "budget/budget_file.h"
#include "measure/measure_options.h"

namespace wcp::budget {

measure::MeasureOptions measure_options_for(const CommandEntry& entry);

}  // namespace wcp::budget
