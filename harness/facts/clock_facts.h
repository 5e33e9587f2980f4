#pragma once
// What a report's clocks say about themselves, worked out once for every reader of one report
// (the texts of `measure` show them; render/ reads them here and computes nothing).
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "stats/summary.h"

namespace wcp {

struct ClockFacts {
  std::optional<Summary> compile_elapsed;     // credited_compile_elapsed
  std::vector<std::string> elapsed_left_out;  // each sample left out of it, in plain words
  std::optional<bool> warm_near_zero;         // nullopt: not recorded
  bool builds_overlapped = false;
  bool compiled_nothing = false;
};

ClockFacts clock_facts(const Report& report);

}  // namespace wcp
