#pragma once
// The samples' numbers: each sample's result, and the medians and MADs over the samples that
// succeeded, with the notes on what was left out of them.
#include <chrono>
#include <vector>

#include "measure/sample_runner.h"
#include "model/report.h"

namespace wcp::measure {

// Fills the report's sample results, failure counts, clock summaries and overlap factor; returns
// the first successful sample (nullptr when none succeeded).
const SampleRecord* add_sample_statistics(Report& report, const std::vector<SampleRecord>& samples,
                                          std::chrono::milliseconds timeout);

}  // namespace wcp::measure
