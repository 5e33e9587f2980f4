#pragma once
// `ab --samples auto` (docs/measurement.md#samples-auto): after each pair, do the pairs so far
// decide? They do when the paired judgement is a verdict (INVALID, REGRESSION, IMPROVED,
// UNVERIFIED), or when the sequential test on the pairs' ratios rules out a change of
// kSmallestRegression or more either way. Pure: the CLI stops measuring on it.
#include <string>
#include <vector>

#include "model/report.h"
#include "verdict/judge.h"

namespace wcp::verdict {

// `--samples auto` / `--pairs auto`: pairs until they decide, at most this many.
inline constexpr int kMostAutoPairs = 10;

struct PairsDecision {
  bool decided = false;
  std::string how;  // "decided after 5 pairs: IMPROVED …", "3 pairs: no change of 10 % …"
};

PairsDecision decide_pairs(const Judgement& judgement, const Report& baseline, const Report& candidate);

// The clock a paired decision reads: cold module work on the CPU clock or the wall, whichever the
// judge judged (`ab`, most levers), or compile elapsed (the scheduling levers, which move only
// the wall).
enum class PairedClock { cold_module_work, compile_elapsed, cold_module_cpu };
// Module work's paired clock for these two reports: the CPU when both have it (judge.h).
PairedClock module_work_clock(const Report& baseline, const Report& candidate);

// candidate / baseline of `clock` for every pair (same sample index) both arms measured.
std::vector<double> pair_ratios(const Report& baseline, const Report& candidate, PairedClock clock);

// The same rule on ratios already taken: `verdict_so_far` is the paired judgement's verdict on
// the clock that decides (INCONCLUSIVE keeps the pairs open unless the sequential test closes them).
PairsDecision decide_pair_ratios(Verdict verdict_so_far, const std::vector<double>& ratios);

}  // namespace wcp::verdict
