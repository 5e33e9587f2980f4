#pragma once
// The calibrated fixed per-module cost the diagnosis uses for its estimates, read from this
// host's calibration file when there is one. A broken calibration costs a warning, never the
// command: the diagnosis then falls back to this run's smallest module.
#include <optional>

#include "analysis/diagnose.h"
#include "cli/cli_context.h"
#include "facts/queries.h"
#include "model/report.h"

namespace wcp::cli {

std::optional<FixedCostReference> calibrated_fixed_cost(const Report& report, CliContext& context);

// What the diagnosis takes from this host's calibration: the fixed per-module cost and the CPU
// header's costs, read once.
analysis::DiagnoseInputs calibrated_inputs(const Report& report, CliContext& context);

}  // namespace wcp::cli
