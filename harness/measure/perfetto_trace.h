#pragma once
// The samples as a Perfetto (Chrome) trace: what `measure --trace` writes.
#include <vector>

#include "measure/measure_options.h"
#include "measure/sample_runner.h"
#include "model/trace.h"

namespace wcp::measure {

// Every sample's passes as trace tracks: one per process, a slice per module build placed by
// the instrumentation's times (builds it did not time are left out, and say so in no slice).
std::vector<TraceTrack> build_trace(const MeasureOptions& options, const std::vector<SampleRecord>& samples);

}  // namespace wcp::measure
