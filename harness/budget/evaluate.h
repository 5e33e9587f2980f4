#pragma once
// Budget evaluation: given a command's budgets and its measured report (and the baseline
// report when it has one), decide every budget. Pure: no I/O, so it is unit-tested on crafted
// reports as well as on real runs. The `baseline` budget is verdict::judge(), the same
// judgement `compare` prints; the other budgets are ceilings of their own.
#include <optional>

#include "budget/budget_file.h"
#include "budget/budget_result.h"
#include "calibrate/calibration.h"
#include "model/report.h"
#include "stats/noise.h"

namespace wcp::budget {

struct EvaluateOptions {
  bool fail_on_improvement = false;                   // for teams that ratchet baselines down
  bool updating_baseline = false;                     // --update-baseline: the baseline budget is re-accepted
  std::optional<calibrate::Calibration> calibration;  // for cold_units
  std::string calibration_source;                     // where it was read, for messages
  // This command's noise when its own samples are too few to measure it: a history's, else the
  // calibration's (stats/noise.h; cli resolves it per entry). Timing budgets weigh against it.
  std::optional<Noise> prior_noise;
  // The same on the CPU clock, from a history's CPU values only (history/prior_noise.h).
  std::optional<Noise> prior_cpu_noise;
  // `check --against-branch`: the baseline comes from a branch's recent runs in the history
  // (history/branch_baseline.h), for every entry, with or without a `baseline:` file. The
  // baseline passed to evaluate() is then that pooled report, or absent with `not_enough`.
  struct HistoryBaseline {
    std::string description;  // "the last 5 runs of main on …"
    std::string not_enough;   // why there is none; "" when there is one
  };
  std::optional<HistoryBaseline> history_baseline;
  // The baseline is arm A of an interleaved run against a revision (`--against-rev`, `baseline:
  // {rev: REV}`): judge on paired samples.
  bool paired_baseline = false;
  std::string baseline_description;  // "v1.2 (abc1234), interleaved": said beside the verdict
};

CommandResult evaluate(const CommandEntry& entry, const Report& report, const std::optional<Report>& baseline,
                       const EvaluateOptions& options = {});

}  // namespace wcp::budget
