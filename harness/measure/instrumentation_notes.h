#pragma once
// What the instrumentation saw of the cold run and could not see: the report's instrumentation
// status (Warp's API, cache settings the application changed) and the notes that say so.
#include "measure/sample_runner.h"
#include "model/report.h"

namespace wcp::measure {

// Reads `report.processes` (already set) for the launch-record notes.
void describe_instrumentation(Report& report, const SampleRecord& sample);

}  // namespace wcp::measure
