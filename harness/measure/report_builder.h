#pragma once
// Turns raw samples into the Report: per-sample numbers, medians and MADs
// (sample_statistics.h), and the structure (identities, events, processes, launches, options,
// instrumentation) of the first successful sample.
#include <vector>

#include "measure/build_environment.h"
#include "measure/measure_options.h"
#include "measure/sample_runner.h"
#include "model/report.h"

namespace wcp::measure {

// `environments` reads the build environment once for a measurement's many reports; without
// one it is read for this report alone.
Report build_report(const MeasureOptions& options, const std::vector<SampleRecord>& samples,
                    BuildEnvironmentReader* environments = nullptr);

// Distinct (name, hash, device, block_dim) among compiled events.
std::uint64_t count_identities(const std::vector<ModuleEvent>& events);

}  // namespace wcp::measure
