#pragma once
// `measure --check-output`: the run without the probe against the first sample, pass by pass
// (model/output_check.h says what is compared).
#include <vector>

#include "measure/sample_runner.h"
#include "model/output_check.h"

namespace wcp::measure {

OutputCheck check_output(const SampleRecord& without_probe, const std::vector<SampleRecord>& samples,
                         const std::vector<std::string>& ignored_patterns);

}  // namespace wcp::measure
