#pragma once
// The machine that is recording a result: host and CPU (calibrate/machine_info.h) and, where
// nvidia-smi answers, the first GPU and the driver. Warp's and the toolkit's versions come
// from the report (history/result_from_report.h).
#include "history/history_result.h"
#include "io/environment.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

// `machine_class`: --machine-class as given ("" to take WCP_MACHINE_CLASS or the fingerprint:
// history/machine_class.h).
Machine current_machine(InterruptWatch& interrupts, const std::string& machine_class = "",
                        const EnvironmentLookup& environment = process_environment());

}  // namespace wcp::history
