#pragma once
// The CPU clock of module work (issue 49, docs/measurement.md#which-clock): the CPU seconds a
// run's builds used, which a busy machine barely moves while it doubles their wall clock.
//
// Per load, the instrumentation reads its thread's CPU clock at the two ends of the span Warp
// times (less the probe's own share) and the process's reaped-children CPU counter there. A
// run's figure is then
//   Σ over the loads of their thread CPU
//   + per process, the length of the union of the loads' children-counter intervals
// Threads are summed because each build's CPU is its own thread's: parallel builds add up to
// the work, their span is elapsed. The children counter is process-wide, so two overlapping
// loads of one process see the same child's CPU: the union counts it once.
#include <optional>
#include <string>
#include <vector>

#include "model/module_event.h"

namespace wcp::measure {

struct ModuleCpu {
  std::optional<double> ms;
  std::string unavailable;  // why ms is absent, in plain words; "" when present
};

// Over the events (compiled ones only, or all but none left out when !compiled_only); absent
// with a reason when any of them has no CPU clock (seen only in Warp's log, a Warp version or
// platform without a per-thread clock). Observed loads of which none counts give a real 0.
ModuleCpu module_cpu(const std::vector<ModuleEvent>& events, bool compiled_only);

// The length of the union of [start, end] intervals (an end before its start counts nothing).
double union_length(std::vector<std::pair<double, double>> intervals);

}  // namespace wcp::measure
