#pragma once
// A first progress estimate from the history: how long one pass (a cold or a warm run) of the
// same command, in the same folder, on this host took the last time it was recorded. Before a
// run's own first pass finishes, that is the only honest estimate there is.
#include <optional>
#include <string>
#include <vector>

#include "history/history_result.h"

namespace wcp::history {

// The average of the latest matching result's cold and warm wall medians (the cold one alone
// when it had no warm run); nullopt without a match or a recorded wall.
std::optional<double> earlier_pass_ms(const std::vector<Result>& results, const std::vector<std::string>& argv,
                                      const std::string& cwd, const std::string& host);

}  // namespace wcp::history
