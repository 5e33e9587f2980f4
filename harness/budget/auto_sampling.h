#pragma once
// `samples: auto` (docs/budgets.md#samples-auto): after each run, is every budget of an entry
// decided by the runs so far? Structural budgets are exact after one run. A ceiling on a timing
// is decided once its margin is clear against the noise (the samples' own from 3 runs, else a
// history's or calibration's, else only beyond the gross-change bound). The baseline budget is
// decided when compare's judgement is (a regression or an improvement beyond the band), or when
// the sequential test rules out a regression of kSmallestRegression or more. Pure: no I/O.
#include <optional>

#include "budget/budget_file.h"
#include "budget/budget_result.h"
#include "model/report.h"
#include "stats/noise.h"

namespace wcp::budget {

// Fills each outcome's decided and decided_by from the runs in `report`, and result.sampling;
// returns whether every outcome is decided. `paired_baseline`: the baseline is arm A of an
// interleaved run (`--against-rev`), decided on its pairs (verdict/paired_stop.h). A NOT JUDGED
// baseline stays open: more runs narrow the band.
bool assess_sampling(CommandResult& result, const CommandEntry& entry, const Report& report,
                     const std::optional<Noise>& prior_noise,
                     const std::optional<Noise>& prior_cpu_noise = std::nullopt,
                     const Report* paired_baseline = nullptr);

}  // namespace wcp::budget
