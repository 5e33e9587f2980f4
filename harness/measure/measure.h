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

// Called after each sample but the last, with the report of the samples so far: true stops
// sampling there (`check`'s `samples: auto`, budget/auto_sampling.h). The report then has fewer
// samples than options.samples, which is the most to take.
using StopSampling = std::function<bool(const Report& so_far)>;

Report measure(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress,
               const AfterSample& after_sample = {}, const StopSampling& stop = {});

// The report and every sample's timeline (for `measure --trace`).
struct Measurement {
  Report report;
  std::vector<TraceTrack> trace;
};
Measurement measure_with_trace(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress,
                               const AfterSample& after_sample = {}, const StopSampling& stop = {});

}  // namespace wcp::measure
