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

// Log events carry timings; the instrumentation's loads carry kernels, options and the user
// frame. Pairs them by module name, device and hash prefix, in order.
// `spawn_monotonic_s` places the loads' monotonic times on the run's clock.
void attach_load_details(std::vector<ModuleEvent>& events, const std::vector<instrument::InstrumentedLoad>& loads,
                         double spawn_monotonic_s);

// Distinct (name, hash, device, block_dim) among compiled events.
std::uint64_t count_identities(const std::vector<ModuleEvent>& events);

}  // namespace wcp::measure
