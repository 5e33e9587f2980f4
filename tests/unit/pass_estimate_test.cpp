// The first progress estimate from the history: the latest run of the same command, in the same
// folder, on this host (history/pass_estimate).
#include "history/pass_estimate.h"

#include <gtest/gtest.h>

namespace wcp::history {
namespace {

Result result_of(std::vector<std::string> argv, std::string cwd, std::string host, double cold,
                 std::optional<double> warm) {
  Result result;
  result.argv = std::move(argv);
  result.cwd = std::move(cwd);
  result.machine.host = std::move(host);
  result.cold_wall_ms = summarize({cold});
  if (warm) result.warm_wall_ms = summarize({*warm});
  return result;
}

TEST(PassEstimate, TheLatestMatchingRunsAveragePass) {
  const std::vector<std::string> app{"python", "app.py"};
  const std::vector<Result> results{
      result_of(app, "/proj", "vm", 9000.0, 1000.0), result_of(app, "/proj", "vm", 7000.0, 1000.0),
      result_of(app, "/proj", "other-host", 1.0, 1.0), result_of(app, "/elsewhere", "vm", 2.0, 2.0),
      result_of({"python", "other.py"}, "/proj", "vm", 3.0, 3.0)};
  EXPECT_EQ(earlier_pass_ms(results, app, "/proj", "vm"), 4000.0);  // (7000 + 1000) / 2, the latest
  EXPECT_EQ(earlier_pass_ms(results, app, "/proj", "ci-runner"), std::nullopt);
  const std::vector<Result> cold_only{result_of(app, "/proj", "vm", 5000.0, std::nullopt)};
  EXPECT_EQ(earlier_pass_ms(cold_only, app, "/proj", "vm"), 5000.0);
}

}  // namespace
}  // namespace wcp::history
