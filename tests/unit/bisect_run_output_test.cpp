// Reading how `git bisect run` ended from what it printed (git 2.39's wording).
#include "bisect/bisect_run_output.h"

#include <gtest/gtest.h>

namespace wcp::bisect {
namespace {

const std::string kBad(40, 'b');
const std::string kSkipA(40, 'a');
const std::string kSkipC(40, 'c');

TEST(BisectRunOutput, NamesTheFirstBadCommit) {
  const auto result = parse_bisect_run_output(
      "running  'wcp' 'bisect-step'\nbisect-step: aaaa good (every budget passed)\n"
      "Bisecting: 0 revisions left to test after this (roughly 0 steps)\n" +
      kBad + " is the first bad commit\ncommit " + kBad +
      "\nAuthor: A <a@b>\n\n    commit 5\n\nbisect found first bad commit\n");
  EXPECT_EQ(result.end, BisectEnd::first_bad);
  EXPECT_EQ(result.first_bad, kBad);
  EXPECT_TRUE(result.candidates.empty());
}

TEST(BisectRunOutput, OnlySkippedCommitsLeftListsTheCandidates) {
  const auto result = parse_bisect_run_output(
      "There are only 'skip'ped commits left to test.\n"
      "The first bad commit could be any of:\n" +
      kSkipA + "\n" + kSkipC +
      "\nWe cannot bisect more!\n"
      "bisect run cannot continue any more\n");
  EXPECT_EQ(result.end, BisectEnd::only_skipped);
  EXPECT_EQ(result.candidates, (std::vector<std::string>{kSkipA, kSkipC}));
}

TEST(BisectRunOutput, AnythingElseIsUnknown) {
  const auto result =
      parse_bisect_run_output("bisect run failed:\nexit code 128 from 'wcp bisect-step' is < 0 or >= 128\n");
  EXPECT_EQ(result.end, BisectEnd::unknown);
  EXPECT_TRUE(result.first_bad.empty());
}

}  // namespace
}  // namespace wcp::bisect
