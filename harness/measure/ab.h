#pragma once
// Interleaved A/B measurement: two commands (or one command in two checkouts) measured in one
// run, their samples alternating A B B A A B B A …, each sample isolated as in `measure`. Drift
// on a shared machine (a build starting, thermal throttling) then hits both arms alike, and
// sample k of A and sample k of B, taken back to back, form a pair the verdict can difference.
#include <functional>

#include "measure/measure_options.h"
#include "measure/progress.h"
#include "model/report.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::measure {

struct AbReports {
  Report baseline;   // arm A
  Report candidate;  // arm B
};

// Called after each pair but the last with both arms so far: true stops there (`ab --samples auto`).
using StopPairs = std::function<bool(const AbReports& so_far)>;

// At most `samples` pairs; each arm's own `samples` field is ignored. Throws UsageError (nothing
// run) when either arm cannot work.
AbReports measure_ab(const MeasureOptions& baseline, const MeasureOptions& candidate, int samples,
                     InterruptWatch& interrupts, ProgressListener& progress, const StopPairs& stop = {});

// Whether arm A runs first in pair `pair` (0-based): A B, B A, A B, B A, … so that each arm
// is as often first as second.
constexpr bool baseline_first(int pair) {
  return pair % 2 == 0;
}

}  // namespace wcp::measure
