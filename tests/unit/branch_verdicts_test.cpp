// Each branch's latest verdict (history/branch_verdicts.h), and the branch filter of `history show`.
#include "history/branch_verdicts.h"

#include <gtest/gtest.h>

namespace wcp::history {
namespace {

Result result_of(std::int64_t id, std::string branch, std::string name, std::string machine_class,
                 std::string verdict) {
  Result result;
  result.id = id;
  result.branch = std::move(branch);
  result.name = std::move(name);
  result.machine.machine_class = std::move(machine_class);
  result.verdict = std::move(verdict);
  return result;
}

TEST(BranchVerdicts, TheNewestPerBranchCommandAndClassNewestFirst) {
  const std::vector<Result> results{
      result_of(1, "main", "app", "a", "pass"),       result_of(2, "pr-1", "app", "a", "fail"),
      result_of(3, "pr-1", "app", "a", "pass"),       result_of(4, "pr-1", "app", "b", "fail"),
      result_of(5, "", "app", "a", "fail"),  // no branch: no pull request's
      result_of(6, "main", "other", "a", "improved"),
  };
  const auto verdicts = latest_branch_verdicts(results, 10);
  ASSERT_EQ(verdicts.size(), 4u);
  EXPECT_EQ(verdicts[0].id, 6);
  EXPECT_EQ(verdicts[1].id, 4);
  EXPECT_EQ(verdicts[2].id, 3);  // pr-1's app on class a: the newer run, not id 2
  EXPECT_EQ(verdicts[2].verdict, "pass");
  EXPECT_EQ(verdicts[3].id, 1);
  EXPECT_EQ(latest_branch_verdicts(results, 2).size(), 2u);
}

TEST(BranchVerdicts, TheBranchFilterKeepsOnlyThatBranch) {
  const std::vector<Result> results{result_of(1, "main", "app", "a", ""), result_of(2, "pr-1", "app", "a", ""),
                                    result_of(3, "", "app", "a", "")};
  EXPECT_EQ(results_on_branch(results, "").size(), 3u);
  const auto main_only = results_on_branch(results, "main");
  ASSERT_EQ(main_only.size(), 1u);
  EXPECT_EQ(main_only[0].id, 1);
}

}  // namespace
}  // namespace wcp::history
