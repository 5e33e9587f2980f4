// A baseline from a branch's recent runs (history/branch_baseline.h): which runs count, the
// window a structural step ends, "not enough" below the minimum, and the pooled clocks.
#include "history/branch_baseline.h"

#include <gtest/gtest.h>

#include "codec/report_json.h"

namespace wcp::history {
namespace {

Report report_with(std::vector<double> cold_ms) {
  Report report;
  report.tool_version = "0.9.0";
  report.warp_version = "1.19.0";
  report.command = {"python", "app.py"};
  report.samples = static_cast<int>(cold_ms.size());
  for (std::size_t index = 0; index < cold_ms.size(); ++index) {
    SampleResult sample;
    sample.index = static_cast<int>(index) + 1;
    sample.cold_ok = true;
    sample.cold_wall_ms = cold_ms[index] + 1000.0;
    sample.cold_module_ms = cold_ms[index];
    report.sample_results.push_back(sample);
  }
  report.cold_module_ms = summarize(cold_ms);
  report.cold_wall_ms = summarize({cold_ms.front() + 1000.0});
  return report;
}

Result run_of(std::int64_t id, std::string branch, std::string machine_class, std::vector<double> cold_ms,
              std::uint64_t identities = 1) {
  Result result;
  result.id = id;
  result.branch = std::move(branch);
  result.name = "app";
  result.machine = {"runner-" + std::to_string(id), "cpu", "", "", "1.19.0", "", std::move(machine_class)};
  result.tool_version = "0.9.0";
  result.samples = static_cast<int>(cold_ms.size());
  result.identities = identities;
  std::vector<std::string> identity_set;
  for (std::uint64_t index = 0; index < identities; ++index) identity_set.push_back("m " + std::to_string(index));
  result.identity_set = identity_set;
  result.report_json = report_to_json_text(report_with(cold_ms));
  return result;
}

BranchQuery main_on(std::string machine_class) {
  BranchQuery query;
  query.branch = "main";
  query.name = "app";
  query.machine = {"this-runner", "cpu", "", "", "1.19.0", "", std::move(machine_class)};
  query.tool_version = "0.9.0";
  query.window = 3;
  return query;
}

TEST(BranchBaseline, TakesTheNewestRunsOfTheBranchOnThisClassOnly) {
  const std::vector<Result> results{
      run_of(1, "main", "a", {100.0}), run_of(2, "main", "a", {110.0}), run_of(3, "pr-1", "a", {500.0}),
      run_of(4, "main", "b", {900.0}), run_of(5, "main", "a", {120.0}), run_of(6, "main", "a", {130.0}),
  };
  const auto found = branch_baseline(results, main_on("a"));
  ASSERT_TRUE(found.baseline.has_value()) << found.not_enough;
  ASSERT_EQ(found.runs.size(), 3u);
  EXPECT_EQ(found.runs[0]->id, 6);
  EXPECT_EQ(found.runs[2]->id, 2);  // the window of 3: run 1 is older than it
  // Pooled sample by sample: 130, 120, 110.
  EXPECT_EQ(found.baseline->cold_module_ms->values, (std::vector<double>{130.0, 120.0, 110.0}));
  EXPECT_DOUBLE_EQ(found.baseline->cold_module_ms->median, 120.0);
  EXPECT_EQ(found.baseline->samples, 3);
  EXPECT_EQ(found.baseline->sample_results.size(), 3u);
  EXPECT_NE(found.description.find("the last 3 runs of main on a"), std::string::npos);
}

TEST(BranchBaseline, TooFewRunsAreNotEnoughAndSaySo) {
  const std::vector<Result> results{run_of(1, "main", "b", {900.0}), run_of(2, "main", "a", {100.0})};
  const auto found = branch_baseline(results, main_on("b"));
  EXPECT_FALSE(found.baseline.has_value());
  EXPECT_TRUE(found.runs.empty());
  EXPECT_NE(found.not_enough.find("1 in the history, needs 3"), std::string::npos) << found.not_enough;
}

TEST(BranchBaseline, AStepOnTheBranchEndsTheWindow) {
  // Runs 1-2 compiled 1 identity; runs 3-4 compile 2: only the newest level counts.
  const std::vector<Result> results{run_of(1, "main", "a", {100.0}, 1), run_of(2, "main", "a", {100.0}, 1),
                                    run_of(3, "main", "a", {200.0}, 2), run_of(4, "main", "a", {210.0}, 2)};
  auto query = main_on("a");
  query.window = 5;
  const auto found = branch_baseline(results, query);
  EXPECT_FALSE(found.baseline.has_value());
  EXPECT_NE(found.not_enough.find("2 since its structure last changed (4 in all)"), std::string::npos)
      << found.not_enough;
}

TEST(BranchBaseline, ARunOfAnotherToolOrWarpVersionOrWithoutItsReportNeverCounts) {
  std::vector<Result> results{run_of(1, "main", "a", {100.0}), run_of(2, "main", "a", {100.0}),
                              run_of(3, "main", "a", {100.0})};
  results[0].tool_version = "0.8.0";
  results[1].machine.warp_version = "1.10.0";
  results[2].report_json.reset();
  const auto found = branch_baseline(results, main_on("a"));
  EXPECT_FALSE(found.baseline.has_value());
  EXPECT_NE(found.not_enough.find("0 in the history"), std::string::npos) << found.not_enough;
}

}  // namespace
}  // namespace wcp::history
