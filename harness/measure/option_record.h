#pragma once
// The option record the receipts read: a pass's option writes and module creations, on the
// run's clock, as one timeline.
#include <optional>

#include "measure/sample_runner.h"
#include "model/report.h"

namespace wcp::measure {

// nullopt when the instrumentation did not attach, or missed a hook the record needs.
std::optional<OptionRecord> option_record_of(const PassRecord& pass);

}  // namespace wcp::measure
