#pragma once
// The runner's speed, read off the work that did not change (issue 63, item 3). Against a stored
// baseline the candidate runs on another runner, or the same one hours later, whose speed can
// differ by more than the change being judged. Where a pull request changed some modules and
// left others identical (same identity, built as often, and where the reports record them the
// same generated and compiled bytes, and not the build that paid for the precompiled header),
// the identical ones are the same
// compile on both runners: their time ratio is the runner's speed, measured in the very run
// being judged. judge() divides the candidate's module work by it, so the changed modules are
// judged at the baseline's speed.
#include <cstddef>
#include <optional>
#include <string>

#include "model/report.h"

namespace wcp::verdict {

// The unchanged modules must carry at least this share of the baseline's compile work, and
// this much time, for their ratio to speak for the runner (a 20 ms module is mostly overhead).
inline constexpr double kMinimumUnchangedShare = 0.25;
inline constexpr double kMinimumUnchangedMs = 100.0;

struct RunnerSpeed {
  bool cpu_clock = true;  // measured on the loads' CPU time; else on Warp's load timers
  double ratio = 1.0;     // candidate time / baseline time of the unchanged modules
  std::size_t unchanged_identities = 0;
  double unchanged_baseline_ms = 0.0;
  double unchanged_candidate_ms = 0.0;
  double baseline_total_ms = 0.0;  // every compiled load's, first successful sample
  double candidate_total_ms = 0.0;
};

struct RunnerSpeedReading {
  std::optional<RunnerSpeed> speed;
  std::string not_applied;  // why not, in plain words ("" when applied, or nothing changed)
};

RunnerSpeedReading runner_speed(const Report& baseline, const Report& candidate, bool cpu_clock);

// The candidate's summary at the baseline's speed. The loads (hence the ratio) are the first
// sample's on each side, and a side's first sample need not sit at its median (a first run on a
// fresh runner is often slower), so the ratio is carried to the medians first: the result's
// median is the baseline's median times the first samples' speed-corrected ratio, and its
// spread is the candidate's, scaled alike.
Summary at_baseline_speed(const Summary& candidate, const Summary& baseline, const RunnerSpeed& speed);

}  // namespace wcp::verdict
