#pragma once
// The clocks a cold start is judged by, each summarised over the samples: what a report
// measured, and what the history keeps of it (history/history_result.h). Absent when not
// measured (every sample failed, an imported report without module timers), never 0.
#include <optional>

#include "stats/summary.h"

namespace wcp {

struct ColdStartClocks {
  std::optional<Summary> cold_module_ms;  // summed module build timers of the cold run
  // The CPU seconds those builds used (schema 13): what load on the machine barely moves.
  std::optional<Summary> cold_module_cpu_ms;
  std::optional<Summary> cold_wall_ms;
  std::optional<Summary> warm_wall_ms;
  std::optional<Summary> compile_elapsed_ms;  // per sample: cold wall - warm wall
  bool operator==(const ColdStartClocks&) const = default;
};

}  // namespace wcp
