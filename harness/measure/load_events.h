#pragma once
// Where a pass's module loads come from. The instrumentation records every real load in each
// process it attached to, with its own clock around the span Warp times and the native builds
// inside it; Warp's log adds its own "took N ms" for the loads it printed (a program at Warp's
// default log level prints them; one that keeps Warp quiet, or a test runner that captures the
// output, does not). So the loads are the instrumentation's, each with Warp's timer where Warp
// printed one; loads only the log saw (a process the instrumentation did not attach to) are
// added as the log has them. A pass where neither could see loads has no module figures at all:
// they are unavailable, never 0.
#include <optional>
#include <string>
#include <vector>

#include "measure/sample_runner.h"
#include "model/module_event.h"

namespace wcp::measure {

struct ObservedLoads {
  // The instrumentation's loads by end time, then the log's own in log order; `pass` is left
  // cold, detail times are on the run's clock.
  std::vector<ModuleEvent> events;
  bool observed = false;   // the instrumentation's load hooks ran, or Warp's log printed load timers
  std::string unobserved;  // why not, in plain words, when !observed
};

ObservedLoads observe_loads(const PassRecord& pass);

// Marks `loads` unobserved when the private cache holds generated source but no load compiled:
// modules were built that nothing saw, so the observed 0 is no measurement.
void check_against_cache(ObservedLoads& loads, const CacheInventory& cache);

// The loads' summed ms (compiled loads only, or all); nullopt when the loads were not observed.
std::optional<double> module_work(const ObservedLoads& loads, bool compiled_only);

// The compiled loads' summed native compile time; nullopt when the loads were not observed or a
// compiled load's native time is unknown (an empty sum over loads that were seen is a real 0).
std::optional<double> native_compile(const ObservedLoads& loads);

int count_status(const std::vector<ModuleEvent>& events, LoadStatus status);

// The cold pass's loads, checked against what the private cache says was built.
ObservedLoads observe_cold_loads(const SampleRecord& sample);

// One pass's loads, marked with the pass they belong to.
std::vector<ModuleEvent> pass_events(const PassRecord& record, Pass pass);

}  // namespace wcp::measure
