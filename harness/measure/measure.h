#pragma once
// The `measure` stage end to end: validate, run every sample, build the report.
#include <functional>

#include "measure/measure_options.h"
#include "measure/progress.h"
#include "measure/sample_runner.h"
#include "model/report.h"
#include "model/trace.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::measure {

// Throws UsageError for options that cannot work (before anything runs).
void validate(const MeasureOptions& options);

// Called after each sample, before the next one starts: where a caller interleaves its own
// runs with the command's (the machine reference, reference/measure_with_reference.h).
using AfterSample = std::function<void(const SampleRecord& sample)>;

Report measure(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress,
               const AfterSample& after_sample = {});

// The report and every sample's timeline (for `measure --trace`).
struct Measurement {
  Report report;
  std::vector<TraceTrack> trace;
};
Measurement measure_with_trace(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress,
                               const AfterSample& after_sample = {});

}  // namespace wcp::measure
