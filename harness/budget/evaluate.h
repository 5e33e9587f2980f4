#pragma once
// Budget evaluation: given a command's budgets and its measured report (and the baseline
// report when it has one), decide every budget. Pure: no I/O, so it is unit-tested on crafted
// reports as well as on real runs.
#include <optional>

#include "budget/budget_file.h"
#include "budget/budget_result.h"
#include "calibrate/calibration.h"
#include "report/report.h"

namespace wcp::budget {

struct EvaluateOptions {
  bool fail_on_improvement = false;  // for teams that ratchet baselines down
  bool updating_baseline = false;    // --update-baseline: the baseline budget is re-accepted
  std::optional<calibrate::Calibration> calibration;  // for cold_units
  std::string calibration_source;                      // where it was read, for messages
};

// The fixed per-module cost a normalised budget divides by: the CUDA (NVRTC) calibration when
// the run compiled for a CUDA device, else Warp's CPU backend; with precompiled headers when
// the run used them (Warp's default). nullopt, with `why` set, when that backend is not
// calibrated.
std::optional<double> fixed_module_cost_ms(const Report& report, const calibrate::Calibration& calibration,
                                           std::string& backend, std::string& why);

// Warm module work may be at most this share of the cold work...
inline constexpr double kWarmShareOfCold = 0.05;
// ...or this many milliseconds, whichever is larger: loading cached modules is not free, and
// a tiny app's cold work would otherwise make 5% stricter than the timer's resolution.
inline constexpr double kWarmFloorMs = 50.0;

CommandResult evaluate(const CommandEntry& entry, const Report& report, const std::optional<Report>& baseline,
                       const EvaluateOptions& options = {});

}  // namespace wcp::budget
