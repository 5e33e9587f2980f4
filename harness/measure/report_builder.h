#pragma once
// Turns raw samples into the Report: per-sample numbers, medians and MADs, and the structure
// (identities, events, launches) of the first successful sample.
#include <vector>

#include "measure/measure_options.h"
#include "measure/sample_runner.h"
#include "model/report.h"
#include "model/trace.h"

namespace wcp::measure {

Report build_report(const MeasureOptions& options, const std::vector<SampleRecord>& samples);

// Every sample's passes as trace tracks: one per process, a slice per module build placed by
// the instrumentation's times (builds it did not time are left out, and say so in no slice).
std::vector<TraceTrack> build_trace(const MeasureOptions& options, const std::vector<SampleRecord>& samples);

// Distinct (name, hash, device, block_dim) among compiled events.
std::uint64_t count_identities(const std::vector<ModuleEvent>& events);

}  // namespace wcp::measure
