#include "history/pass_estimate.h"

namespace wcp::history {

std::optional<double> earlier_pass_ms(const std::vector<Result>& results, const std::vector<std::string>& argv,
                                      const std::string& cwd, const std::string& host) {
  // Results are in the order they were recorded: the last match is the latest.
  for (auto result = results.rbegin(); result != results.rend(); ++result) {
    if (result->argv != argv || result->cwd != cwd || result->machine.host != host) continue;
    if (!result->cold_wall_ms) continue;
    if (!result->warm_wall_ms) return result->cold_wall_ms->median;
    return (result->cold_wall_ms->median + result->warm_wall_ms->median) / 2.0;
  }
  return std::nullopt;
}

}  // namespace wcp::history
