#pragma once
// The machine that is recording a result: host and CPU (calibrate/machine_info.h) and, where
// nvidia-smi answers, the first GPU and the driver. Warp's and the toolkit's versions come
// from the report (history/result_from_report.h).
#include "history/history_result.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

Machine current_machine(InterruptWatch& interrupts);

}  // namespace wcp::history
