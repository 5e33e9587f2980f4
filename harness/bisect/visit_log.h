#pragma once
// The commits a bisection visited, one line each, appended by `bisect-step` (which git runs
// once per commit, in a process of its own) and read back by `bisect` for its report.
// A line is `SHA<TAB>OUTCOME<TAB>REASON`.
#include <filesystem>
#include <string>
#include <vector>

#include "bisect/bisect_outcome.h"

namespace wcp::bisect {

struct Visit {
  std::string sha;
  StepOutcome outcome = StepOutcome::skip;
  std::string reason;
};

// Throws RunError when the file cannot be written. Tabs and line breaks in the reason become spaces.
void append_visit(const std::filesystem::path& log, const Visit& visit);

// Oldest first; a missing file is no visits. Malformed lines are left out.
std::vector<Visit> read_visits(const std::filesystem::path& log);

}  // namespace wcp::bisect
