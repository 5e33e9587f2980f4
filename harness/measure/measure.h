#pragma once
// The `measure` stage end to end: validate, run every sample, build the report.
#include "measure/measure_options.h"
#include "measure/progress.h"
#include "model/report.h"
#include "model/trace.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::measure {

// Throws UsageError for options that cannot work (before anything runs).
void validate(const MeasureOptions& options);

Report measure(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress);

// The report and every sample's timeline (for `measure --trace`).
struct Measurement {
  Report report;
  std::vector<TraceTrack> trace;
};
Measurement measure_with_trace(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress);

}  // namespace wcp::measure
